/// One keyframe of a reduced track: the value at `frame`, reached from here to the next
/// keyframe in a straight line, or kept until then when `hold` (Lottie's `h: 1`).
public struct Keyframe: Equatable, Sendable {
    public var frame: Int
    public var value: [Double]
    public var hold: Bool
    /// A cubic ease to the next keyframe, shared by every component: the Bezier's two
    /// inner control values as fractions of the change (Lottie's `o.y` and `i.y`, with
    /// `o.x` = 1/3 and `i.x` = 2/3, so time runs evenly and the value is a cubic in it);
    /// nil is a straight segment.
    public var ease: (out: Double, in: Double)?

    public init(frame: Int, value: [Double], hold: Bool, ease: (out: Double, in: Double)? = nil) {
        self.frame = frame; self.value = value; self.hold = hold; self.ease = ease
    }

    public static func == (a: Keyframe, b: Keyframe) -> Bool {
        a.frame == b.frame && a.value == b.value && a.hold == b.hold && a.ease?.out == b.ease?.out && a.ease?.in == b.ease?.in
    }
}

/// Turns a value sampled at every frame into the fewest keyframes that give every sample
/// back within a tolerance when a player interpolates between them: linearly, or along
/// one cubic ease per segment.
///
/// Greedy: from each keyframe the next one is placed at the farthest sample such that
/// the straight segment between them — or the least-squares cubic ease — passes within
/// `tolerance` of every sample in between (per component). A one-frame segment that changes much more than the frames
/// on either side is a jump (a step, a teleport, a path that changes its structure) and
/// becomes a hold keyframe, so no player draws a made-up in-between.
public enum KeyframeReduction {
    /// How much larger than its neighbours' a one-frame change must be to be a jump.
    static let jumpRatio = 4.0

    /// - Parameters:
    ///   - samples: one value per frame, from frame `firstFrame`; values of different
    ///     lengths (or marked different by `sameStructure`) never interpolate.
    ///   - tolerance: the largest error allowed per component.
    ///   - easing: whether segments may ease (false: straight segments only).
    public static func reduce(_ samples: [[Double]], tolerance: Double, firstFrame: Int = 0, easing: Bool = true,
                              sameStructure: (Int, Int) -> Bool = { _, _ in true }) -> [Keyframe] {
        let n = samples.count
        guard n > 0 else { return [] }
        func compatible(_ a: Int, _ b: Int) -> Bool {
            samples[a].count == samples[b].count && sameStructure(a, b)
        }
        func change(_ a: Int, _ b: Int) -> Double {
            guard compatible(a, b) else { return .infinity }
            return zip(samples[a], samples[b]).reduce(0) { max($0, abs($1.0 - $1.1)) }
        }
        // Runs of identical samples (a layer at rest, a text's glyphs) are checked in
        // constant time: `runStart[k]` is the first frame of the run k belongs to.
        var runStart = Array(0..<n)
        for k in 1..<max(n, 1) where samples[k] == samples[k - 1] { runStart[k] = runStart[k - 1] }
        func fits(_ i: Int, _ j: Int) -> Bool {
            if runStart[j] <= i { return true }
            return linearFits(i, j)
        }
        func linearFits(_ i: Int, _ j: Int) -> Bool {
            let span = Double(j - i)
            for k in (i + 1)..<j {
                let u = Double(k - i) / span
                for c in samples[k].indices {
                    let a = samples[i][c]
                    if abs(a + (samples[j][c] - a) * u - samples[k][c]) > tolerance { return false }
                }
            }
            return true
        }
        // A one-frame change much larger than the changes on either side, or a change of
        // structure.
        func isJump(_ i: Int) -> Bool {
            guard i + 1 < n else { return false }
            let step = change(i, i + 1)
            guard step > tolerance else { return false }
            let before = i > 0 ? change(i - 1, i) : 0
            let after = i + 2 < n ? change(i + 1, i + 2) : 0
            let neighbour = max(before.isFinite ? before : 0, after.isFinite ? after : 0)
            return !step.isFinite || step > jumpRatio * neighbour + tolerance
        }
        // A segment may also ease: one cubic in time, shared by every component (as a
        // Lottie keyframe's single pair of handles is), fitted by least squares to the
        // component that changes most and accepted when every component stays within
        // the tolerance (a move, a turn, a path scaled about a point all qualify).
        func ease(_ i: Int, _ j: Int) -> (out: Double, in: Double)? {
            guard easing, j - i >= 3 else { return nil }
            let a = samples[i], d = samples[j]
            var lead = 0, largest = 0.0
            for c in a.indices where abs(d[c] - a[c]) > largest { largest = abs(d[c] - a[c]); lead = c }
            guard largest > tolerance else { return nil }
            // Minimize Σ (B1·y1 + B2·y2 + B3 − y)² over the handles y1, y2, y the lead
            // component's fraction of its change.
            var s11 = 0.0, s12 = 0.0, s22 = 0.0, r1 = 0.0, r2 = 0.0
            let span = Double(j - i), change = d[lead] - a[lead]
            for k in (i + 1)..<j {
                let t = Double(k - i) / span, u = 1 - t
                let b1 = 3 * u * u * t, b2 = 3 * u * t * t
                let rest = (samples[k][lead] - a[lead]) / change - t * t * t
                s11 += b1 * b1; s12 += b1 * b2; s22 += b2 * b2; r1 += b1 * rest; r2 += b2 * rest
            }
            let det = s11 * s22 - s12 * s12
            guard abs(det) > 1e-12 else { return nil }
            let out = (r1 * s22 - r2 * s12) / det, into = (s11 * r2 - s12 * r1) / det
            // Handles far outside the change overshoot between frames: not an ease.
            guard (-1...2).contains(out), (-1...2).contains(into) else { return nil }
            for k in (i + 1)..<j {
                let t = Double(k - i) / span, u = 1 - t
                let y = 3 * out * u * u * t + 3 * into * u * t * t + t * t * t
                for c in a.indices where abs(a[c] + (d[c] - a[c]) * y - samples[k][c]) > tolerance { return nil }
            }
            return (out, into)
        }
        var keys: [Keyframe] = []
        var i = 0
        while i < n - 1 {
            var j = i + 1
            var eased: (out: Double, in: Double)? = nil
            if compatible(i, j), !isJump(i) {
                // An ease needs two samples between its ends: spans that short are probed
                // past a failure.
                var probe = j
                while probe + 1 < n, compatible(i, probe + 1), compatible(probe, probe + 1) {
                    probe += 1
                    if fits(i, probe) { j = probe; eased = nil } else if let e = ease(i, probe) { j = probe; eased = e }
                    else if probe - i >= 3 { break }
                }
            }
            // Equal ends: holding is the same and simpler.
            let hold = change(i, j) <= tolerance || (j == i + 1 && isJump(i))
            keys.append(Keyframe(frame: firstFrame + i, value: samples[i], hold: hold, ease: hold ? nil : eased))
            i = j
        }
        keys.append(Keyframe(frame: firstFrame + n - 1, value: samples[n - 1], hold: true))
        // A value that never changes is one keyframe.
        if keys.count == 2, keys[0].hold, change(0, n - 1) <= tolerance { return [keys[0]] }
        return keys
    }

    /// The value a player shows at `frame` (Lottie's interpolation of linear and hold
    /// keyframes): the first value before the first keyframe, the last after the last.
    public static func value(of keys: [Keyframe], at frame: Double) -> [Double] {
        guard let first = keys.first else { return [] }
        if frame <= Double(first.frame) { return first.value }
        for (a, b) in zip(keys, keys.dropFirst()) where frame < Double(b.frame) {
            if a.hold || a.value.count != b.value.count { return a.value }
            let u = (frame - Double(a.frame)) / Double(b.frame - a.frame)
            if let e = a.ease {
                let w = 1 - u, y = 3 * e.out * w * w * u + 3 * e.in * w * u * u + u * u * u
                return zip(a.value, b.value).map { $0 + ($1 - $0) * y }
            }
            return zip(a.value, b.value).map { $0 + ($1 - $0) * u }
        }
        return keys[keys.count - 1].value
    }
}
