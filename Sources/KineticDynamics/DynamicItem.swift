import Foundation
import KineticGeometry

/// The shape an item collides with (UIDynamicItemCollisionBoundsType).
public enum CollisionBoundsType: Hashable, Sendable {
    /// The item's bounds (the default).
    case rectangle
    /// The ellipse inscribed in the bounds (a circle for a square item).
    case ellipse
    /// A convex path in item coordinates, origin at the item's center
    /// (UIDynamicItem.collisionBoundingPath). Curves are flattened; the hull is used.
    case path(BezierPath)
}

/// A body the animator moves (UIDynamicItem): a layer's center, bounds size and rotation.
public struct DynamicItem: Hashable, Sendable, Identifiable {
    /// The layer id behaviors refer to.
    public var id: String
    /// The center in reference-bounds coordinates (UIView.center / CALayer.position).
    public var center: Point
    /// The bounds size; with the density, it gives the mass.
    public var size: Size
    /// The rotation in radians, clockwise on screen (transform.rotation.z).
    public var angle: Double
    public var collisionBoundsType: CollisionBoundsType

    public init(id: String, center: Point, size: Size, angle: Double = 0,
                collisionBoundsType: CollisionBoundsType = .rectangle) {
        self.id = id
        self.center = center
        self.size = size
        self.angle = angle
        self.collisionBoundsType = collisionBoundsType
    }
}

/// An item's simulated state, as read back after a step.
public struct DynamicItemState: Hashable, Sendable {
    /// The center, in reference-bounds coordinates.
    public var center: Point
    /// The rotation in radians, clockwise on screen.
    public var angle: Double
    /// Points per second.
    public var velocity: Point
    /// Radians per second, clockwise on screen.
    public var angularVelocity: Double

    public init(center: Point, angle: Double, velocity: Point, angularVelocity: Double) {
        self.center = center
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
    }
}

/// UIEdgeInsets, in points.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    public static let zero = EdgeInsets()
}
