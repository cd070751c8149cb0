import KineticGeometry

/// CAKeyframeAnimation's value side for `values` keyframes (keyframes along a `path`:
/// `PathKeyframeAnimation`, which checks its key times with these rules).
public struct KeyframeAnimation: Hashable, Sendable {
    /// CAAnimationCalculationMode.
    public enum CalculationMode: String, Hashable, Sendable {
        /// Straight blends between successive values at their key times.
        case linear
        /// Each value holds until the next key time; nothing is blended.
        case discrete
        /// Key times (and timing functions) are ignored; times are spaced so the value
        /// moves at constant speed, measured by the distance between successive values.
        case paced
        /// A smooth spline through the values: Kochanek–Bartels with tension, continuity
        /// and bias 0 (CA's defaults), i.e. Catmull-Rom, timed by the key times. Values of
        /// discrete kinds fall back to `linear`.
        case cubic
    }

    /// What makes a keyframe animation unusable; the loader reports these.
    public enum ValidationError: Error, Hashable, Sendable {
        case noValues
        /// `values[index]` is of another kind than `values[0]`.
        case mixedValueKinds(index: Int, expected: AnimatableValue.Kind, got: AnimatableValue.Kind)
        /// Arrays of different counts or paths of different structure cannot be blended.
        case incompatibleValues(index: Int)
        case keyTimesCountMismatch(expected: Int, got: Int)
        case keyTimeOutOfRange(index: Int, value: Double)
        case keyTimesDecreasing(index: Int)
        case keyTimesMustStartAtZero(got: Double)
        case keyTimesMustEndAtOne(got: Double)
        case timingFunctionsCountMismatch(expected: Int, got: Int)
        /// `paced` needs a distance between values; this kind has none.
        case notMeasurable(AnimatableValue.Kind)
    }

    public var values: [AnimatableValue]
    /// Fractions 0…1 of the duration at which each value is reached; nil spaces them
    /// evenly.
    public var keyTimes: [Double]?
    /// One per segment between values (n − 1), easing each segment; nil is linear.
    public var timingFunctions: [TimingFunction]?
    public var calculationMode: CalculationMode

    public init(values: [AnimatableValue], keyTimes: [Double]? = nil,
                timingFunctions: [TimingFunction]? = nil, calculationMode: CalculationMode = .linear) {
        self.values = values; self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions; self.calculationMode = calculationMode
    }

    /// Checks the animation against CAKeyframeAnimation's rules:
    ///
    /// - `linear`/`cubic`: n key times for n values, non-decreasing, from 0 to 1; n − 1
    ///   timing functions.
    /// - `discrete`: Apple documents n + 1 key times for n values, each value holding from
    ///   its key time to the next, the last ending at 1. Apple's keyTimes page also
    ///   allows a count equal to `values`; then the last value holds from its key time to
    ///   the end, so the last key time need not be 1. Both are accepted; a mismatch
    ///   reports the documented n + 1. Timing functions cannot affect discrete values and
    ///   are not checked.
    /// - `paced`: key times and timing functions are ignored (as CA does); the values must
    ///   have a distance (numbers, points, sizes, rects, colors and their arrays).
    public func validate() throws(ValidationError) {
        guard let first = values.first else { throw .noValues }
        for (i, v) in values.enumerated() where v.kind != first.kind {
            throw .mixedValueKinds(index: i, expected: first.kind, got: v.kind)
        }
        if !first.kind.isDiscrete, LinearForm(values: values) == nil {
            // Find the first value that does not fit with values[0].
            let bad = values.indices.dropFirst().first { LinearForm(values: [first, values[$0]]) == nil }
            throw .incompatibleValues(index: bad ?? 0)
        }
        let n = values.count
        if calculationMode == .paced {
            guard Self.measurableKinds.contains(first.kind) else { throw .notMeasurable(first.kind) }
            return
        }
        if let times = keyTimes {
            let discrete = calculationMode == .discrete
            let countOK = discrete ? (times.count == n || times.count == n + 1) : times.count == n
            guard countOK else { throw .keyTimesCountMismatch(expected: discrete ? n + 1 : n, got: times.count) }
            for (i, t) in times.enumerated() {
                guard (0...1).contains(t) else { throw .keyTimeOutOfRange(index: i, value: t) }
                if i > 0, t < times[i - 1] { throw .keyTimesDecreasing(index: i) }
            }
            if let t0 = times.first, t0 != 0 { throw .keyTimesMustStartAtZero(got: t0) }
            let needsEndAtOne = !(discrete && times.count == n)
            if needsEndAtOne, let last = times.last, last != 1 { throw .keyTimesMustEndAtOne(got: last) }
        }
        if calculationMode != .discrete, let fns = timingFunctions, fns.count != max(n - 1, 0) {
            throw .timingFunctionsCountMismatch(expected: max(n - 1, 0), got: fns.count)
        }
    }

    /// The kinds `paced` can measure.
    private static let measurableKinds: Set<AnimatableValue.Kind> = [.number, .point, .size, .rect, .color, .numbers, .colors]

    /// The value at the un-eased fraction `progress` of the cycle (clamped to 0…1), or
    /// nil when `validate()` fails.
    public func value(at progress: Double) -> AnimatableValue? {
        guard (try? validate()) != nil, let first = values.first else { return nil }
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        if values.count == 1 { return first }
        switch calculationMode {
        case .discrete: return discreteValue(at: p)
        case .linear: return blendedValue(at: p, times: keyTimes ?? Self.evenTimes(values.count), eased: true, spline: false)
        case .cubic: return blendedValue(at: p, times: keyTimes ?? Self.evenTimes(values.count), eased: true, spline: true)
        case .paced: return blendedValue(at: p, times: pacedKeyTimes ?? Self.evenTimes(values.count), eased: false, spline: false)
        }
    }

    /// The key times `paced` uses: cumulative Euclidean distance between successive
    /// values over the total, so equal times cover equal distances. Nil when the values
    /// are not measurable; evenly spaced when they do not move at all.
    public var pacedKeyTimes: [Double]? {
        guard let first = values.first, Self.measurableKinds.contains(first.kind),
              let form = LinearForm(values: values) else { return nil }
        var cumulative = [0.0]
        for (a, b) in zip(form.vectors, form.vectors.dropFirst()) {
            let d = zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
            cumulative.append(cumulative[cumulative.count - 1] + d)
        }
        guard let total = cumulative.last, total > 0 else { return Self.evenTimes(values.count) }
        return cumulative.map { $0 / total }
    }

    private static func evenTimes(_ n: Int) -> [Double] {
        (0..<n).map { Double($0) / Double(n - 1) }
    }

    private func discreteValue(at p: Double) -> AnimatableValue? {
        let n = values.count
        // Value i holds on [times[i], times[i + 1]); the last one holds to the end.
        let times = keyTimes ?? (0..<n).map { Double($0) / Double(n) }
        let index = Instant.lastIndex(reachedBy: p, in: times.prefix(n)) ?? 0
        return values[index]
    }

    /// The two values blended at the un-eased fraction `progress` and the eased fraction
    /// between them (nil for `discrete`, which blends nothing, or when `validate()`
    /// fails): what a cross-fade of `contents` images shows.
    public func blend(at progress: Double) -> (from: AnimatableValue, to: AnimatableValue, fraction: Double)? {
        guard (try? validate()) != nil, values.count > 1, calculationMode != .discrete else { return nil }
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        let paced = calculationMode == .paced
        let times = (paced ? pacedKeyTimes : keyTimes) ?? Self.evenTimes(values.count)
        let (i, s) = segment(at: p, times: times, eased: !paced)
        return (values[i], values[i + 1], s)
    }

    /// The segment [times[i], times[i + 1]] holding p and the fraction along it; with
    /// repeated key times the last one wins, so a value reached at a jump is shown from
    /// there on.
    private func segment(at p: Double, times: [Double], eased: Bool) -> (index: Int, fraction: Double) {
        let n = values.count
        let i = min(Instant.lastIndex(reachedBy: p, in: times.prefix(n - 1)) ?? 0, n - 2)
        let span = times[i + 1] - times[i]
        var s = span > 0 ? max(p - times[i], 0) / span : 1
        if eased, let fns = timingFunctions, i < fns.count { s = fns[i](s) }
        return (i, s)
    }

    private func blendedValue(at p: Double, times: [Double], eased: Bool, spline: Bool) -> AnimatableValue? {
        let (i, s) = segment(at: p, times: times, eased: eased)
        guard spline, let form = LinearForm(values: values) else {
            return Interpolation.lerp(values[i], values[i + 1], s)
        }
        return form.rebuild(Self.catmullRom(form.vectors, times: times, segment: i, s))
    }

    /// Cubic Hermite on segment i with Catmull-Rom tangents: the slope (per unit of time)
    /// of the chord from the previous to the next value, scaled to the segment's length,
    /// so the motion's velocity is continuous across key times even when they are
    /// unevenly spaced (for even spacing this is the textbook (p[i+1] − p[i−1]) / 2). A
    /// missing neighbour at either end repeats the end value one segment-length away, so
    /// the curve starts and ends at half the chord's slope.
    private static func catmullRom(_ p: [[Double]], times t: [Double], segment i: Int, _ s: Double) -> [Double] {
        let n = p.count
        let span = t[i + 1] - t[i]
        let tBefore = i > 0 ? t[i - 1] : t[i] - span
        let tAfter = i + 2 < n ? t[i + 2] : t[i + 1] + span
        let p0 = p[max(i - 1, 0)], p1 = p[i], p2 = p[i + 1], p3 = p[min(i + 2, n - 1)]
        // Chord slopes are measured over these time spans; a zero span has no slope.
        let w1 = t[i + 1] - tBefore, w2 = tAfter - t[i]
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        return (0..<p1.count).map { k in
            let m1 = w1 > 0 ? (p2[k] - p0[k]) / w1 * span : 0
            let m2 = w2 > 0 ? (p3[k] - p1[k]) / w2 * span : 0
            return h00 * p1[k] + h10 * m1 + h01 * p2[k] + h11 * m2
        }
    }
}
