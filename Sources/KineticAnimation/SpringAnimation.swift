import Foundation

/// CASpringAnimation's motion: a mass on a damped spring released at displacement 1 from
/// its rest position, giving the fraction 0 → 1 by which a value moves from `from` to
/// `to`. Also UIView's `usingSpringWithDamping:initialSpringVelocity:` over a duration.
public struct SpringAnimation: Hashable, Sendable {
    /// Mass of the object on the spring (CASpringAnimation default 1). Must be > 0.
    public var mass: Double
    /// Spring constant (default 100). Must be > 0.
    public var stiffness: Double
    /// Damping coefficient (default 10).
    public var damping: Double
    /// Velocity at time 0 in units of the whole distance per second, positive towards
    /// `to` (CASpringAnimation's and UIKit's convention: 1 covers the distance in 1 s).
    public var initialVelocity: Double

    /// A CASpringAnimation; the defaults are CA's.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
        self.initialVelocity = initialVelocity
    }

    /// UIView's `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`.
    ///
    /// UIKit does not publish its mapping; the animation must be over when `duration`
    /// ends, so this picks mass 1, damping ratio `dampingRatio` and the natural frequency
    /// at which `settlingDuration` (the same ε criterion as CASpringAnimation) equals
    /// `duration`: the motion comes to rest exactly as the animation completes, and
    /// `fraction(at: duration)` is within ε of 1. `dampingRatio` is clamped to ≥ 0.01
    /// (an undamped spring never settles) and `duration` to ≥ 1 ms.
    public init(dampingRatio: Double, duration: Double, initialVelocity: Double = 0) {
        let zeta = max(dampingRatio.isFinite ? dampingRatio : 1, 0.01)
        let target = max(duration.isFinite ? duration : 1, 0.001)
        func spring(_ omega: Double) -> SpringAnimation {
            SpringAnimation(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega,
                            initialVelocity: initialVelocity)
        }
        // A stiffer spring settles sooner: bisect the natural frequency in log space.
        var lo = log(1e-3), hi = log(1e6)
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if spring(exp(mid)).settlingDuration > target { lo = mid } else { hi = mid }
        }
        self = spring(exp((lo + hi) / 2))
    }

    /// damping / (2·√(stiffness·mass)): < 1 oscillates, 1 is critical, > 1 creeps.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// √(stiffness / mass), radians per second.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// The distance from rest below which the motion counts as settled, as a fraction of
    /// the whole distance. Apple does not document its threshold; 0.0008 reproduces both
    /// examples on the `settlingDuration` documentation page (defaults with damping 5:
    /// ≈ 2.85 s; with damping 15: just over 1 s).
    public static let settlingEpsilon = 0.0008

    /// CASpringAnimation.settlingDuration: seconds until the oscillation's envelope — a
    /// bound on the distance from rest — falls to `settlingEpsilon` for good.
    /// `.infinity` for a spring without damping or with invalid parameters.
    public var settlingDuration: Double {
        let motion = Motion(self)
        guard let decay = motion.slowestDecay, decay > 0 else { return .infinity }
        let eps = Self.settlingEpsilon
        // The envelope decreases from `lo` on (for critical damping it may rise first).
        var lo = motion.envelopePeak
        if motion.envelope(lo) <= eps { return lo }
        var hi = lo + 1 / decay
        while motion.envelope(hi) > eps { hi += (hi - lo) }
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if motion.envelope(mid) > eps { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// The fraction of the way from `from` to `to` at `t` seconds after the start: the
    /// closed-form solution of m·x″ + c·x′ + k·(x − 1) = 0 with x(0) = 0 and
    /// x′(0) = `initialVelocity` (under-, critically or over-damped). May exceed 1 when the
    /// spring overshoots; 0 before the start.
    public func fraction(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        return 1 + Motion(self).displacement(t)
    }

    /// The seeds' KYSpringLayerAnimation value generator: `fraction(x) = 1 − e^(−d·x)·cos(v·x)`
    /// for x the progress 0…1 of the animation, so a value runs `to − (to − from)·e^(−d·x)·cos(v·x)`.
    public struct Oscillation: Hashable, Sendable {
        public var damping: Double
        public var velocity: Double

        public init(damping: Double, velocity: Double) { self.damping = damping; self.velocity = velocity }

        public func fraction(at x: Double) -> Double { 1 - exp(-damping * x) * cos(velocity * x) }
    }

    /// KYSpringLayerAnimation's `oscillation: {damping: d, velocity: v}`.
    public static func oscillation(damping d: Double, velocity v: Double) -> Oscillation {
        Oscillation(damping: d, velocity: v)
    }
}

/// The displacement y = x − 1 from rest, y(0) = −1, y′(0) = v0, in the form that fits
/// the damping regime.
private struct Motion {
    enum Regime {
        /// y = e^(−σt)(a·cos ωd·t + b·sin ωd·t)
        case under(sigma: Double, omegaD: Double, a: Double, b: Double)
        /// y = e^(−ω0·t)(a + b·t)
        case critical(omega: Double, a: Double, b: Double)
        /// y = c1·e^(r1·t) + c2·e^(r2·t), r2 < r1 < 0
        case over(r1: Double, r2: Double, c1: Double, c2: Double)
        case invalid
    }
    let regime: Regime

    init(_ s: SpringAnimation) {
        guard s.mass > 0, s.stiffness > 0, s.damping >= 0, s.initialVelocity.isFinite else {
            regime = .invalid; return
        }
        let w0 = s.naturalFrequency, zeta = s.dampingRatio, v0 = s.initialVelocity
        // Exact comparison would make critical damping unreachable from rounded inputs.
        if abs(zeta - 1) < 1e-9 {
            regime = .critical(omega: w0, a: -1, b: v0 - w0)
        } else if zeta < 1 {
            let sigma = zeta * w0, wd = w0 * (1 - zeta * zeta).squareRoot()
            regime = .under(sigma: sigma, omegaD: wd, a: -1, b: (v0 - sigma) / wd)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
            let c2 = (v0 + r1) / (r2 - r1)
            regime = .over(r1: r1, r2: r2, c1: -1 - c2, c2: c2)
        }
    }

    func displacement(_ t: Double) -> Double {
        switch regime {
        case .under(let s, let wd, let a, let b): exp(-s * t) * (a * cos(wd * t) + b * sin(wd * t))
        case .critical(let w, let a, let b): exp(-w * t) * (a + b * t)
        case .over(let r1, let r2, let c1, let c2): c1 * exp(r1 * t) + c2 * exp(r2 * t)
        case .invalid: 0
        }
    }

    /// An upper bound of |displacement(t)| for t ≥ 0.
    func envelope(_ t: Double) -> Double {
        switch regime {
        case .under(let s, _, let a, let b): (a * a + b * b).squareRoot() * exp(-s * t)
        case .critical(let w, let a, let b): (abs(a) + abs(b) * t) * exp(-w * t)
        case .over(let r1, let r2, let c1, let c2): abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        case .invalid: 0
        }
    }

    /// Where the envelope starts to decrease (it rises first only for critical damping
    /// with a large initial velocity).
    var envelopePeak: Double {
        guard case .critical(let w, let a, let b) = regime, b != 0 else { return 0 }
        return max(0, 1 / w - abs(a) / abs(b))
    }

    /// The decay rate of the slowest mode, nil when invalid.
    var slowestDecay: Double? {
        switch regime {
        case .under(let s, _, _, _): s
        case .critical(let w, _, _): w
        case .over(let r1, _, _, _): -r1
        case .invalid: nil
        }
    }
}
