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
    /// Checks the values against `DynamicsSchema` ("collision", "boundary"); the error's
    /// path is the key (`insets`, `boundaries.wall`).
    func validate() throws(DynamicsError) {
        try DynamicsSchema.check([insets.top, insets.left, insets.bottom, insets.right], "insets", in: "collision")
        for b in boundaries {
            let values: [Double]
            switch b.shape {
            case .line(let from, let to): values = [from.x, from.y, to.x, to.y]
            case .path(let p): values = p.elements.flatMap(\.points).flatMap { [$0.x, $0.y] }
            }
            do { try DynamicsSchema.check(values, b.shape.key, in: "boundary") } catch {
                guard case .invalidValue(_, let reason) = error else { throw error }
                throw .invalidValue(path: "boundaries.\(b.identifier)", reason: reason)
            }
        }
    }
}

extension CollisionBoundary.Shape {
    /// The key the shape is written with ("from" for a line, "path").
    var key: String {
        if case .line = self { return "from" } else { return "path" }
    }
}
