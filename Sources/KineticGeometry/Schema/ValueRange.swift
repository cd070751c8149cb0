/// The numbers a property allows, and why: the loader refuses the others with its
/// message, for a literal, an animation value and an event's `set:` alike.
public struct ValueRange: Sendable, Equatable {
    public var lowerBound: Double?
    /// Whether the lower bound itself is excluded (`> 0`).
    public var excludesLowerBound = false
    public var upperBound: Double?
    /// Why the range is what it is, for the docs.
    public var reason: String

    public init(_ lowerBound: Double?, _ upperBound: Double?, excludesLowerBound: Bool = false, reason: String) {
        self.lowerBound = lowerBound; self.upperBound = upperBound
        self.excludesLowerBound = excludesLowerBound; self.reason = reason
    }

    public static func unit(_ reason: String) -> ValueRange { ValueRange(0, 1, reason: reason) }
    public static func nonNegative(_ reason: String) -> ValueRange { ValueRange(0, nil, reason: reason) }
    public static func positive(_ reason: String, atMost upper: Double? = nil) -> ValueRange {
        ValueRange(0, upper, excludesLowerBound: true, reason: reason)
    }

    public func contains(_ v: Double) -> Bool {
        if let lowerBound, excludesLowerBound ? !(v > lowerBound) : !(v >= lowerBound) { return false }
        if let upperBound, !(v <= upperBound) { return false }
        return true
    }

    /// What is wrong with `v`, as the loader says it (`name` leads a message about the
    /// upper bound); nil when it is in range.
    public func problem(with v: Double, name: String? = nil) -> String? {
        guard !contains(v) else { return nil }
        switch (lowerBound, upperBound) {
        case (0?, nil) where !excludesLowerBound: return "must not be negative, found \(Self.format(v))"
        case (0?, _) where excludesLowerBound && v <= 0: return "must be greater than 0, found \(Self.format(v))"
        case (_?, let upper?) where !excludesLowerBound:
            return "\(Self.format(v)) is out of range \(Self.format(lowerBound ?? 0))…\(Self.format(upper))"
        case (_, let upper?): return (name.map { "\($0) " } ?? "") + "must be at most \(Self.format(upper)), found \(Self.format(v))"
        default: return "must be greater than \(Self.format(lowerBound ?? 0)), found \(Self.format(v))"
        }
    }

    /// What is wrong with `v` as the physics says it, both bounds and the reason named
    /// ("must be ≥ 0 and ≤ 10000, got 20000 (…)"); nil when it is finite and in range.
    public func boundedProblem(with v: Double) -> String? {
        guard !(v.isFinite && contains(v)) else { return nil }
        let lower = lowerBound ?? -.infinity, upper = upperBound ?? .infinity
        let bounds = lower == -upper && !excludesLowerBound ? "finite and within ±\(Self.format(upper))"
            : "\(excludesLowerBound ? ">" : "≥") \(Self.format(lower)) and ≤ \(Self.format(upper))"
        return "must be \(bounds), got \(Self.format(v)) (\(reason))"
    }

    /// `v` as messages print it: whole numbers without a fraction.
    public static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// The range as the docs write it (`0…1`, `≥ 0`, `> 0, ≤ 10000`).
    public var text: String {
        switch (lowerBound, upperBound) {
        case (let lo?, let hi?) where !excludesLowerBound: "\(Self.format(lo))…\(Self.format(hi))"
        case (let lo?, let hi?): "> \(Self.format(lo)), ≤ \(Self.format(hi))"
        case (let lo?, nil): excludesLowerBound ? "> \(Self.format(lo))" : "≥ \(Self.format(lo))"
        case (nil, let hi?): "≤ \(Self.format(hi))"
        case (nil, nil): "any"
        }
    }
}

