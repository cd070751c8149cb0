import Foundation
import KineticGeometry

/// A behavior in the animator (UIDynamicBehavior): what it does, and when it is live.
public struct DynamicBehavior: Hashable, Sendable, Identifiable {
    /// The name events and animations use to reach it; unique among live behaviors.
    public var id: String
    /// The behavior is live in `[begin, end)`, in seconds of simulation time.
    public var begin: Double
    public var end: Double
    public var kind: Kind

    public enum Kind: Hashable, Sendable {
        case gravity(GravityBehavior)
        case collision(CollisionBehavior)
        case push(PushBehavior)
        case attachment(AttachmentBehavior)
        case snap(SnapBehavior)
        case itemBehavior(DynamicItemBehavior)
        case field(FieldBehavior)
    }

    public init(id: String, begin: Double = 0, end: Double = .infinity, _ kind: Kind) {
        self.id = id
        self.begin = begin
        self.end = end
        self.kind = kind
    }

    /// The ids of the items this behavior acts on.
    public var itemIDs: [String] {
        switch kind {
        case .gravity(let b): return b.items
        case .collision(let b): return b.items
        case .push(let b): return b.items
        case .attachment(let b):
            if case .item(let other, _) = b.attachedTo { return [b.item, other] }
            return [b.item]
        case .snap(let b): return [b.item]
        case .itemBehavior(let b): return b.items
        case .field(let b): return b.items
        }
    }
}

/// A vector given either as UIKit's `…Direction` (its length is the magnitude) or as
/// `angle` (radians from +x, clockwise on screen) and `magnitude`; both views stay in sync.
public protocol DirectedBehavior {
    var direction: Point { get set }
    /// The angle last set or last seen on a non-zero direction: UIKit keeps `angle` and
    /// `magnitude` apart, so an angle set while the magnitude is 0 is not lost.
    var heading: Double { get set }
}

extension DirectedBehavior {
    /// The direction's angle in radians (0 = +x, π/2 = down the screen).
    public var angle: Double {
        get { direction == .zero ? heading : atan2(direction.y, direction.x) }
        set {
            heading = newValue
            direction = Point(cos(newValue), sin(newValue)) * magnitude
        }
    }

    /// The direction's length.
    public var magnitude: Double {
        get { direction.length }
        set { direction = Point(cos(angle), sin(angle)) * newValue }
    }
}

/// UIGravityBehavior: a constant acceleration of `magnitude` × 1000 points/s², whatever the mass.
public struct GravityBehavior: Hashable, Sendable, DirectedBehavior {
    /// Points per second², per unit of magnitude (UIKit's documented unit).
    public static let accelerationPerMagnitude = 1000.0

    public var items: [String]
    /// The gravity vector; default (0, 1) = 1000 points/s² down.
    public var gravityDirection: Point {
        didSet { if gravityDirection != .zero { heading = atan2(gravityDirection.y, gravityDirection.x) } }
    }
    public var heading = Double.pi / 2
    public var direction: Point {
        get { gravityDirection }
        set { gravityDirection = newValue }
    }

    public init(items: [String], gravityDirection: Point = Point(0, 1)) {
        self.items = items
        self.gravityDirection = gravityDirection
        if gravityDirection != .zero { heading = atan2(gravityDirection.y, gravityDirection.x) }
    }

    public init(items: [String], angle: Double, magnitude: Double) {
        self.init(items: items, gravityDirection: Point(cos(angle), sin(angle)) * magnitude)
    }
}

/// UICollisionBehavior.Mode: what the items of a collision behavior collide with.
public struct CollisionMode: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The behavior's items collide with one another.
    public static let items = CollisionMode(rawValue: 1)
    /// The behavior's items collide with its boundaries.
    public static let boundaries = CollisionMode(rawValue: 2)
    public static let everything: CollisionMode = [.items, .boundaries]
}

/// A named boundary of a collision behavior (UIKit's `addBoundary(withIdentifier:…)`).
public struct CollisionBoundary: Hashable, Sendable {
    public var identifier: String
    public var shape: Shape

    public enum Shape: Hashable, Sendable {
        /// A segment (`addBoundary(withIdentifier:from:to:)`).
        case line(from: Point, to: Point)
        /// A path, closed as UIKit closes it: each subpath's end joins its start, so an
        /// arc collides along its chord too. Curves are flattened to within `flatness`.
        case path(BezierPath)
    }

    /// How far (points) the chords of a flattened path boundary stray from its curves.
    public static let flatness = 0.001

    public init(identifier: String, _ shape: Shape) {
        self.identifier = identifier
        self.shape = shape
    }
}

/// UICollisionBehavior.
public struct CollisionBehavior: Hashable, Sendable {
    public var items: [String]
    public var collisionMode: CollisionMode
    /// Adds the reference bounds, inset by `insets`, as a boundary (identifier nil in UIKit;
    /// contact events name it `referenceBoundsIdentifier`).
    public var translatesReferenceBoundsIntoBoundary: Bool
    public var insets: EdgeInsets
    public var boundaries: [CollisionBoundary]

    /// The identifier contact events give the reference-bounds boundary.
    public static let referenceBoundsIdentifier = "referenceBounds"

    public init(items: [String], collisionMode: CollisionMode = .everything,
                translatesReferenceBoundsIntoBoundary: Bool = false, insets: EdgeInsets = .zero,
                boundaries: [CollisionBoundary] = []) {
        self.items = items
        self.collisionMode = collisionMode
        self.translatesReferenceBoundsIntoBoundary = translatesReferenceBoundsIntoBoundary
        self.insets = insets
        self.boundaries = boundaries
    }
}

/// UIPushBehavior.
///
/// A force of `magnitude` × 100 in UIKit's mass units (density × area / 10000), so a
/// 100×100 item of density 1 accelerates at 100 points/s² per unit of magnitude.
public struct PushBehavior: Hashable, Sendable, DirectedBehavior {
    /// Force (continuous) or impulse (instantaneous) per unit of magnitude, in
    /// UIKit mass units × points/s² (or × points/s).
    public static let forcePerMagnitude = 100.0

    public enum Mode: Hashable, Sendable {
        /// A constant force while active.
        case continuous
        /// One impulse each time the behavior becomes active, then `active` turns false.
        case instantaneous
    }

    public var items: [String]
    public var mode: Mode
    /// The push vector; its length is the magnitude. Default (0, 0) = no push.
    public var pushDirection: Point {
        didSet { if pushDirection != .zero { heading = atan2(pushDirection.y, pushDirection.x) } }
    }
    public var heading = 0.0
    public var active: Bool
    /// Where the force applies, relative to each item's center (in screen orientation):
    /// off center, the push also turns the item.
    public var targetOffsetFromCenter: Point

    public var direction: Point {
        get { pushDirection }
        set { pushDirection = newValue }
    }

    public init(items: [String], mode: Mode = .continuous, pushDirection: Point = .zero,
                active: Bool = true, targetOffsetFromCenter: Point = .zero) {
        self.items = items
        self.mode = mode
        self.pushDirection = pushDirection
        if pushDirection != .zero { heading = atan2(pushDirection.y, pushDirection.x) }
        self.active = active
        self.targetOffsetFromCenter = targetOffsetFromCenter
    }
}

/// UIAttachmentBehavior: ties an item to an anchor point or to another item.
public struct AttachmentBehavior: Hashable, Sendable {
    /// The other end.
    public enum Attached: Hashable, Sendable {
        /// A point in reference-bounds coordinates (`anchorPoint`).
        case anchor(Point)
        /// Another item, at an offset from its center in its own (rotating) coordinates.
        case item(String, offsetFromCenter: Point)
    }

    /// UIAttachmentBehavior's types, the iOS 9 forms included.
    public enum Kind: Hashable, Sendable {
        /// `length` apart: a rigid rod when `frequency` is 0, else a spring.
        case distance
        /// Both ends held at one point; rotation free (`pinAttachment`), resisted by `frictionTorque`.
        case pin
        /// Both ends held at one point and relative rotation locked (`fixedAttachment`).
        case fixed
        /// At most `length` apart, like a rope (`limitAttachment`).
        case limit
        /// Slides along `axisOfTranslation` through the anchor within `attachmentRange`,
        /// without turning (`slidingAttachment`).
        case sliding(axisOfTranslation: Point)
    }

    public var kind: Kind
    public var item: String
    /// The attach point on `item`, relative to its center, in its own coordinates.
    public var offsetFromCenter: Point
    public var attachedTo: Attached
    /// The distance kept (`.distance`) or allowed (`.limit`); nil = the distance when the
    /// behavior first becomes live.
    public var length: Double?
    /// Oscillation frequency in Hz; 0 = rigid.
    public var frequency: Double
    /// Damping ratio (1 = critical), used when `frequency` > 0.
    public var damping: Double
    /// The most torque the joint's friction resists relative rotation with, in UIKit
    /// mass units × pt²/s² (0 = turns freely); for pin, distance and limit attachments.
    public var frictionTorque: Double
    /// The travel allowed along a sliding attachment's axis, relative to the anchor.
    public var attachmentRange: ClosedRange<Double>?

    public init(kind: Kind = .distance, item: String, offsetFromCenter: Point = .zero, attachedTo: Attached,
                length: Double? = nil, frequency: Double = 0, damping: Double = 0,
                frictionTorque: Double = 0, attachmentRange: ClosedRange<Double>? = nil) {
        self.kind = kind
        self.item = item
        self.offsetFromCenter = offsetFromCenter
        self.attachedTo = attachedTo
        self.length = length
        self.frequency = frequency
        self.damping = damping
        self.frictionTorque = frictionTorque
        self.attachmentRange = attachmentRange
    }

    /// The anchor point of an item–anchor attachment (nil for item–item); setting it on
    /// an item–item attachment does nothing.
    public var anchorPoint: Point? {
        get { if case .anchor(let p) = attachedTo { return p } else { return nil } }
        set { if let newValue, case .anchor = attachedTo { attachedTo = .anchor(newValue) } }
    }
}

/// UISnapBehavior: pulls an item to `snapPoint` and turns it back to rotation 0.
///
/// Modelled as UIKit builds it (its `_associate` as disassembled): four soft distance
/// joints of `springLength` points, `frequency` Hz and damping ratio `damping`, from
/// the item's top-left and bottom-right corners to fixed points beside a copy of the
/// item at the snap point. The joints pull unevenly while the item travels, so it tilts
/// and wobbles back to 0 (an item behavior's `allowsRotation: false` turns that off).
public struct SnapBehavior: Hashable, Sendable {
    /// Each joint's frequency, in Hz (UIKit's `_frequency`, 4).
    public static let frequency = 4.0
    /// Each joint's length, in points (UIKit's `_distance`, 50).
    public static let springLength = 50.0

    public var item: String
    public var snapPoint: Point
    /// 0…1, default 0.5; 0 = the most oscillation. Each joint's damping ratio.
    public var damping: Double

    public init(item: String, snapPoint: Point, damping: Double = 0.5) {
        self.item = item
        self.snapPoint = snapPoint
        self.damping = damping
    }
}

/// UIDynamicItemBehavior: material and motion properties of items.
///
/// A nil property is not set by this behavior: the item keeps what an earlier live
/// item behavior set, or UIKit's default (in parentheses). When several live item
/// behaviors set the same property of an item, the one listed last wins.
public struct DynamicItemBehavior: Hashable, Sendable {
    public var items: [String]
    /// Restitution 0…1 (0); combined with the other surface's by multiplication
    /// (boundaries have 1), so a ball of elasticity e on the floor rebounds to e² × height.
    public var elasticity: Double?
    /// Coulomb friction (0); combined by multiplication (boundaries have 1).
    public var friction: Double?
    /// Mass per area (1): mass = density × width × height / 10000.
    public var density: Double?
    /// Linear velocity damping (0). Each step of length h, velocity is divided by
    /// (1 + h × resistance) — Box2D's linear damping — so v(t) ≈ v0 · e^(−resistance·t).
    public var resistance: Double?
    /// Angular velocity damping (0), the same law as `resistance`.
    public var angularResistance: Double?
    /// Whether the item turns (true).
    public var allowsRotation: Bool?
    /// An anchored item collides but does not move (false).
    public var anchored: Bool?
    /// Electric charge for electric and magnetic fields (0).
    public var charge: Double?
    /// Added to the item's velocity once, when the behavior becomes live
    /// (`addLinearVelocity(_:for:)`), in points/s.
    public var linearVelocity: Point
    /// Added to the angular velocity once, when the behavior becomes live, in radians/s.
    public var angularVelocity: Double

    public init(items: [String], elasticity: Double? = nil, friction: Double? = nil, density: Double? = nil,
                resistance: Double? = nil, angularResistance: Double? = nil, allowsRotation: Bool? = nil,
                anchored: Bool? = nil, charge: Double? = nil, linearVelocity: Point = .zero,
                angularVelocity: Double = 0) {
        self.items = items
        self.elasticity = elasticity
        self.friction = friction
        self.density = density
        self.resistance = resistance
        self.angularResistance = angularResistance
        self.allowsRotation = allowsRotation
        self.anchored = anchored
        self.charge = charge
        self.linearVelocity = linearVelocity
        self.angularVelocity = angularVelocity
    }
}
