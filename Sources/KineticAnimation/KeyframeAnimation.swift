import KineticGeometry

/// CAKeyframeAnimation's value side for `values` keyframes (keyframes along a `path`:
/// `PathKeyframeAnimation`, which checks its key times with these rules).
public struct KeyframeAnimation: Hashable, Sendable {
    /// CAAnimationCalculationMode.
    public enum CalculationMode: String, Hashable, Sendable, CaseIterable {
        /// Straight blends between successive values at their key times.
        case linear
        /// Each value holds until the next key time; nothing is blended.
        case discrete
        /// Key times (and timing functions) are ignored; times are spaced so the value
        /// moves at constant speed, measured by the distance between successive values.
        case paced
        /// A smooth spline through the values: Kochanek–Bartels with tension, continuity
        /// and bias 0 (CA's defaults), i.e. Catmull-Rom, timed by the key times. Values of
        /// discrete kinds fall back to `linear`. `tensionValues`, `continuityValues` and
        /// `biasValues` shape it at each key.
        case cubic
        /// The `cubic` spline through the values (timed by the distances between them),
        /// travelled at constant speed along its length; key times and timing functions are
        /// ignored, as for `paced`.
        case cubicPaced
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
        /// `tensionValues`, `continuityValues` or `biasValues` (named) without one per value.
        case splineParameterCountMismatch(name: String, expected: Int, got: Int)
    }

    public var values: [AnimatableValue]
    /// Fractions 0…1 of the duration at which each value is reached; nil spaces them
    /// evenly.
    public var keyTimes: [Double]?
    /// One per segment between values (n − 1), easing each segment; nil is linear.
    public var timingFunctions: [TimingFunction]?
    public var calculationMode: CalculationMode
    /// Kochanek–Bartels parameters of `cubic` and `cubicPaced`, one per value; nil is 0
    /// at every key (Catmull-Rom). Tension 1 stops the curve at a key, −1 rounds it out;
    /// continuity ≠ 0 makes a corner; bias leans the curve towards the key before (−1)
    /// or after (1).
    public var tensionValues: [Double]?
    public var continuityValues: [Double]?
    public var biasValues: [Double]?

    public init(values: [AnimatableValue], keyTimes: [Double]? = nil,
                timingFunctions: [TimingFunction]? = nil, calculationMode: CalculationMode = .linear,
                tensionValues: [Double]? = nil, continuityValues: [Double]? = nil, biasValues: [Double]? = nil) {
        self.values = values; self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions; self.calculationMode = calculationMode
        self.tensionValues = tensionValues; self.continuityValues = continuityValues; self.biasValues = biasValues
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
        try validateTiming(count: values.count, kind: first.kind)
    }

    /// The checks of `validate()` that read no value, for `n` values of `kind`: what can
    /// be checked before the values are known (a scene's expressions, evaluated when the
    /// animation begins). `paced` measures them then.
    public func validateTiming(count n: Int, kind: AnimatableValue.Kind) throws(ValidationError) {
        for (name, list) in [("tensionValues", tensionValues), ("continuityValues", continuityValues),
                             ("biasValues", biasValues)] {
            if let list, list.count != n { throw .splineParameterCountMismatch(name: name, expected: n, got: list.count) }
        }
        if calculationMode == .paced || calculationMode == .cubicPaced {
            guard Self.measurableKinds.contains(kind) else { throw .notMeasurable(kind) }
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
        (try? Validated(self))?.value(at: progress)
    }

    /// `value(at:)` of an animation `validate()` accepts, with what `Validated` prepared.
    private func validValue(at progress: Double, _ prepared: Validated) -> AnimatableValue? {
        guard let first = values.first else { return nil }
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        if values.count == 1 { return first }
        let times = prepared.times
        switch calculationMode {
        case .discrete: return discreteValue(at: p, times: times)
        case .linear: return blendedValue(at: p, times: times, eased: true, spline: nil, segments: prepared.segments)
        case .cubic: return blendedValue(at: p, times: times, eased: true, spline: prepared.form, segments: [])
        case .paced: return blendedValue(at: p, times: times, eased: false, spline: nil, segments: prepared.segments)
        case .cubicPaced:
            guard let form = prepared.form else { return nil }
            return cubicPacedValue(at: p, form: form, times: times, lengths: prepared.arcLengths)
        }
    }

    /// The key times each mode evaluates with: `keyTimes` or even spacing (`linear`, `cubic`),
    /// `pacedKeyTimes` (`paced`, `cubicPaced`), the starts of the values' holds (`discrete`).
    fileprivate var evaluationTimes: [Double] {
        let n = values.count
        switch calculationMode {
        case .linear, .cubic: return keyTimes ?? Self.evenTimes(n)
        case .paced, .cubicPaced: return pacedKeyTimes ?? Self.evenTimes(n)
        case .discrete: return keyTimes ?? (0..<n).map { Double($0) / Double(n) }
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

    private func discreteValue(at p: Double, times: [Double]) -> AnimatableValue? {
        let n = values.count
        // Value i holds on [times[i], times[i + 1]); the last one holds to the end.
        let index = Instant.lastIndex(reachedBy: p, in: times.prefix(n)) ?? 0
        return values[index]
    }

    /// The two values blended at the un-eased fraction `progress` and the eased fraction
    /// between them (nil for `discrete`, which blends nothing, or when `validate()`
    /// fails): what a cross-fade of `contents` images shows.
    public func blend(at progress: Double) -> (from: AnimatableValue, to: AnimatableValue, fraction: Double)? {
        (try? Validated(self))?.blend(at: progress)
    }

    /// `blend(at:)` of an animation `validate()` accepts, at its `evaluationTimes`.
    private func validBlend(at progress: Double,
                            times: [Double]) -> (from: AnimatableValue, to: AnimatableValue, fraction: Double)? {
        guard values.count > 1, calculationMode != .discrete else { return nil }
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        let paced = calculationMode == .paced || calculationMode == .cubicPaced
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

    /// Values blended between the keys: along the spline through `spline`'s vectors when given
    /// (`cubic` values of a continuous kind), else straight, by `segments[i]` (values i and
    /// i + 1 as `Interpolation.lerp` flattens them) when there is one.
    private func blendedValue(at p: Double, times: [Double], eased: Bool, spline: LinearForm?,
                              segments: [LinearForm]) -> AnimatableValue? {
        let (i, s) = segment(at: p, times: times, eased: eased)
        if let form = spline { return form.rebuild(splinePoint(form.vectors, times: times, segment: i, s)) }
        if i < segments.count { return segments[i].value(blending: 0, 1, s) }
        return Interpolation.lerp(values[i], values[i + 1], s)
    }

    /// The spline on segment i: Catmull-Rom, or Kochanek–Bartels when any parameter is given.
    private func splinePoint(_ p: [[Double]], times: [Double], segment i: Int, _ s: Double) -> [Double] {
        guard tensionValues != nil || continuityValues != nil || biasValues != nil else {
            return Self.catmullRom(p, times: times, segment: i, s)
        }
        let n = p.count
        func at(_ list: [Double]?, _ k: Int) -> Double { list.map { $0[k] } ?? 0 }
        return Self.kochanekBartels(p, times: times, segment: i, s,
                                    start: (at(tensionValues, i), at(continuityValues, i), at(biasValues, i)),
                                    end: (at(tensionValues, min(i + 1, n - 1)), at(continuityValues, min(i + 1, n - 1)),
                                          at(biasValues, min(i + 1, n - 1))))
    }

    /// `cubicPaced`: the spline through `form`'s vectors timed by the distances between
    /// values (`pacedKeyTimes`), then travelled at constant speed: progress is a share of
    /// its length, `lengths` (`arcLengths`).
    private func cubicPacedValue(at p: Double, form: LinearForm, times: [Double], lengths: [Double]) -> AnimatableValue? {
        guard let total = lengths.last, total > 0 else { return values.first }
        let count = lengths.count - 1
        let target = p * total
        // The chord holding the target length, and the parameter within it.
        var lo = 0, hi = count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if lengths[mid] <= target { lo = mid } else { hi = mid }
        }
        let chord = lengths[hi] - lengths[lo]
        let within = chord > 0 ? (target - lengths[lo]) / chord : 0
        return form.rebuild(pacedSplinePoint(form.vectors, times: times, at: (Double(lo) + within) / Double(count)))
    }

    /// The `cubicPaced` curve at the un-paced parameter u (0…1 by `times`).
    private func pacedSplinePoint(_ vectors: [[Double]], times: [Double], at u: Double) -> [Double] {
        let (i, s) = segment(at: u, times: times, eased: false)
        return splinePoint(vectors, times: times, segment: i, s)
    }

    /// The cumulative lengths of the `cubicPaced` curve through `vectors` (at least two),
    /// measured on `arcSamples` chords per segment: 0 first, the whole length last.
    fileprivate func arcLengths(_ vectors: [[Double]], times: [Double]) -> [Double] {
        let count = Self.arcSamples * (vectors.count - 1)
        var lengths = [0.0]
        var previous = pacedSplinePoint(vectors, times: times, at: 0)
        for j in 1...count {
            let next = pacedSplinePoint(vectors, times: times, at: Double(j) / Double(count))
            let d = zip(previous, next).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
            lengths.append(lengths[j - 1] + d)
            previous = next
        }
        return lengths
    }

    /// Chords per segment measuring a `cubicPaced` curve's length.
    private static var arcSamples: Int { 64 }

    /// Cubic Hermite on segment i with Kochanek–Bartels tangents (Kochanek & Bartels 1984):
    /// the outgoing tangent at key i is (1−t)(1+b)(1+c)/2 · (p[i] − p[i−1]) +
    /// (1−t)(1−b)(1−c)/2 · (p[i+1] − p[i]) with key i's `start` parameters, the incoming one at
    /// key i+1 is (1−t)(1+b)(1−c)/2 · (p[i+1] − p[i]) + (1−t)(1−b)(1+c)/2 · (p[i+2] − p[i+1])
    /// with its `end` ones; each scaled by 2·span / (the spans either side of its key) for
    /// uneven key times, the paper's adjustment. With every parameter 0 these are
    /// `catmullRom`'s tangents; ends repeat their value one segment-length away, as there.
    private static func kochanekBartels(_ p: [[Double]], times t: [Double], segment i: Int, _ s: Double,
                                        start: (tension: Double, continuity: Double, bias: Double),
                                        end: (tension: Double, continuity: Double, bias: Double)) -> [Double] {
        let n = p.count
        let span = t[i + 1] - t[i]
        let before = i > 0 ? t[i] - t[i - 1] : span
        let after = i + 2 < n ? t[i + 2] - t[i + 1] : span
        let p0 = p[max(i - 1, 0)], p1 = p[i], p2 = p[i + 1], p3 = p[min(i + 2, n - 1)]
        let (t1, c1, b1) = start, (t2, c2, b2) = end
        let a = (1 - t1) * (1 + b1) * (1 + c1) / 2, b = (1 - t1) * (1 - b1) * (1 - c1) / 2
        let c = (1 - t2) * (1 + b2) * (1 - c2) / 2, d = (1 - t2) * (1 - b2) * (1 + c2) / 2
        let k1 = before + span > 0 ? 2 * span / (before + span) : 0
        let k2 = span + after > 0 ? 2 * span / (span + after) : 0
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        return (0..<p1.count).map { k in
            let m1 = (a * (p1[k] - p0[k]) + b * (p2[k] - p1[k])) * k1
            let m2 = (c * (p2[k] - p1[k]) + d * (p3[k] - p2[k])) * k2
            return h00 * p1[k] + h10 * m1 + h01 * p2[k] + h11 * m2
        }
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

extension KeyframeAnimation {
    /// An animation `validate()` accepted, evaluated without checking it again: a scene's
    /// keyframes are checked once (when loaded, or when their expressions are evaluated),
    /// not at every frame. What depends only on the animation (key times, paced times, the
    /// values as vectors, a `cubicPaced` curve's length) is worked out here, once.
    public struct Validated: Sendable {
        public let animation: KeyframeAnimation
        /// `animation.evaluationTimes`.
        fileprivate let times: [Double]
        /// The values as vectors, for the modes that spline them (`cubic`, `cubicPaced`);
        /// nil otherwise, and for values of discrete kinds (`cubic` then blends straight).
        fileprivate let form: LinearForm?
        /// `cubicPaced` with two values or more: `animation.arcLengths`; else empty.
        fileprivate let arcLengths: [Double]
        /// `linear` and `paced` values of a continuous kind: the LinearForm of each pair of
        /// successive values, the one `Interpolation.lerp` would make for them; else empty.
        fileprivate let segments: [LinearForm]

        public init(_ animation: KeyframeAnimation) throws(ValidationError) {
            try animation.validate()
            self.animation = animation
            times = animation.evaluationTimes
            let mode = animation.calculationMode
            form = mode == .cubic || mode == .cubicPaced ? LinearForm(values: animation.values) : nil
            if mode == .cubicPaced, animation.values.count > 1, let form {
                arcLengths = animation.arcLengths(form.vectors, times: times)
            } else {
                arcLengths = []
            }
            let values = animation.values
            let blendsStraight = mode == .linear || mode == .paced
            let pairs = blendsStraight ? zip(values, values.dropFirst()).compactMap { LinearForm(values: [$0, $1]) } : []
            segments = pairs.count == values.count - 1 ? pairs : []
        }

        /// `KeyframeAnimation.value(at:)`.
        public func value(at progress: Double) -> AnimatableValue? { animation.validValue(at: progress, self) }

        /// `KeyframeAnimation.blend(at:)`.
        public func blend(at progress: Double) -> (from: AnimatableValue, to: AnimatableValue, fraction: Double)? {
            animation.validBlend(at: progress, times: times)
        }
    }
}
