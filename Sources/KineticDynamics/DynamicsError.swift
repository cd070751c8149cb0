import Foundation

/// What the animator refuses or runs into.
public enum DynamicsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A value Chipmunk must never see (non-finite, out of range, degenerate shape);
    /// `path` names it, e.g. `behavior g.gravityDirection` or `item ball.size`.
    case invalidValue(path: String, reason: String)
    /// A behavior names an item that is not one of the animator's items.
    case unknownItem(behavior: String, item: String)
    /// Two behaviors with one id.
    case duplicateBehavior(String)
    /// No behavior with this id.
    case unknownBehavior(String)
    /// The simulation blew up: `item`'s state was no longer finite (or absurdly large)
    /// at `time` seconds. Nothing after this time is trustworthy.
    case nonFiniteState(time: Double, item: String)

    public var description: String {
        switch self {
        case .invalidValue(let path, let reason): return "\(path): \(reason)"
        case .unknownItem(let behavior, let item): return "behavior \(behavior): unknown item '\(item)'"
        case .duplicateBehavior(let id): return "duplicate behavior id '\(id)'"
        case .unknownBehavior(let id): return "no behavior with id '\(id)'"
        case .nonFiniteState(let time, let item):
            return "simulation blew up at t = \(time) s: item '\(item)' has a non-finite or runaway (> 1e12) position or velocity"
        }
    }
}
