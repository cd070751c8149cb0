import Foundation

/// Elliptical arcs as cubic Béziers: the one approximation every arc of the package
/// (SVG `A`, `arc`, `oval`, rounded corners) goes through.
enum EllipseArc {
    /// The curve elements tracing the ellipse with radii `rx`, `ry`, its x axis rotated
    /// by `rotation`, from parametric angle `startAngle` through `sweep` radians
    /// (positive: increasing angle, clockwise on a y-down screen).
    ///
    /// The sweep is cut into equal pieces of at most 90°, each drawn with handles of
    /// length 4/3·tan(θ/4) — exact at both ends and the middle of each piece, with a
    /// radial error below 3e-4 of the radius. The first curve starts at the arc's start
    /// point, which the caller has already moved or drawn to.
    static func curves(center: Point, rx: Double, ry: Double, rotation: Double = 0,
                       startAngle: Double, sweep: Double) -> [PathElement] {
        guard sweep != 0, sweep.isFinite else { return [] }
        let count = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(count)
        let k = 4.0 / 3.0 * tan(step / 4)
        let (cr, sr) = (cos(rotation), sin(rotation))
        // Maps a point of the unit circle (or a tangent, when `offset` is false) onto
        // the rotated ellipse.
        func map(_ u: Point, offset: Bool = true) -> Point {
            let x = u.x * rx, y = u.y * ry
            let p = Point(x * cr - y * sr, x * sr + y * cr)
            return offset ? center + p : p
        }
        var result: [PathElement] = []
        for i in 0..<count {
            let a0 = startAngle + step * Double(i), a1 = a0 + step
            let u0 = unitPoint(a0), u1 = unitPoint(a1)
            let p0 = map(u0), p1 = map(u1)
            // The tangent of the unit circle at angle a is (−sin a, cos a).
            let c1 = p0 + map(Point(-u0.y, u0.x), offset: false) * k
            let c2 = p1 - map(Point(-u1.y, u1.x), offset: false) * k
            result.append(.curve(to: p1, control1: c1, control2: c2))
        }
        return result
    }

    /// The point at angle `a` on the unit circle, with the ±1e-16 residues of cos/sin
    /// at multiples of π/2 snapped to 0 so axis-aligned points come out exact.
    static func unitPoint(_ a: Double) -> Point {
        let c = cos(a), s = sin(a)
        return Point(abs(c) < 1e-15 ? 0 : c, abs(s) < 1e-15 ? 0 : s)
    }

    /// The curves of an SVG elliptical arc command from `p1` to `p2`, by the
    /// endpoint-to-center conversion of SVG 1.1 appendix F.6.5–F.6.6: negative radii
    /// are made positive, radii too small to reach `p2` are scaled up uniformly, a zero
    /// radius gives a straight line, and `p1 == p2` gives nothing. The last curve ends
    /// exactly at `p2`.
    static func svgArc(from p1: Point, to p2: Point, rx: Double, ry: Double, xAxisRotation degrees: Double,
                       largeArc: Bool, sweep: Bool) -> [PathElement] {
        if p1 == p2 { return [] }
        var rx = abs(rx), ry = abs(ry)
        if rx == 0 || ry == 0 { return [.line(to: p2)] }
        let phi = degrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let (c, s) = (cos(phi), sin(phi))
        // F.6.5.1: the half-chord in the ellipse's rotated frame.
        let h = (p1 - p2) / 2
        let x1 = c * h.x + s * h.y, y1 = -s * h.x + c * h.y
        // F.6.6.2: scale the radii up when no ellipse of that size fits.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        // F.6.5.2: the center in the rotated frame.
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        let coef = (largeArc != sweep ? 1.0 : -1.0) * max(0, num / den).squareRoot()
        let cx1 = coef * rx * y1 / ry, cy1 = -coef * ry * x1 / rx
        // F.6.5.3: back to user space.
        let mid = (p1 + p2) / 2
        let center = Point(c * cx1 - s * cy1 + mid.x, s * cx1 + c * cy1 + mid.y)
        // F.6.5.5–6: start angle and sweep, the sweep's sign from the flag.
        let u = Point((x1 - cx1) / rx, (y1 - cy1) / ry)
        let v = Point((-x1 - cx1) / rx, (-y1 - cy1) / ry)
        let theta1 = atan2(u.y, u.x)
        var delta = atan2(u.x * v.y - u.y * v.x, u.dot(v))
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }
        var result = curves(center: center, rx: rx, ry: ry, rotation: phi, startAngle: theta1, sweep: delta)
        if case .curve(_, let c1, let c2)? = result.last {
            result[result.count - 1] = .curve(to: p2, control1: c1, control2: c2)
        }
        return result
    }
}
