import Foundation
import Testing
@testable import KineticAnimation

/// x(t) by integrating m·x″ = −k·(x − 1) − c·x′ with classical Runge–Kutta from x = 0,
/// x′ = v0: independent of the closed form under test.
private func integrate(_ s: SpringAnimation, to t: Double, step: Double = 1e-4) -> Double {
    var x = 0.0, v = s.initialVelocity
    func accel(_ x: Double, _ v: Double) -> Double { (-s.stiffness * (x - 1) - s.damping * v) / s.mass }
    var time = 0.0
    while time < t - 1e-12 {
        let h = min(step, t - time)
        let k1x = v, k1v = accel(x, v)
        let k2x = v + h / 2 * k1v, k2v = accel(x + h / 2 * k1x, v + h / 2 * k1v)
        let k3x = v + h / 2 * k2v, k3v = accel(x + h / 2 * k2x, v + h / 2 * k2v)
        let k4x = v + h * k3v, k4v = accel(x + h * k3x, v + h * k3v)
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        time += h
    }
    return x
}

@Test(arguments: [
    SpringAnimation(),                                                    // ζ = 0.5
    SpringAnimation(mass: 2, stiffness: 300, damping: 4, initialVelocity: 3),  // light damping, pushed
    SpringAnimation(stiffness: 100, damping: 20),                         // critical
    SpringAnimation(stiffness: 100, damping: 20, initialVelocity: -5),    // critical, pulled back
    SpringAnimation(mass: 1, stiffness: 50, damping: 40, initialVelocity: 2),  // overdamped
])
func matchesTheDampedOscillator(spring: SpringAnimation) {
    for i in 1...20 {
        let t = Double(i) * 0.1
        let expected = integrate(spring, to: t)
        #expect(abs(spring.fraction(at: t) - expected) < 0.005, "t = \(t)")
    }
    #expect(spring.fraction(at: 0) == 0)
}

@Test func underdampedClosedFormByHand() {
    // m = 1, k = 100, c = 10: ω0 = 10, ζ = 0.5, σ = 5, ωd = √75.
    let wd = 75.0.squareRoot()
    for t in [0.05, 0.2, 0.37, 0.8] {
        let expected = 1 - exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))
        #expect(abs(SpringAnimation().fraction(at: t) - expected) < 1e-12)
    }
    #expect(SpringAnimation().fraction(at: 0.4) > 1)   // overshoots
}

@Test func criticalDampingNeverOvershoots() {
    let s = SpringAnimation(stiffness: 100, damping: 20)
    #expect(abs(s.dampingRatio - 1) < 1e-12)
    var previous = 0.0
    for i in 1...2000 {
        let f = s.fraction(at: Double(i) * 0.0025)
        #expect(f <= 1 && f >= previous)
        previous = f
    }
}

@Test func settlingDurationMatchesApplesExamples() {
    // The settlingDuration documentation: defaults with damping 5 settle in about
    // 2.85 s; damping 15 in just over a second.
    let soft = SpringAnimation(damping: 5).settlingDuration
    #expect(abs(soft - 2.85) < 0.05)
    let firm = SpringAnimation(damping: 15).settlingDuration
    #expect(firm > 1 && firm < 1.1)
    // After it, the motion stays within ε of rest.
    let s = SpringAnimation(damping: 5, initialVelocity: 4)
    let settled = s.settlingDuration
    for i in 0...400 {
        #expect(abs(s.fraction(at: settled + Double(i) * 0.01) - 1) <= SpringAnimation.settlingEpsilon)
    }
    #expect(SpringAnimation(damping: 0).settlingDuration == .infinity)
}

@Test func uiViewSpringSettlesAtItsDuration() {
    for (ratio, duration, velocity) in [(0.5, 1.0, 0.0), (0.8, 0.4, 2.0), (1.0, 0.6, 0.0), (0.2, 2.0, -1.0)] {
        let s = SpringAnimation(dampingRatio: ratio, duration: duration, initialVelocity: velocity)
        #expect(s.mass == 1)
        #expect(abs(s.dampingRatio - ratio) < 1e-9)
        #expect(abs(s.settlingDuration - duration) < 1e-6)
        #expect(abs(s.fraction(at: duration) - 1) <= SpringAnimation.settlingEpsilon + 1e-9)
        // UIKit's initialSpringVelocity: 1 covers the whole distance in one second.
        let h = 1e-6
        #expect(abs(s.fraction(at: h) / h - velocity) < 1e-3)
    }
}

@Test func kySpringOscillation() {
    let o = SpringAnimation.oscillation(damping: 3, velocity: 10)
    #expect(o.fraction(at: 0) == 0)
    // cos(v·x) = 0 at x = π / (2v): exactly at the target.
    #expect(abs(o.fraction(at: .pi / 20) - 1) < 1e-12)
    // At x = π / v the cosine is −1: overshoot by e^(−3π/10).
    #expect(abs(o.fraction(at: .pi / 10) - (1 + exp(-0.3 * .pi))) < 1e-12)
}
