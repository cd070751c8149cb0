import Foundation
import KineticGeometry
import Testing
@testable import KineticDynamics

/// UIFieldBehavior's forces are integrated as Chipmunk integrates its own springs:
/// semi-implicitly (x₁ = x₀ + h·v₀, then v₁ = v₀ + h·a(x₁)), the velocity-linear parts
/// (drag, the velocity field, the magnetic turn) by the trapezoidal rule. Before, a field
/// was read at x₀ (explicit Euler): an undamped spring field swung 23 % wider after five
/// periods. Each law below is checked against its analytic solution or invariant.
@Suite struct FieldIntegrationTests {
    let bounds = Rect(0, 0, 2000, 2000)
    let h = 1.0 / 240

    func item(_ id: String, _ x: Double, _ y: Double, size: Double = 10) -> DynamicItem {
        DynamicItem(id: id, center: Point(x, y), size: Size(size, size))
    }

    func field(_ kind: FieldBehavior.Kind, _ items: [String], position: Point = Point(1000, 1000),
               strength: Double = 1, falloff: Double = 0, direction: Point = Point(0, 1)) -> DynamicBehavior {
        DynamicBehavior(id: "f-\(kind)", .field(FieldBehavior(kind: kind, items: items, position: position, strength: strength,
                                                               falloff: falloff, direction: direction)))
    }

    func start(_ items: [String], velocity: Point, charge: Double? = nil) -> DynamicBehavior {
        DynamicBehavior(id: "start", .itemBehavior(DynamicItemBehavior(items: items, charge: charge, linearVelocity: velocity)))
    }

    /// Steps to `duration`, calling `sample` with each item's state after every step.
    func run(_ a: DynamicAnimator, for duration: Double, _ sample: (Double, [String: DynamicItemState]) -> Void) throws {
        let steps = Int((duration / h).rounded())
        for k in 1...steps {
            try a.step(to: Double(k) * h)
            var states: [String: DynamicItemState] = [:]
            for item in a.items { states[item.id] = a.state(of: item.id) }
            sample(Double(k) * h, states)
        }
    }

    @Test func undampedSpringFieldKeepsItsAmplitudeOverTenPeriods() throws {
        // a = −10·(x − c): ω = √10, period 2π/√10 ≈ 1.987 s. Released 50 pt from the centre, at
        // rest, next to an undamped attachment spring of the same frequency (UIKit's spring).
        let omega = 10.0.squareRoot(), period = 2 * Double.pi / omega
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("f", 1050, 1000), item("s", 1050, 1500)], behaviors: [
            field(.spring, ["f"]),
            DynamicBehavior(id: "att", .attachment(AttachmentBehavior(item: "s", attachedTo: .anchor(Point(1000, 1500)),
                                                                      length: 0.001, frequency: omega / (2 * Double.pi)))),
        ])
        var fieldPeak = 0.0, springPeak = 0.0
        try run(a, for: 10 * period) { t, s in
            guard t > 9 * period, let f = s["f"], let sp = s["s"] else { return }
            fieldPeak = max(fieldPeak, abs(f.center.x - 1000))
            springPeak = max(springPeak, abs(sp.center.x - 1000))
        }
        // The tenth period's swing: 50 pt within 1 % (explicit Euler gave 1.23 × 50 after five).
        #expect(abs(fieldPeak - 50) / 50 < 0.01)
        #expect(abs(fieldPeak - springPeak) / 50 < 0.01)
    }

    @Test func radialGravityOrbitKeepsItsRadius() throws {
        // falloff 2: a = 1000·(100/r)² towards the centre; at r = 100 a circular orbit has
        // v = √(a·r) = √100000 pt/s and a period of 2π·100/v ≈ 1.99 s. Five orbits.
        let v = 100_000.0.squareRoot()
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("p", 1100, 1000)], behaviors: [
            field(.radialGravity, ["p"], falloff: 2), start(["p"], velocity: Point(0, v)),
        ])
        var lo = Double.infinity, hi = 0.0
        try run(a, for: 5 * 2 * Double.pi * 100 / v) { _, s in
            guard let p = s["p"] else { return }
            let r = p.center.distance(to: Point(1000, 1000))
            lo = min(lo, r); hi = max(hi, r)
        }
        #expect(lo > 99 && hi < 101)
    }

    @Test func attractingElectricFieldOrbitKeepsItsRadius() throws {
        // electric, falloff 2: force 100·strength·charge·(100/r)² away from the centre; charge
        // −2 on mass 1 at strength 4 attracts with a = 800 pt/s² at r = 100: v = √80000.
        let v = 80_000.0.squareRoot()
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("q", 1100, 1000, size: 100)], behaviors: [
            field(.electric, ["q"], strength: 4, falloff: 2), start(["q"], velocity: Point(0, v), charge: -2),
        ])
        var lo = Double.infinity, hi = 0.0
        try run(a, for: 5 * 2 * Double.pi * 100 / v) { _, s in
            guard let q = s["q"] else { return }
            let r = q.center.distance(to: Point(1000, 1000))
            lo = min(lo, r); hi = max(hi, r)
        }
        #expect(lo > 99 && hi < 101)
    }

    @Test func vortexFieldAddsAngularMomentumAtItsStatedRate() throws {
        // vortex, falloff 1: a tangential acceleration 100·strength·(100/r), a torque per mass
        // of r·a = 10⁴·strength whatever the radius: the angular momentum per mass about the
        // centre grows as 10⁴·strength·t exactly (step by step under the semi-implicit step).
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("v", 1000, 900)], behaviors: [
            field(.vortex, ["v"], strength: 0.5, falloff: 1),
        ])
        var worst = 0.0
        try run(a, for: 2) { t, s in
            guard let v = s["v"] else { return }
            let r = v.center - Point(1000, 1000)
            let momentum = r.x * v.velocity.y - r.y * v.velocity.x
            worst = max(worst, abs(momentum - 5000 * t) / (5000 * t))
        }
        #expect(worst < 1e-9)
    }

    @Test func magneticFieldTurnsWithoutChangingSpeed() throws {
        // magnetic: a = (strength·charge/mass)·(vy, −vx), a turn at ω = 2 rad/s: the speed
        // stays 100 pt/s and the path is a circle of radius v/ω = 50 about x + J·v/ω.
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("m", 1000, 1000, size: 100)], behaviors: [
            field(.magnetic, ["m"], strength: 1), start(["m"], velocity: Point(100, 0), charge: 2),
        ])
        var speedError = 0.0, centreDrift = 0.0
        let centre = Point(1000, 1000) + Point(0, -100) / 2
        try run(a, for: 10) { _, s in
            guard let m = s["m"] else { return }
            speedError = max(speedError, abs(m.velocity.length - 100))
            centreDrift = max(centreDrift, (m.center + Point(m.velocity.y, -m.velocity.x) / 2).distance(to: centre))
        }
        #expect(speedError < 1e-9)
        #expect(centreDrift < 100 * h)   // the semi-implicit step's bounded lag
    }

    @Test func dragAndVelocityFieldsRelaxExponentially() throws {
        // drag: dv/dt = −strength·v; velocity field: dv/dt = strength·(100·direction − v).
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("d", 500, 500), item("u", 1500, 1500)], behaviors: [
            field(.drag, ["d"], strength: 2), field(.velocity, ["u"], strength: 1.5, direction: Point(1, 0)),
            start(["d", "u"], velocity: Point(300, 0)),
        ])
        var dragError = 0.0, velocityError = 0.0
        try run(a, for: 1) { t, s in
            guard let d = s["d"], let u = s["u"] else { return }
            dragError = max(dragError, abs(d.velocity.x - 300 * exp(-2 * t)))
            velocityError = max(velocityError, abs(u.velocity.x - (100 + 200 * exp(-1.5 * t))))
        }
        // Within 1e-3 pt/s of the exponential (an explicit step is 0.2 pt/s off).
        #expect(dragError < 1e-3)
        #expect(velocityError < 1e-3)
    }

    @Test func linearGravityFieldOnASpringFieldOscillatesAboutTheShiftedRest() throws {
        // linearGravity 1000·0.1 = 100 pt/s² down on a spring field of strength 1 (k = 10/s²):
        // the rest is 100/10 = 10 pt below the centre; released at the centre the item swings
        // 10 pt either side of it, 0…20 pt below the centre, for ten periods.
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("g", 1000, 1000)], behaviors: [
            field(.spring, ["g"]), field(.linearGravity, ["g"], strength: 0.1),
        ])
        var lo = Double.infinity, hi = -Double.infinity
        try run(a, for: 10 * 2 * Double.pi / 10.0.squareRoot()) { _, s in
            guard let g = s["g"] else { return }
            lo = min(lo, g.center.y - 1000); hi = max(hi, g.center.y - 1000)
        }
        #expect(abs(lo) < 0.1 && abs(hi - 20) < 0.2)
    }

    @Test func noiseFieldIsReadWhereTheStepMovedTheItem() throws {
        // noise: a = 100·strength·n(x / cell, t): each step's velocity change is that of the
        // field at the position the step moved the item to, at the step's end time.
        let noise = FieldBehavior(kind: .noise, items: ["n"], strength: 2, smoothness: 0, animationSpeed: 3)
        let a = try DynamicAnimator(referenceBounds: bounds, items: [item("n", 1000, 1000)], behaviors: [
            DynamicBehavior(id: "noise", .field(noise)), start(["n"], velocity: Point(400, -300)),
        ], seed: 7)
        var previous: DynamicItemState?
        var worst = 0.0
        try run(a, for: 0.5) { t, s in
            guard let n = s["n"] else { return }
            if let previous {
                let expected = FieldBehavior.noise(n.center / 20, t * 3, seed: 7) * (200 * h)
                worst = max(worst, (n.velocity - previous.velocity - expected).length)
            }
            previous = n
        }
        #expect(worst < 1e-9)
    }
}
