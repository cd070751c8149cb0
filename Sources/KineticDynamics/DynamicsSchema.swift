// The one description of the `dynamics:` block: every key of every mapping, as Apple
// spells it, with its value kind, allowed range and why, default, whether it can change
// while the simulation runs, and one line of doc. The behaviors' checks (`validate()`,
// `setting(_:to:)`), the loader's key lists and `kinetic schema` all read it.
import Foundation

/// The kind of value a dynamics key takes.
public enum DynamicsValueKind: Hashable, Sendable {
    case number
    /// Radians, or degrees written "45deg".
    case angle
    case point
    case rect
    case bool
    case integer
    /// A name (a behavior id, a boundary identifier).
    case string
    /// A layer id.
    case item
    /// A list of layer ids.
    case items
    case path
    /// A path, or "@layerId" for a shape layer's path.
    case pathOrLayer
    case choice([String])
    /// A list of this many numbers ([top, left, bottom, right], [min, max]).
    case numbers(Int)
    /// A mapping described by another context of the table.
    case object(String)
    /// A list of mappings described by another context.
    case list(String)
    /// A mapping from layer ids to mappings of another context.
    case byItem(String)
}

/// A closed or half-open interval of allowed numbers, and why it is that.
public struct DynamicsRange: Hashable, Sendable {
    public var lower: Double
    public var upper: Double
    /// The lower bound itself is not allowed (density > 0).
    public var lowerOpen: Bool
    public var why: String

    public init(_ lower: Double, _ upper: Double, lowerOpen: Bool = false, why: String) {
        self.lower = lower; self.upper = upper; self.lowerOpen = lowerOpen; self.why = why
    }

    public func contains(_ v: Double) -> Bool {
        v.isFinite && (lowerOpen ? v > lower : v >= lower) && v <= upper
    }

    /// "must be ≥ 0 and ≤ 10000, got 20000".
    public func message(for v: Double) -> String {
        let bounds = lower == -upper && !lowerOpen ? "finite and within ±\(Self.format(upper))"
            : "\(lowerOpen ? ">" : "≥") \(Self.format(lower)) and ≤ \(Self.format(upper))"
        return "must be \(bounds), got \(Self.format(v)) (\(why))"
    }

    /// `v` as messages print it: whole numbers without a fraction.
    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// A default value, as the docs print it.
public enum DynamicsDefault: Hashable, Sendable {
    case number(Double)
    case point(Double, Double)
    case bool(Bool)
    case string(String)
}

/// One key of a dynamics mapping.
public struct DynamicsKey: Hashable, Sendable {
    /// The key as written in a scene.
    public var name: String
    /// Apple's name of the property (`UIDynamicItemBehavior.density`), when it has one.
    public var apple: String?
    public var kind: DynamicsValueKind
    public var range: DynamicsRange?
    public var defaultValue: DynamicsDefault?
    /// Whether it can change while the simulation runs (events' `set:`, `behavior:`
    /// animations, expressions).
    public var animatable: Bool
    public var doc: String
}

/// Limits every coordinate and vector of the physics lives within.
public enum DynamicsLimits {
    /// The largest coordinate or vector component accepted: far beyond any canvas, still
    /// well inside the range where Chipmunk's sums keep their precision.
    public static let largestValue = 1e7

    /// The largest attachment `frequency` (Hz) and `damping` ratio accepted: far past any
    /// spring a scene animates, small enough that a spring too stiff for the step rate
    /// blows up through finite values (caught as a blow-up, exit 70), never into the NaN
    /// Chipmunk aborts on.
    public static let largestSpringValue = 1e4

    /// The largest density: with the largest item (1e7 pt a side) a mass Chipmunk's
    /// solver still sums without overflow; the smallest items still get a finite inverse.
    public static let largestDensity = 1e6

    static let coordinate = DynamicsRange(-largestValue, largestValue,
                                          why: "beyond it Chipmunk's sums lose their precision")
    static let length = DynamicsRange(0, largestValue, why: "a distance, within the physics' coordinate range")
    static let material = DynamicsRange(0, largestValue, why: "a coefficient Chipmunk multiplies; negative is meaningless")
    static let spring = DynamicsRange(0, largestSpringValue,
                                      why: "stiffer springs blow up into NaN, which Chipmunk aborts on")
    static let fraction = DynamicsRange(0, 1, why: "UIKit's range")
    static let density = DynamicsRange(0, largestDensity, lowerOpen: true,
                                       why: "mass = density × area / 10000 must be positive and finite for Chipmunk")

    /// Checks that every value is finite and within ±`largestValue`.
    static func checkFinite(_ values: [Double], _ path: String) throws(DynamicsError) {
        guard values.allSatisfy(coordinate.contains) else {
            throw .invalidValue(path: path, reason: "must be finite and within ±\(Int(largestValue))")
        }
    }
}

/// The table: each mapping of the `dynamics:` block by context name, its keys in the
/// order the docs list them.
public enum DynamicsSchema {
    /// The behavior kinds, in the order the docs list them, with their Apple class and doc.
    public static let behaviorKinds: [(name: String, apple: String, doc: String)] = [
        ("gravity", "UIGravityBehavior", "UIGravityBehavior: constant acceleration of its items."),
        ("collision", "UICollisionBehavior", "UICollisionBehavior: items collide with each other and boundaries."),
        ("push", "UIPushBehavior", "UIPushBehavior: a continuous or instantaneous force."),
        ("attachment", "UIAttachmentBehavior", "UIAttachmentBehavior: a spring, rod or joint between items or an anchor."),
        ("snap", "UISnapBehavior", "UISnapBehavior: moves an item to a point with a damped spring."),
        ("itemBehavior", "UIDynamicItemBehavior", "UIDynamicItemBehavior: elasticity, friction, density, resistance of items."),
        ("field", "UIFieldBehavior", "UIFieldBehavior: a field acting on items in a region."),
    ]

    /// The contexts: `dynamics`, `dynamicItem`, `behavior` (keys every behavior has),
    /// each behavior kind, `boundary` and `region`.
    public static let contexts: [String: [DynamicsKey]] = {
        typealias L = DynamicsLimits
        func key(_ name: String, _ apple: String? = nil, _ kind: DynamicsValueKind, _ range: DynamicsRange? = nil,
                 _ defaultValue: DynamicsDefault? = nil, animatable: Bool = false, doc: String) -> DynamicsKey {
            DynamicsKey(name: name, apple: apple, kind: kind, range: range, defaultValue: defaultValue,
                        animatable: animatable, doc: doc)
        }
        let items = key("items", nil, .items, doc: "Layer ids.")
        return [
            "dynamics": [
                key("referenceBounds", "UIDynamicAnimator.referenceView.bounds", .rect, L.coordinate,
                    doc: "The reference view's bounds (default: the scene's)."),
                key("stepsPerSecond", nil, .integer, DynamicsRange(1, 100_000, why: "a step count Kinetic can afford"),
                    .number(240), doc: "Fixed simulation steps per second."),
                key("debug", nil, .bool, nil, .bool(false), doc: "Overlays bodies, joints, boundaries and field arrows."),
                key("items", nil, .byItem("dynamicItem"), doc: "Per-item settings by layer id."),
                key("behaviors", "UIDynamicAnimator.behaviors", .list("behavior"), doc: "The behaviors, as `- KIND: {…}`."),
            ],
            "dynamicItem": [
                key("collisionBoundsType", "UIDynamicItem.collisionBoundsType", .choice(["rectangle", "ellipse", "path"]),
                    nil, .string("rectangle"), doc: "The item's body shape."),
                key("collisionBoundingPath", "UIDynamicItem.collisionBoundingPath", .path,
                    doc: "A convex body in item coordinates (collisionBoundsType: path)."),
            ],
            "behavior": [
                key("id", nil, .string, doc: "Name for events and `behavior:` animations."),
                key("begin", nil, .number, DynamicsRange(0, .greatestFiniteMagnitude, why: "seconds of scene time"),
                    .number(0), doc: "Active from this time, in seconds."),
                key("end", nil, .number, DynamicsRange(0, .infinity, why: "seconds of scene time"),
                    doc: "Active until this time, in seconds."),
            ],
            "gravity": [
                items,
                key("gravityDirection", "UIGravityBehavior.gravityDirection", .point, L.coordinate, .point(0, 1),
                    animatable: true, doc: "Acceleration vector; 1 = 1000 points/s²."),
                key("angle", "UIGravityBehavior.angle", .angle, L.coordinate, animatable: true,
                    doc: "Direction, instead of gravityDirection."),
                key("magnitude", "UIGravityBehavior.magnitude", .number, L.coordinate, .number(1), animatable: true,
                    doc: "Strength with angle; 1 = 1000 points/s²."),
            ],
            "collision": [
                items,
                key("collisionMode", "UICollisionBehavior.collisionMode", .choice(["items", "boundaries", "everything"]),
                    nil, .string("everything"), doc: "What the items collide with."),
                key("translatesReferenceBoundsIntoBoundary", "UICollisionBehavior.translatesReferenceBoundsIntoBoundary",
                    .bool, nil, .bool(false), animatable: true, doc: "Makes the reference bounds a boundary."),
                key("insets", "UICollisionBehavior.setTranslatesReferenceBoundsIntoBoundary(with:)", .numbers(4),
                    L.coordinate, doc: "Insets of that boundary: [top, left, bottom, right]."),
                key("boundaries", "UICollisionBehavior.addBoundary(withIdentifier:…)", .list("boundary"),
                    doc: "Named line or path boundaries."),
            ],
            "boundary": [
                key("identifier", nil, .string, doc: "Name for contact events."),
                key("from", nil, .point, L.coordinate, doc: "Line start."),
                key("to", nil, .point, L.coordinate, doc: "Line end."),
                key("path", nil, .pathOrLayer, L.coordinate,
                    doc: "A closed path boundary, or \"@layerId\" for a shape layer's path."),
            ],
            "push": [
                items,
                key("mode", "UIPushBehavior.mode", .choice(["continuous", "instantaneous"]), nil, .string("continuous"),
                    doc: "A force, or a single impulse."),
                key("pushDirection", "UIPushBehavior.pushDirection", .point, L.coordinate, animatable: true,
                    doc: "Force vector; 1 accelerates a 100×100 item at 100 points/s²."),
                key("angle", "UIPushBehavior.angle", .angle, L.coordinate, animatable: true,
                    doc: "Direction, instead of pushDirection."),
                key("magnitude", "UIPushBehavior.magnitude", .number, L.coordinate, .number(0), animatable: true,
                    doc: "Strength with angle."),
                key("targetOffsetFromCenter", "UIPushBehavior.setTargetOffsetFromCenter(_:for:)", .point, L.coordinate,
                    .point(0, 0), animatable: true, doc: "Where the force applies, from the item's center."),
                key("active", "UIPushBehavior.active", .bool, nil, .bool(true), animatable: true, doc: "Whether it pushes."),
            ],
            "attachment": [
                key("kind", "UIAttachmentBehavior.attachedBehaviorType", .choice(["distance", "sliding", "fixed", "pin", "limit"]),
                    nil, .string("distance"), doc: "The attachment form (iOS 9 kinds)."),
                key("item", nil, .item, doc: "The attached item."),
                key("attachedTo", nil, .item, doc: "The other item."),
                key("attachedToAnchor", "UIAttachmentBehavior.init(item:attachedToAnchor:)", .point, L.coordinate,
                    animatable: true, doc: "A fixed anchor, instead of an item."),
                key("anchorPoint", "UIAttachmentBehavior.anchorPoint", .point, L.coordinate, animatable: true,
                    doc: "The anchor (animatable: a scripted pan)."),
                key("attachmentAnchor", "UIAttachmentBehavior.slidingAttachment(with:…attachmentAnchor:…)", .point,
                    L.coordinate, animatable: true, doc: "The anchor of sliding, fixed, pin and limit attachments."),
                key("offsetFromCenter", "UIAttachmentBehavior.init(item:offsetFromCenter:…)", .point, L.coordinate,
                    .point(0, 0), doc: "Attachment point on the item, from its center."),
                key("attachedOffsetFromCenter", "UIAttachmentBehavior.init(…attachedTo:offsetFromCenter:)", .point,
                    L.coordinate, .point(0, 0), doc: "Attachment point on the other item."),
                key("length", "UIAttachmentBehavior.length", .number, L.length, animatable: true,
                    doc: "Rest length (default: the initial distance)."),
                key("damping", "UIAttachmentBehavior.damping", .number, L.spring, .number(0), animatable: true,
                    doc: "Damping ratio of the spring."),
                key("frequency", "UIAttachmentBehavior.frequency", .number, L.spring, .number(0), animatable: true,
                    doc: "Spring frequency in Hz (0: a rigid rod)."),
                key("frictionTorque", "UIAttachmentBehavior.frictionTorque", .number, L.material, .number(0),
                    animatable: true, doc: "Resistance to rotation about the attachment."),
                key("attachmentRange", "UIAttachmentBehavior.attachmentRange", .numbers(2), L.coordinate,
                    doc: "[min, max] of a sliding or limit attachment."),
                key("axisOfTranslation", "UIAttachmentBehavior.slidingAttachment(with:…axisOfTranslation:)", .point,
                    L.coordinate, doc: "The axis a sliding attachment allows."),
            ],
            "snap": [
                key("item", nil, .item, doc: "The snapped item."),
                key("snapPoint", "UISnapBehavior.snapPoint", .point, L.coordinate, animatable: true, doc: "Where it snaps to."),
                key("damping", "UISnapBehavior.damping", .number, L.fraction, .number(0.5), animatable: true,
                    doc: "0 = most oscillation … 1."),
            ],
            "itemBehavior": [
                items,
                key("elasticity", "UIDynamicItemBehavior.elasticity", .number, L.material, .number(0), animatable: true,
                    doc: "Restitution of collisions (1: no energy lost)."),
                key("friction", "UIDynamicItemBehavior.friction", .number, L.material, .number(0), animatable: true,
                    doc: "Coulomb friction between items."),
                key("density", "UIDynamicItemBehavior.density", .number, L.density, .number(1), animatable: true,
                    doc: "Mass = density × area / 10000."),
                key("resistance", "UIDynamicItemBehavior.resistance", .number, L.material, .number(0), animatable: true,
                    doc: "Linear velocity damping."),
                key("angularResistance", "UIDynamicItemBehavior.angularResistance", .number, L.material, .number(0),
                    animatable: true, doc: "Angular velocity damping."),
                key("allowsRotation", "UIDynamicItemBehavior.allowsRotation", .bool, nil, .bool(true), animatable: true,
                    doc: "Whether the items turn."),
                key("anchored", "UIDynamicItemBehavior.isAnchored", .bool, nil, .bool(false), animatable: true,
                    doc: "Fixes the items in place (they still collide)."),
                key("charge", "UIDynamicItemBehavior.charge", .number, L.coordinate, .number(0), animatable: true,
                    doc: "Charge for electric and magnetic fields."),
                key("linearVelocity", "UIDynamicItemBehavior.addLinearVelocity(_:for:)", .point, L.coordinate, .point(0, 0),
                    doc: "Velocity added at the start, points/s."),
                key("angularVelocity", "UIDynamicItemBehavior.addAngularVelocity(_:for:)", .number, L.coordinate,
                    .number(0), doc: "Angular velocity added at the start, radians/s."),
            ],
            "field": [
                key("kind", nil, .choice(FieldBehavior.Kind.allCases.map(\.rawValue)), doc: "The UIFieldBehavior kind."),
                items,
                key("position", "UIFieldBehavior.position", .point, L.coordinate, .point(0, 0), animatable: true,
                    doc: "The field's position."),
                key("region", "UIFieldBehavior.region", .object("region"), doc: "Where the field acts: {radius} or {rect}."),
                key("strength", "UIFieldBehavior.strength", .number, L.coordinate, .number(1), animatable: true,
                    doc: "Field strength."),
                key("falloff", "UIFieldBehavior.falloff", .number, L.length, .number(0), animatable: true,
                    doc: "How strength falls with distance."),
                key("minimumRadius", "UIFieldBehavior.minimumRadius", .number, L.length, .number(0), animatable: true,
                    doc: "Distance below which the field does not grow."),
                key("direction", "UIFieldBehavior.direction", .point, L.coordinate, .point(0, 1), animatable: true,
                    doc: "Direction of linearGravity and velocity fields."),
                key("smoothness", "UIFieldBehavior.smoothness", .number, L.fraction, .number(0.5), animatable: true,
                    doc: "Noise and turbulence smoothness."),
                key("animationSpeed", "UIFieldBehavior.animationSpeed", .number, L.coordinate, .number(0),
                    animatable: true, doc: "Noise and turbulence change per second."),
            ],
            "region": [
                key("radius", "UIRegion(radius:)", .number, L.length, doc: "A circle of this radius around the position."),
                key("rect", "UIRegion(size:)", .rect, L.coordinate, doc: "A rectangle."),
            ],
        ]
    }()

    /// The keys of one context, in doc order (empty for an unknown context).
    public static func keys(of context: String) -> [String] {
        (contexts[context] ?? []).map(\.name)
    }

    /// One key of one context.
    public static func key(_ name: String, in context: String) -> DynamicsKey? {
        contexts[context]?.first { $0.name == name }
    }

    /// Checks `value` against the range of `context.name`; the error's path is `name`.
    static func check(_ value: Double?, _ name: String, in context: String) throws(DynamicsError) {
        guard let value, let range = key(name, in: context)?.range else { return }
        guard range.contains(value) else { throw .invalidValue(path: name, reason: range.message(for: value)) }
    }

    /// Checks every component of a point or list against the range of `context.name`.
    static func check(_ values: [Double], _ name: String, in context: String) throws(DynamicsError) {
        for v in values { try check(v, name, in: context) }
    }
}
