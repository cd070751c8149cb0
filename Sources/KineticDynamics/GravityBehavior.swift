import Foundation
import KineticGeometry

/// UIGravityBehavior: a constant acceleration of `magnitude` × 1000 points/s², whatever the mass.
public struct GravityBehavior: Hashable, Sendable, DirectedBehavior, TabledBehavior {
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
    /// The keys of `- gravity: {…}`, each once: the loader reads, `setting(_:to:)` sets
    /// and `validate()` checks by these.
    public static let properties: [DynamicsProperty<GravityBehavior>] = [
        .items(\.items),
        .point("gravityDirection", "UIGravityBehavior.gravityDirection", \.gravityDirection, range: DynamicsLimits.coordinate,
               default: Point(0, 1), writtenAs: ["gravityDirection", "magnitude", "angle"],
               doc: "Acceleration vector; 1 = 1000 points/s²."),
        // An angle only turns the checked vector, so it takes any value.
        .number("angle", "UIGravityBehavior.angle", \.angle, kind: .angle, range: nil, checked: false,
                doc: "Direction, instead of gravityDirection."),
        // The vector it scales is checked, each coordinate within the range (the schema
        // can say the magnitude's range alone, which is the vector's along an axis).
        .number("magnitude", "UIGravityBehavior.magnitude", \.magnitude, range: DynamicsLimits.coordinate, default: 1, checked: false,
                doc: "Strength with angle; 1 = 1000 points/s²."),
    ]
}
