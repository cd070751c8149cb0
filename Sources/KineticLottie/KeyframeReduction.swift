/// One keyframe of a reduced track: the value at `frame`, reached from here to the next
/// keyframe in a straight line, or kept until then when `hold` (Lottie's `h: 1`).
public struct Keyframe: Equatable, Sendable {
    public var frame: Int
    public var value: [Double]
    public var hold: Bool

    public init(frame: Int, value: [Double], hold: Bool) {
        self.frame = frame; self.value = value; self.hold = hold
    }
}

/// Turns a value sampled at every frame into the fewest keyframes that give every sample
/// back within a tolerance when a player interpolates linearly between them.
///
/// Greedy: from each keyframe the next one is placed at the farthest sample such that
/// the straight segment between them passes within `tolerance` of every sample in
/// between (per component). A one-frame segment that changes much more than the frames
/// on either side is a jump (a step, a teleport, a path that changes its structure) and
/// becomes a hold keyframe, so no player draws a made-up in-between.
public enum KeyframeReduction {
    /// How much larger than its neighbours' a one-frame change must be to be a jump.
    static let jumpRatio = 4.0

    /// - Parameters:
    ///   - samples: one value per frame, from frame `firstFrame`; values of different
    ///     lengths (or marked different by `sameStructure`) never interpolate.
    ///   - tolerance: the largest error allowed per component.
    public static func reduce(_ samples: [[Double]], tolerance: Double, firstFrame: Int = 0,
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
        var keys: [Keyframe] = []
        var i = 0
        while i < n - 1 {
            var j = i + 1
            if compatible(i, j) {
                while j + 1 < n, compatible(i, j + 1), compatible(j, j + 1), fits(i, j + 1) { j += 1 }
            }
            let step = change(i, j)
            var hold = step <= tolerance   // equal ends: holding is the same and simpler
            if j == i + 1, step > tolerance {
                let before = i > 0 ? change(i - 1, i) : 0
                let after = j + 1 < n ? change(j, j + 1) : 0
                let neighbour = max(before.isFinite ? before : 0, after.isFinite ? after : 0)
                hold = !step.isFinite || step > jumpRatio * neighbour + tolerance
            }
            keys.append(Keyframe(frame: firstFrame + i, value: samples[i], hold: hold))
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
            return zip(a.value, b.value).map { $0 + ($1 - $0) * u }
        }
        return keys[keys.count - 1].value
    }
}
