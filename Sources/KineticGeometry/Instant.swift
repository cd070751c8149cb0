/// Kinetic's one rule for comparing instants.
///
/// Begin and end times are sums and products of decimal seconds (`0.4 + 0.3`, a key time
/// `0.1875 × 1.6`), so two instants that are equal on paper differ in the last bits. Every
/// interval is half-open, `[begin, end)`, and a time within `epsilon` below a boundary
/// counts as at it: an `after:` chain begins, a keyframe's key time is reached and a
/// behavior goes live at the same frame its boundary names, whatever the rounding.
public enum Instant {
    /// Seconds closer than this are one instant (for key times, fractions of the duration).
    public static let epsilon = 1e-9

    /// Whether `time` has reached `boundary`.
    @inlinable public static func reached(_ time: Double, _ boundary: Double) -> Bool {
        time >= boundary - epsilon
    }

    /// The index of the last of `boundaries` (ascending) that `time` has reached, if any:
    /// the keyframe holding `time`.
    public static func lastIndex(reachedBy time: Double, in boundaries: ArraySlice<Double>) -> Int? {
        boundaries.lastIndex { reached(time, $0) }
    }
}
