import Foundation
import KineticGeometry

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

extension CollisionBehavior {
    /// The keys of `- collision: {…}`, each once: the loader reads, `setting(_:to:)` sets
    /// and `validate()` checks by these.
    public static let properties: [DynamicsProperty<CollisionBehavior>] = [
        .items(\.items),
        .option("collisionMode", "UICollisionBehavior.collisionMode", \.collisionMode,
                [("items", .items), ("boundaries", .boundaries), ("everything", .everything)], default: "everything",
                doc: "What the items collide with."),
        .flag("translatesReferenceBoundsIntoBoundary", "UICollisionBehavior.translatesReferenceBoundsIntoBoundary",
              \.translatesReferenceBoundsIntoBoundary, default: false, doc: "Makes the reference bounds a boundary."),
        DynamicsProperty("insets", "UICollisionBehavior.setTranslatesReferenceBoundsIntoBoundary(with:)", .fixedNumbers(4),
                         range: DynamicsLimits.coordinate, doc: "Insets of that boundary: [top, left, bottom, right].",
                         assign: DynamicsProperty.assigning(\CollisionBehavior.insets) { v in
                             guard case .numbers(let n) = v, n.count == 4 else { return nil }
                             return EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
                         },
                         checked: { [$0.insets.top, $0.insets.left, $0.insets.bottom, $0.insets.right] }),
        .described("boundaries", "UICollisionBehavior.addBoundary(withIdentifier:…)", .mappings("boundary"),
                   doc: "Named line or path boundaries."),
    ]

    /// Checks the values against `properties` and `CollisionBoundary.properties`; the
    /// error's path is the key (`insets`, `boundaries.wall`).
    func validate() throws(DynamicsError) {
        for p in Self.properties { try p.check(self) }
        for b in boundaries {
            let values = switch b.shape {
            case .line(let from, let to): [from.x, from.y, to.x, to.y]
            case .path(let p): p.elements.flatMap(\.points).flatMap { [$0.x, $0.y] }
            }
            guard let range = CollisionBoundary.properties.property(b.shape.key)?.range else { continue }
            try DynamicsLimits.check(values, in: range, "boundaries.\(b.identifier)")
        }
    }
}

extension CollisionBoundary {
    /// The keys of a boundary (`boundaries: [{…}]`): a line `from` + `to`, or a `path`.
    public static let properties: [DynamicsProperty<CollisionBoundary>] = [
        DynamicsProperty("identifier", nil, .string, doc: "Name for contact events.",
                         assign: DynamicsProperty.assigning(\.identifier, \.nameValue)),
        DynamicsProperty("from", nil, .point, range: DynamicsLimits.coordinate, doc: "Line start.",
                         assign: { $0.setLineEnd($1, isStart: true) }),
        DynamicsProperty("to", nil, .point, range: DynamicsLimits.coordinate, doc: "Line end.",
                         assign: { $0.setLineEnd($1, isStart: false) }),
        DynamicsProperty("path", nil, .pathOrShapeLayer, range: DynamicsLimits.coordinate,
                         doc: "A closed path boundary, or \"@layerId\" for a shape layer's path.",
                         assign: DynamicsProperty.assigning(\.shape) { $0.pathValue.map { .path($0) } }),
    ]

    /// Sets a line's start or end (none of a path); false for a value that is no point.
    private mutating func setLineEnd(_ value: BehaviorValue, isStart: Bool) -> Bool {
        guard let p = value.pointValue else { return false }
        if case .line(let from, let to) = shape { shape = isStart ? .line(from: p, to: to) : .line(from: from, to: p) }
        return true
    }
}

extension CollisionBoundary.Shape {
    /// The key the shape is written with ("from" for a line, "path").
    var key: String {
        if case .line = self { return "from" } else { return "path" }
    }
}
