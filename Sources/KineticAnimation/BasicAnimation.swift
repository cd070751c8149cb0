import KineticGeometry

/// CABasicAnimation's value side: resolves `fromValue`/`toValue`/`byValue` against the
/// current presentation value and blends between the ends with a timing function.
public struct BasicAnimation: Hashable, Sendable {
    public var from: AnimatableValue?
    public var to: AnimatableValue?
    public var by: AnimatableValue?
    /// Applied to the progress of each cycle; CAAnimation's default is linear.
    public var timingFunction: TimingFunction

    public init(from: AnimatableValue? = nil, to: AnimatableValue? = nil, by: AnimatableValue? = nil,
                timingFunction: TimingFunction = .linear) {
        self.from = from; self.to = to; self.by = by; self.timingFunction = timingFunction
    }

    /// The start and end values, following CABasicAnimation's rules, `base` being the
    /// current presentation value of the key path:
    ///
    /// | given       | from → to            |
    /// |-------------|----------------------|
    /// | from, to    | from → to            |
    /// | from, by    | from → from + by     |
    /// | by, to      | to − by → to         |
    /// | from        | from → base          |
    /// | to          | base → to            |
    /// | by          | base → base + by     |
    /// | (none)      | base → base          |
    ///
    /// When all three are given, `from` and `to` win (CA leaves that case undefined; the
    /// loader should reject it). Nil when a value cannot be combined (kinds differ, or a
    /// kind that does not add, such as a path, is used with `by`).
    public func endpoints(base: AnimatableValue) -> (from: AnimatableValue, to: AnimatableValue)? {
        switch (from, to, by) {
        case (let f?, let t?, _): return (f, t)
        case (let f?, nil, let b?): return Interpolation.add(f, b).map { (f, $0) }
        case (nil, let t?, let b?): return Interpolation.subtract(t, b).map { ($0, t) }
        case (let f?, nil, nil): return (f, base)
        case (nil, let t?, nil): return (base, t)
        case (nil, nil, let b?): return Interpolation.add(base, b).map { (base, $0) }
        case (nil, nil, nil): return (base, base)
        }
    }

    /// The animated value at the un-eased cycle fraction `progress` (from
    /// `AnimationTiming.progress(at:)`): the timing function eases it, then the resolved
    /// ends are blended. Nil when the ends cannot be resolved or blended.
    public func value(at progress: Double, base: AnimatableValue) -> AnimatableValue? {
        guard let ends = endpoints(base: base) else { return nil }
        return Interpolation.lerp(ends.from, ends.to, timingFunction(progress))
    }
}
