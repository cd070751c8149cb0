import Foundation
import KineticGeometry

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

extension GravityBehavior {
    /// Checks the values against `DynamicsSchema` ("gravity"); the error's path is the key.
    func validate() throws(DynamicsError) {
        try DynamicsSchema.check([gravityDirection.x, gravityDirection.y], "gravityDirection", in: "gravity")
    }
}
