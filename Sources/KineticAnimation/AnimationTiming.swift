import KineticGeometry

/// CAAnimation's `fillMode`: whether an animation affects its layer outside its active
/// duration.
public enum FillMode: String, Hashable, Sendable, CaseIterable {
    /// The animation has no effect before it begins or after it ends (CA's default).
    case removed
    /// After the active duration the final value persists.
    case forwards
    /// Before `beginTime` the initial value already shows.
    case backwards
    /// Both `forwards` and `backwards`.
    case both

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// The CAMediaTiming properties of one animation, and the mapping from scene time to the
/// un-eased fraction of the current cycle.
///
/// Times are in the parent's (scene's) seconds. Following CAMediaTiming, the animation's
/// local time is `(time − beginTime) × speed + timeOffset`; one cycle lasts `duration`
/// (2 × `duration` with `autoreverses`), and `repeatCount` cycles (fractions allowed)
/// make the active duration.
public struct AnimationTiming: Hashable, Sendable {
    /// Scene time at which the animation starts, seconds.
    public var beginTime: Double
    /// Length of one forward pass, local seconds. CAAnimation substitutes 0.25 for 0;
    /// here 0 is taken literally: the animation jumps to its end at `beginTime`.
    public var duration: Double
    /// Number of cycles, fractional allowed; `.infinity` repeats forever. Values ≤ 0 mean
    /// one cycle, as in CAMediaTiming.
    public var repeatCount: Double
    /// Each cycle plays forward, then backward.
    public var autoreverses: Bool
    public var fillMode: FillMode
    /// Rate of local time relative to scene time. 0 (or a negative value, which is not
    /// supported) freezes the animation at `timeOffset` once it has begun.
    public var speed: Double
    /// Added to local time, in local seconds: the animation starts part-way through and
    /// wraps around its active duration, as CAMediaTiming's `timeOffset`.
    public var timeOffset: Double
    /// CAMediaTiming's `repeatDuration`: how many local seconds the animation repeats for
    /// (replacing `repeatCount`); nil = `repeatCount` decides.
    public var repeatDuration: Double? = nil

    public init(beginTime: Double = 0, duration: Double = 0.25, repeatCount: Double = 1,
                autoreverses: Bool = false, fillMode: FillMode = .removed,
                speed: Double = 1, timeOffset: Double = 0) {
        self.beginTime = beginTime; self.duration = duration; self.repeatCount = repeatCount
        self.autoreverses = autoreverses; self.fillMode = fillMode
        self.speed = speed; self.timeOffset = timeOffset
    }

    /// Local seconds of one cycle (forward pass plus the reverse pass if autoreversing).
    public var cycleDuration: Double {
        max(duration, 0) * (autoreverses ? 2 : 1)
    }

    private var effectiveRepeatCount: Double { repeatCount > 0 ? repeatCount : 1 }

    /// Local seconds from begin to end; 0 for a zero duration even when repeating forever.
    private var localActiveDuration: Double {
        let cycle = cycleDuration
        guard cycle > 0 else { return 0 }
        if let repeatDuration, repeatDuration > 0 { return repeatDuration }
        return cycle * effectiveRepeatCount
    }

    /// Scene seconds from `beginTime` until the animation stops (`.infinity` for a forever
    /// animation or `speed` 0).
    public var activeDuration: Double {
        let local = localActiveDuration
        if local == 0 { return 0 }
        return speed > 0 ? local / speed : .infinity
    }

    /// Scene time at which the animation stops and `animationDidStop` fires: what an
    /// `after:` chain waits for.
    public var endTime: Double { beginTime + activeDuration }

    /// The un-eased fraction 0…1 of the current forward pass at scene time `time` (after
    /// the autoreverse mapping), or nil when the animation has no effect then.
    ///
    /// Before `beginTime` it is nil unless the fill mode is backwards/both, which shows the
    /// starting fraction. From `endTime` on (inclusive) it is nil unless the fill mode is
    /// forwards/both, which holds the final fraction: 1 after whole forward cycles, 0 after
    /// whole autoreversed cycles, the partial fraction after a fractional `repeatCount`.
    public func progress(at time: Double) -> Double? {
        localTime(at: time).map { fraction(atLocal: $0.time, endInclusive: $0.endInclusive) }
    }

    /// How many whole cycles have played before the one `progress(at:)` reads at `time`
    /// (0 in the first; nil when the animation has no effect then): what a cumulative
    /// animation (CAPropertyAnimation's `cumulative`) adds up.
    public func completedCycles(at time: Double) -> Int? {
        guard let (t, endInclusive) = localTime(at: time) else { return nil }
        let cycle = cycleDuration
        guard cycle > 0 else { return 0 }
        let local = wrapped(t, endInclusive: endInclusive)
        // As `fraction(atLocal:endInclusive:)` reads a cycle boundary.
        var inCycle = local.truncatingRemainder(dividingBy: cycle)
        var index = ((local - inCycle) / cycle).rounded()
        if Instant.reached(inCycle, cycle) { inCycle = 0; index += 1 }
        if endInclusive && inCycle == 0 && local > 0 { index -= 1 }
        return Int(min(max(index, 0), Double(Int32.max)))
    }

    /// The local time `progress(at:)` reads at scene time `time`, and whether a cycle
    /// boundary there ends the cycle before it (the fill after the end); nil when the
    /// animation has no effect then.
    private func localTime(at time: Double) -> (time: Double, endInclusive: Bool)? {
        guard time.isFinite else { return nil }
        let active = localActiveDuration
        if !Instant.reached(time, beginTime) {
            return fillMode.fillsBackwards ? (timeOffset, false) : nil
        }
        let elapsed = max(time - beginTime, 0) * max(speed, 0)
        if Instant.reached(elapsed, active) {
            guard fillMode.fillsForwards else { return nil }
            return (active + timeOffset, true)
        }
        return (elapsed + timeOffset, false)
    }

    /// Local time `t` wrapped into the active duration (for `timeOffset`).
    private func wrapped(_ t: Double, endInclusive: Bool) -> Double {
        let active = localActiveDuration
        var local = t
        if active.isFinite, local > active || local < 0 {
            local = local.truncatingRemainder(dividingBy: active)
            if local < 0 { local += active }
            if endInclusive && local == 0 { local = active }
        }
        return local
    }

    /// The forward-pass fraction at local time `t`, wrapped into the active duration (for
    /// `timeOffset`). `endInclusive` makes a cycle boundary count as the end of the cycle
    /// before it rather than the start of the next.
    private func fraction(atLocal t: Double, endInclusive: Bool) -> Double {
        let d = max(duration, 0)
        guard d > 0 else { return endInclusive && !autoreverses ? 1 : 0 }
        let local = wrapped(t, endInclusive: endInclusive)
        let cycle = cycleDuration
        var inCycle = local.truncatingRemainder(dividingBy: cycle)
        // A hair before a cycle boundary is the boundary (`Instant`).
        if Instant.reached(inCycle, cycle) { inCycle = 0 }
        if endInclusive && inCycle == 0 && local > 0 { inCycle = cycle }
        let phase = inCycle / d
        return min(max(autoreverses && phase > 1 ? 2 - phase : phase, 0), 1)
    }
}
