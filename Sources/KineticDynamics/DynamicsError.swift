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

    /// What an error can be about, for a caller that knows where each was written.
    public enum Subject: Hashable, Sendable {
        case item(String), behavior(String)
    }

    /// The item or behavior this error is about, nil for the animator's own settings
    /// (`stepsPerSecond`, `time`). An `invalidValue` path is `item ID[.key]` or
    /// `behavior ID[.key]`, and ids may hold dots (`dynamics.behaviors[2]`), so the
    /// longest id that `isItem` / `isBehavior` accepts is taken.
    public func subject(isItem: (String) -> Bool, isBehavior: (String) -> Bool) -> Subject? {
        switch self {
        case .nonFiniteState(_, let item): return .item(item)
        case .unknownItem(let behavior, _), .duplicateBehavior(let behavior), .unknownBehavior(let behavior):
            return .behavior(behavior)
        case .invalidValue(let path, _):
            if let id = Self.id(in: path, after: "item ", isKnown: isItem) { return .item(id) }
            if let id = Self.id(in: path, after: "behavior ", isKnown: isBehavior) { return .behavior(id) }
            return nil
        }
    }

    /// The description for a message that already starts at `subject`'s place: an
    /// `invalidValue` without `item ID` / `behavior ID` (keeping a property key after it).
    public func detail(about subject: Subject) -> String {
        guard case .invalidValue(let path, let reason) = self else { return description }
        let name: String
        switch subject {
        case .item(let id): name = "item \(id)"
        case .behavior(let id): name = "behavior \(id)"
        }
        if path == name { return reason }
        if path.hasPrefix(name + ".") { return "\(path.dropFirst(name.count + 1)): \(reason)" }
        return description
    }

    /// The longest known id that `path` holds after `prefix`: the whole rest, or the part
    /// before one of its dots.
    private static func id(in path: String, after prefix: String, isKnown: (String) -> Bool) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        let ends = [rest.endIndex] + rest.indices.filter { rest[$0] == "." }.reversed()
        return ends.lazy.map { String(rest[..<$0]) }.first(where: isKnown)
    }

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
