import Foundation
import KineticGeometry

/// UIPushBehavior.
///
/// A force of `magnitude` × 100 in UIKit's mass units (density × area / 10000), so a
/// 100×100 item of density 1 accelerates at 100 points/s² per unit of magnitude.
public struct PushBehavior: Hashable, Sendable, DirectedBehavior, TabledBehavior {
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

extension PushBehavior {
    /// The keys of `- push: {…}`, each once: the loader reads, `setting(_:to:)` sets and
    /// `validate()` checks by these.
    public static let properties: [DynamicsProperty<PushBehavior>] = [
        .items(\.items),
        .option("mode", "UIPushBehavior.mode", \.mode, [("continuous", .continuous), ("instantaneous", .instantaneous)],
                default: "continuous", doc: "A force, or a single impulse."),
        .point("pushDirection", "UIPushBehavior.pushDirection", \.pushDirection, range: DynamicsLimits.coordinate,
               writtenAs: ["pushDirection", "magnitude", "angle"],
               doc: "Force vector; 1 accelerates a 100×100 item at 100 points/s²."),
        // An angle only turns the checked vector, so it takes any value.
        .number("angle", "UIPushBehavior.angle", \.angle, kind: .angle, range: nil, checked: false,
                doc: "Direction, instead of pushDirection."),
        // The vector it scales is checked, each coordinate within the range (the schema
        // can say the magnitude's range alone, which is the vector's along an axis).
        .number("magnitude", "UIPushBehavior.magnitude", \.magnitude, range: DynamicsLimits.coordinate, default: 0, checked: false,
                doc: "Strength with angle."),
        .flag("active", "UIPushBehavior.active", \.active, default: true, doc: "Whether it pushes."),
        .point("targetOffsetFromCenter", "UIPushBehavior.setTargetOffsetFromCenter(_:for:)", \.targetOffsetFromCenter,
               range: DynamicsLimits.coordinate, default: .zero, doc: "Where the force applies, from the item's center."),
    ]
}
