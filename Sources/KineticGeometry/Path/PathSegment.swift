import Foundation

/// One drawn piece of a path as a Bézier curve of degree 1, 2 or 3 with its start point
/// made explicit (a path element only stores where it goes).
///
/// Measurement, bounds, flattening and trimming all work on these, so the de Casteljau
/// and arc-length code exists once for every degree.
struct PathSegment: Equatable {
    /// Control polygon: start, controls, end (2, 3 or 4 points).
    var points: [Point]

    var start: Point { points[0] }
    var end: Point { points[points.count - 1] }
    var degree: Int { points.count - 1 }

    /// The element drawing this segment from `start` (a line for a close segment).
    var element: PathElement {
        switch degree {
        case 1: .line(to: end)
        case 2: .quadCurve(to: end, control: points[1])
        default: .curve(to: end, control1: points[1], control2: points[2])
        }
    }

    /// The point at parameter `t` (de Casteljau, so t = 0 and 1 give the ends exactly).
    func point(at t: Double) -> Point {
        var p = points
        for level in 1..<p.count {
            for i in 0..<(p.count - level) { p[i] = p[i].lerp(to: p[i + 1], t) }
        }
        return p[0]
    }

    /// dB/dt at `t`, from the hodograph (the derivative curve of degree n − 1).
    func derivative(at t: Double) -> Point {
        let n = Double(degree)
        let d = (0..<degree).map { (points[$0 + 1] - points[$0]) * n }
        return PathSegment(points: d.count == 1 ? [d[0], d[0]] : d).point(at: t)
    }

    /// The direction of travel at `t`; where the derivative vanishes (a control point
    /// on its end point) the direction falls back to the next distinct control point,
    /// as Core Graphics does for line caps and tangents.
    func tangent(at t: Double) -> Point {
        let d = derivative(at: t)
        if d.length > 1e-12 * max(1, chordScale) { return d }
        if t < 0.5, let q = points.first(where: { $0 != start }) { return q - start }
        if let q = points.last(where: { $0 != end }) { return end - q }
        return end - start
    }

    private var chordScale: Double { points.map { $0.distance(to: start) }.max() ?? 0 }

    /// The two halves at `t`, both exact de Casteljau subdivisions.
    func split(at t: Double) -> (PathSegment, PathSegment) {
        var left: [Point] = [], right: [Point] = []
        var p = points
        left.append(p[0]); right.append(p[p.count - 1])
        for level in 1..<p.count {
            for i in 0..<(p.count - level) { p[i] = p[i].lerp(to: p[i + 1], t) }
            left.append(p[0]); right.append(p[p.count - 1 - level])
        }
        return (PathSegment(points: left), PathSegment(points: right.reversed()))
    }

    /// The piece between parameters `t0 < t1`; `t0 == 0` / `t1 == 1` keep the original
    /// end points bit for bit.
    func subsegment(from t0: Double, to t1: Double) -> PathSegment {
        var s = self
        if t1 < 1 { s = s.split(at: t1).0 }
        if t0 > 0 {
            s = s.split(at: t1 > 0 ? t0 / t1 : 0).1
        }
        // The inner split leaves its end point a rounding error away from the outer
        // one; pin both ends to the values the neighbouring pieces use.
        if t0 > 0 { s.points[0] = point(at: t0) }
        if t1 < 1 { s.points[s.points.count - 1] = point(at: t1) }
        return s
    }

    // MARK: Arc length

    /// Arc length from parameter `t0` to `t1`.
    ///
    /// Lines are exact; curves integrate |B′(t)| with adaptive Gauss–Legendre
    /// quadrature, splitting intervals until two estimates agree to ~1e-12 relative.
    func length(from t0: Double = 0, to t1: Double = 1) -> Double {
        if degree == 1 { return start.distance(to: end) * (t1 - t0) }
        if t1 <= t0 { return 0 }
        let whole = gauss(t0, t1)
        return adaptive(t0, t1, whole, tolerance: max(whole, 1e-300) * 1e-13, depth: 0)
    }

    private func adaptive(_ a: Double, _ b: Double, _ whole: Double, tolerance: Double, depth: Int) -> Double {
        let m = (a + b) / 2
        let left = gauss(a, m), right = gauss(m, b)
        if depth >= 24 || abs(left + right - whole) <= tolerance { return left + right }
        return adaptive(a, m, left, tolerance: tolerance / 2, depth: depth + 1)
            + adaptive(m, b, right, tolerance: tolerance / 2, depth: depth + 1)
    }

    /// 8-point Gauss–Legendre estimate of ∫|B′| over [a, b].
    private func gauss(_ a: Double, _ b: Double) -> Double {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for (x, w) in PathSegment.gaussLegendre8 {
            sum += w * (derivative(at: mid + half * x).length + derivative(at: mid - half * x).length)
        }
        return sum * half
    }

    /// Positive nodes and weights of the 8-point Gauss–Legendre rule on [−1, 1].
    private static let gaussLegendre8: [(Double, Double)] = [
        (0.1834346424956498, 0.3626837833783620),
        (0.5255324099163290, 0.3137066458778873),
        (0.7966664774136267, 0.2223810344533745),
        (0.9602898564975363, 0.1012285362903763),
    ]

    /// The parameter where the arc length from 0 reaches `s` (0 ≤ s ≤ `total`, the
    /// segment's length), by safeguarded Newton iteration on the length function.
    func parameter(atLength s: Double, total: Double) -> Double {
        if s <= 0 || total <= 0 { return 0 }
        if s >= total { return 1 }
        if degree == 1 { return s / total }
        var lo = 0.0, hi = 1.0, t = s / total
        for _ in 0..<60 {
            let f = length(to: t) - s
            if abs(f) <= total * 1e-13 { break }
            if f > 0 { hi = t } else { lo = t }
            let speed = derivative(at: t).length
            var next = speed > 0 ? t - f / speed : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            if abs(next - t) < 1e-16 { break }
            t = next
        }
        return t
    }

    // MARK: Bounds and flattening

    /// Parameters in (0, 1) where x or y is extreme: roots of the hodograph's coordinates.
    func extremaParameters() -> [Double] {
        guard degree > 1 else { return [] }
        let n = Double(degree)
        let d = (0..<degree).map { (points[$0 + 1] - points[$0]) * n }
        var ts: [Double] = []
        for axis in [\Point.x, \Point.y] {
            let c = d.map { $0[keyPath: axis] }
            // Bernstein coefficients to power basis a t² + b t + c0.
            let (a, b, c0) = c.count == 2
                ? (0.0, c[1] - c[0], c[0])
                : (c[0] - 2 * c[1] + c[2], 2 * (c[1] - c[0]), c[0])
            ts += quadraticRoots(a, b, c0)
        }
        return ts.filter { $0 > 0 && $0 < 1 }
    }

    /// Points along the segment, its end included and its start excluded, with every
    /// chord within `tolerance` of the curve.
    ///
    /// Uniform in t with n from the second-difference bound |B − chord| ≤ M/(8n²),
    /// M = d(d−1)·max|Δ²P|.
    func flattened(tolerance: Double) -> [Point] {
        let n = flattenedCount(tolerance: tolerance)
        return (1...n).map { $0 == n ? end : point(at: Double($0) / Double(n)) }
    }

    /// How many points ``flattened(tolerance:)`` gives (1 for a line), without making them.
    func flattenedCount(tolerance: Double) -> Int {
        guard degree > 1 else { return 1 }
        var m = 0.0
        for i in 0..<(degree - 1) {
            m = max(m, (points[i + 2] - points[i + 1] * 2 + points[i]).length)
        }
        m *= Double(degree * (degree - 1))
        let raw = (m / (8 * max(tolerance, 1e-9))).squareRoot().rounded(.up)
        return raw.isNaN ? 1 : Int(min(max(raw, 1), 10_000))
    }
}

/// Real roots of a t² + b t + c (degenerating to linear when a ≈ 0).
private func quadraticRoots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
    let scale = max(abs(a), abs(b), abs(c))
    if scale == 0 { return [] }
    if abs(a) <= 1e-12 * scale { return b == 0 ? [] : [-c / b] }
    let disc = b * b - 4 * a * c
    if disc < 0 { return [] }
    // The numerically stable form avoids cancellation between −b and √disc.
    let q = -(b + (b < 0 ? -1 : 1) * disc.squareRoot()) / 2
    return q == 0 ? [0] : [q / a, c / q]
}
