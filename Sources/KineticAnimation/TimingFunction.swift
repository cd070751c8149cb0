/// CAMediaTimingFunction: maps the linear progress of an animation cycle to an eased
/// fraction through a cubic Bezier from (0, 0) to (1, 1) with two control points.
public enum TimingFunction: Hashable, Sendable {
    /// `kCAMediaTimingFunctionLinear`: control points (0, 0) and (1, 1).
    case linear
    /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0) and (1, 1).
    case easeIn
    /// `kCAMediaTimingFunctionEaseOut`: (0, 0) and (0.58, 1).
    case easeOut
    /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0) and (0.58, 1).
    case easeInEaseOut
    /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1) and (0.25, 1), the curve of implicit
    /// layer animations.
    case `default`
    /// `CAMediaTimingFunction(controlPoints: c1x, c1y, c2x, c2y)`.
    case cubicBezier(Double, Double, Double, Double)

    /// The two inner control points (c1x, c1y, c2x, c2y).
    public var controlPoints: (c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        switch self {
        case .linear: (0, 0, 1, 1)
        case .easeIn: (0.42, 0, 1, 1)
        case .easeOut: (0, 0, 0.58, 1)
        case .easeInEaseOut: (0.42, 0, 0.58, 1)
        case .default: (0.25, 0.1, 0.25, 1)
        case .cubicBezier(let a, let b, let c, let d): (a, b, c, d)
        }
    }

    /// The eased fraction for the linear progress `x`, clamped to 0…1 first.
    ///
    /// Solves x(s) = x for the curve parameter s (Newton's method, falling back to
    /// bisection where the slope is too flat or Newton leaves 0…1), then returns y(s);
    /// the solve is accurate to 1e-7 or better. Control point x values are clamped to
    /// 0…1, where the curve's x is monotonic, as CAMediaTimingFunction requires; y values
    /// are not clamped, so a curve may overshoot.
    public func callAsFunction(_ x: Double) -> Double {
        if case .linear = self { return Self.clamp01(x) }
        let p = controlPoints
        let s = Self.solveParameter(for: Self.clamp01(x), Self.clamp01(p.c1x), Self.clamp01(p.c2x))
        return Self.bezier(s, p.c1y, p.c2y)
    }

    private static func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    /// One coordinate of the curve whose end points are 0 and 1.
    private static func bezier(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * c1 + 3 * r * s * s * c2 + s * s * s
    }

    private static func bezierSlope(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * c1 + 6 * r * s * (c2 - c1) + 3 * s * s * (1 - c2)
    }

    /// The parameter s with x(s) = x; x(s) is non-decreasing because 0 ≤ x1, x2 ≤ 1.
    private static func solveParameter(for x: Double, _ x1: Double, _ x2: Double) -> Double {
        let tolerance = 1e-10
        var s = x
        for _ in 0..<8 {
            let err = bezier(s, x1, x2) - x
            if abs(err) < tolerance { return s }
            let slope = bezierSlope(s, x1, x2)
            if abs(slope) < 1e-6 { break }
            s -= err / slope
            if !(0...1).contains(s) { break }
        }
        // Bisection always converges on the monotonic curve.
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<64 {
            let v = bezier(s, x1, x2)
            if abs(v - x) < tolerance { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
