import Foundation

/// A collision reported by the animator (UICollisionBehaviorDelegate).
public struct ContactEvent: Hashable, Sendable {
    public enum Phase: Hashable, Sendable { case began, ended }

    /// What `item` touched.
    public enum Other: Hashable, Sendable {
        case item(String)
        /// A boundary by identifier (`CollisionBehavior.referenceBoundsIdentifier` for the
        /// reference bounds).
        case boundary(String)
    }

    public var phase: Phase
    /// Simulation time at the end of the step in which the contact began or ended.
    public var time: Double
    public var item: String
    public var other: Other
    /// The collision behavior the boundary belongs to (nil for item–item contacts).
    public var behavior: String?

    public init(phase: Phase, time: Double, item: String, other: Other, behavior: String? = nil) {
        self.phase = phase
        self.time = time
        self.item = item
        self.other = other
        self.behavior = behavior
    }
}
