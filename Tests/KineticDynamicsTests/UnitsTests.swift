import Foundation
import KineticGeometry
import Testing
@testable import KineticDynamics

/// UIKit's documented units, each checked against the closed-form law.
@Suite struct UnitsTests {
    let bounds = Rect(0, 0, 1000, 1000)

    /// A 100×100 box at `center` with the given behaviors.
    func animator(_ behaviors: [DynamicBehavior], size: Size = Size(100, 100), center: Point = Point(500, 100),
                  bounds: CollisionBoundsType = .rectangle) throws -> DynamicAnimator {
        try DynamicAnimator(referenceBounds: self.bounds,
                            items: [DynamicItem(id: "box", center: center, size: size, collisionBoundsType: bounds)],
                            behaviors: behaviors)
    }

    @Test(arguments: [1.0, 2.5])
    func freeFallFollowsHalfGTSquared(magnitude: Double) throws {
        let a = try animator([DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["box"], angle: .pi / 2,
                                                                               magnitude: magnitude)))])
        let g = 1000 * magnitude
        let dropIn1s = 0.5 * g
        for k in 1...20 {
            let t = Double(k) / 20
            try a.step(to: t)
            let y = try #require(a.state(of: "box")).center.y
            // Every sample within 0.5 % of the one-second drop, and the drop itself within 0.5 %.
            #expect(abs(y - (100 + 0.5 * g * t * t)) <= 0.005 * dropIn1s, "t = \(t)")
        }
        let y1 = try #require(a.state(of: "box")).center.y
        #expect(abs((y1 - 100) - dropIn1s) / dropIn1s <= 0.005)
        #expect(abs(try #require(a.state(of: "box")).velocity.y - g) / g <= 1e-9)
    }

    @Test func gravityIgnoresMassAndFollowsItsDirection() throws {
        let heavy = DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["box"], density: 7)))
        let a = try animator([DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["box"],
                                                                               gravityDirection: Point(0.6, -0.8)))),
                              heavy], size: Size(30, 70))
        try a.step(to: 0.5)
        let v = try #require(a.state(of: "box")).velocity
        #expect(abs(v.x - 600 * 0.5) < 1e-6)
        #expect(abs(v.y + 800 * 0.5) < 1e-6)
    }

    @Test func massIsDensityTimesArea() throws {
        let a = try animator([DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["box"], density: 2)))],
                             size: Size(50, 80))
        try a.step(to: 1.0 / 240)
        let mass = try #require(a.mass(of: "box"))
        let expected: Double = 2.0 * 50.0 * 80.0 / 10_000.0
        #expect(abs(mass - expected) < 1e-12)
    }

    @Test(arguments: [(Size(100, 100), 100.0), (Size(200, 100), 50.0)])
    func continuousPushAcceleratesByForceOverMass(size: Size, acceleration: Double) throws {
        let a = try animator([DynamicBehavior(id: "p", .push(PushBehavior(items: ["box"], pushDirection: Point(1, 0))))],
                             size: size)
        try a.step(to: 1)
        let s = try #require(a.state(of: "box"))
        #expect(abs(s.velocity.x - acceleration) / acceleration < 1e-9)
        // x = ½at² with semi-implicit Euler's h/t error (0.42 % at 240 Hz).
        #expect(abs((s.center.x - 500) - acceleration / 2) / (acceleration / 2) < 0.005)
        #expect(s.velocity.y == 0 && s.angularVelocity == 0)
    }

    @Test(arguments: [(Size(100, 100), 100.0), (Size(200, 100), 50.0)])
    func instantaneousPushChangesVelocityOnceAndRearms(size: Size, deltaV: Double) throws {
        let a = try animator([DynamicBehavior(id: "p", .push(PushBehavior(items: ["box"], mode: .instantaneous,
                                                                         pushDirection: Point(0, -1))))], size: size)
        try a.step(to: 0.5)
        #expect(abs(try #require(a.state(of: "box")).velocity.y + deltaV) < 1e-9)
        guard case .push(let fired) = try #require(a.behavior(id: "p")).kind else { Issue.record("not a push"); return }
        #expect(!fired.active)
        // Active again: one more impulse.
        try a.updateBehavior(id: "p") { b in
            if case .push(var p) = b.kind { p.active = true; b.kind = .push(p) }
        }
        try a.step(to: 1)
        #expect(abs(try #require(a.state(of: "box")).velocity.y + 2 * deltaV) < 1e-9)
    }

    @Test func offCenterPushTurnsTheItem() throws {
        let a = try animator([DynamicBehavior(id: "p", .push(PushBehavior(items: ["box"], mode: .instantaneous,
                                                                         pushDirection: Point(1, 0),
                                                                         targetOffsetFromCenter: Point(0, 50))))])
        try a.step(to: 0.1)
        // Impulse 100 at arm (0, 50): ω = −50·100 / I, I = m(w²+h²)/12 = 20000/12.
        let w = try #require(a.state(of: "box")).angularVelocity
        #expect(abs(w - (-5000 / (20_000.0 / 12))) < 1e-9)
    }

    /// Times at which `f` crosses zero upwards, linearly interpolated between steps.
    func upwardCrossings(_ a: DynamicAnimator, until end: Double, _ f: (DynamicItemState) -> Double) throws -> [Double] {
        var crossings: [Double] = []
        var previous = f(try #require(a.state(of: "box"))), previousT = 0.0
        let steps = Int(end * 240)
        for k in 1...steps {
            let t = Double(k) / 240
            try a.step(to: t)
            let value = f(try #require(a.state(of: "box")))
            if previous < 0, value >= 0 { crossings.append(previousT + (t - previousT) * (-previous) / (value - previous)) }
            previous = value; previousT = t
        }
        return crossings
    }

    @Test func rigidAttachmentIsAPendulumOfPeriodTwoPiRootLOverG() throws {
        let length = 200.0, theta = 3.0 * .pi / 180, anchor = Point(500, 100)
        let start = anchor + Point(length * sin(theta), length * cos(theta))
        let a = try animator([
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["box"]))),
            DynamicBehavior(id: "rod", .attachment(AttachmentBehavior(item: "box", attachedTo: .anchor(anchor)))),
        ], size: Size(20, 20), center: start)
        let crossings = try upwardCrossings(a, until: 8) { $0.center.x - anchor.x }
        try #require(crossings.count >= 2)
        let period = (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
        let expected = 2 * .pi * (length / 1000).squareRoot()
        #expect(abs(period - expected) / expected < 0.01)
        // The rod keeps its length (the default: the initial distance).
        #expect(abs(try #require(a.state(of: "box")).center.distance(to: anchor) - length) < 0.5)
    }

    @Test(arguments: [1.0, 2.0, 4.0])
    func springAttachmentOscillatesAtItsFrequency(frequency: Double) throws {
        let a = try animator([DynamicBehavior(id: "s", .attachment(AttachmentBehavior(
            item: "box", attachedTo: .anchor(Point(100, 300)), length: 150, frequency: frequency, damping: 0)))],
            center: Point(300, 300))
        let crossings = try upwardCrossings(a, until: 4) { $0.center.x - 250 }
        try #require(crossings.count >= 2)
        let period = (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
        #expect(abs(1 / period - frequency) / frequency < 0.02)
    }

    @Test func criticallyDampedSpringDoesNotOvershoot() throws {
        let a = try animator([DynamicBehavior(id: "s", .attachment(AttachmentBehavior(
            item: "box", attachedTo: .anchor(Point(100, 300)), length: 150, frequency: 2, damping: 1)))],
            center: Point(300, 300))
        var lowest = Double.infinity
        for k in 1...(3 * 240) {
            try a.step(to: Double(k) / 240)
            lowest = min(lowest, try #require(a.state(of: "box")).center.x)
        }
        #expect(lowest >= 250 - 0.25)   // released 50 pt out: no swing past the rest length
        #expect(abs(try #require(a.state(of: "box")).center.x - 250) < 0.5)
    }

    @Test(arguments: [0.5, 0.8])
    func ballReboundsToElasticitySquaredTimesHeight(elasticity: Double) throws {
        let floor = 800.0, radius = 20.0, height = 400.0
        let a = try animator([
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["box"]))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["box"], boundaries: [
                CollisionBoundary(identifier: "floor", .line(from: Point(0, floor), to: Point(1000, floor)))]))),
            DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["box"], elasticity: elasticity))),
        ], size: Size(2 * radius, 2 * radius), center: Point(500, floor - radius - height), bounds: .ellipse)
        var bounced = false, apex = Double.infinity
        for k in 1...(3 * 240) {
            try a.step(to: Double(k) / 240)
            let s = try #require(a.state(of: "box"))
            if s.velocity.y < 0 { bounced = true }
            if bounced {
                if s.velocity.y > 0 { break }
                apex = min(apex, s.center.y)
            }
        }
        let rebound = floor - radius - apex
        let expected = elasticity * elasticity * height
        #expect(abs(rebound - expected) / expected < 0.05)
    }

    @Test func resistanceIsBox2DLinearDamping() throws {
        let r = 2.0, w0 = 3.0
        let a = try animator([DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(
            items: ["box"], resistance: r, angularResistance: r, linearVelocity: Point(200, 0), angularVelocity: w0)))])
        try a.step(to: 1)
        let s = try #require(a.state(of: "box"))
        let h = 1.0 / 240
        // The stated law: v ← v / (1 + h·r) each step …
        #expect(abs(s.velocity.x - 200 * pow(1 + h * r, -240)) < 1e-9)
        #expect(abs(s.angularVelocity - w0 * pow(1 + h * r, -240)) < 1e-12)
        // … which is exponential decay e^(−r·t) to within 1 %.
        #expect(abs(s.velocity.x - 200 * exp(-r)) / (200 * exp(-r)) < 0.01)
    }

    func squareOnCorner(tilt: Double) throws -> DynamicAnimator {
        let floor = 800.0
        // The lowest corner of a 100×100 square turned by `tilt` is this far below its center.
        let drop = 50 * (abs(cos(tilt)) + abs(sin(tilt)))
        let a = try DynamicAnimator(referenceBounds: bounds, items: [
            DynamicItem(id: "box", center: Point(500, floor - drop), size: Size(100, 100), angle: tilt),
        ], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["box"]))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["box"], boundaries: [
                CollisionBoundary(identifier: "floor", .line(from: Point(0, floor), to: Point(1000, floor)))]))),
            DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["box"], friction: 0.5))),
        ])
        try a.step(to: 2)
        return a
    }

    @Test func squareBalancedOnItsCornerStaysUp() throws {
        let s = try #require(try squareOnCorner(tilt: .pi / 4).state(of: "box"))
        #expect(abs(s.angle - .pi / 4) < 0.01)
        #expect(abs(s.center.y - (800 - 50 * 2.0.squareRoot())) < 1)
    }

    @Test func squareTiltedThirtyDegreesFallsFlat() throws {
        let s = try #require(try squareOnCorner(tilt: .pi / 6).state(of: "box"))
        let offFlat = abs(remainder(s.angle, .pi / 2))
        #expect(offFlat < 0.02)               // lies on a face…
        #expect(abs(s.center.y - 750) < 1)    // …resting on the floor
    }

    func snapRun(damping: Double) throws -> (final: DynamicItemState, overshoot: Double) {
        let start = Point(100, 100), target = Point(400, 500)
        let a = try DynamicAnimator(referenceBounds: bounds, items: [
            DynamicItem(id: "box", center: start, size: Size(60, 60), angle: 0.6),
        ], behaviors: [DynamicBehavior(id: "snap", .snap(SnapBehavior(item: "box", snapPoint: target, damping: damping)))])
        let u = (target - start) / target.distance(to: start)
        var overshoot = -Double.infinity
        for k in 1...(3 * 240) {
            try a.step(to: Double(k) / 240)
            overshoot = max(overshoot, (try #require(a.state(of: "box")).center - target).dot(u))
        }
        return (try #require(a.state(of: "box")), overshoot)
    }

    @Test(arguments: [0.1, 0.5, 1.0])
    func snapSettlesOnThePointUnrotated(damping: Double) throws {
        let (s, _) = try snapRun(damping: damping)
        #expect(s.center.distance(to: Point(400, 500)) < 1)
        #expect(abs(s.angle) < 0.01)
    }

    @Test func snapOvershootsOnlyWhenUnderdamped() throws {
        #expect(try snapRun(damping: 0.1).overshoot > 20)
        // Critical joints: the four pulling unevenly leave under 1 % of the 500-pt travel.
        #expect(try snapRun(damping: 1).overshoot < 5)
    }

    /// A 60×60 item 1 pt right of its snap point, undamped: its period of oscillation.
    func snapPeriod(allowsRotation: Bool) throws -> Double {
        var behaviors = [DynamicBehavior(id: "snap", .snap(SnapBehavior(item: "box", snapPoint: Point(400, 500), damping: 0)))]
        if !allowsRotation {
            behaviors.append(DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["box"], allowsRotation: false))))
        }
        let a = try DynamicAnimator(referenceBounds: bounds, items: [
            DynamicItem(id: "box", center: Point(401, 500), size: Size(60, 60)),
        ], behaviors: behaviors)
        var crossings: [Double] = []
        var last = 1.0
        for k in 1...(2 * 2400) {
            try a.step(to: Double(k) / 2400)
            let x = try #require(a.state(of: "box")).center.x - 400
            // Upward crossings of the snap point, interpolated between steps.
            if last < 0, x >= 0 { crossings.append((Double(k) - x / (x - last)) / 2400) }
            last = x
        }
        let periods = zip(crossings.dropFirst(), crossings).map { $0 - $1 }
        return periods.reduce(0, +) / Double(periods.count)
    }

    @Test func snapIsFourJointsOfFourHertz() throws {
        // Along x only the two horizontal joints stretch (the vertical ones by x²/100).
        // Each has the effective mass m_e = 1/(1/m + (h/2)²/I) with I = m·(w² + h²)/12,
        // 60×60: (30²)/(m·600) = 1.5/m, so m_e = 0.4·m; their torques cancel, so the
        // item does not turn and m·x″ = −2·m_e·ω²·x: f = 4 Hz × √0.8 = 3.578 Hz, a period
        // of 0.2795 s. Without rotation m_e = m: f = 4 × √2 = 5.657 Hz, 0.1768 s.
        let free = try snapPeriod(allowsRotation: true), fixed = try snapPeriod(allowsRotation: false)
        #expect(abs(free - 1 / (4 * 0.8.squareRoot())) < 0.002, "\(free)")
        #expect(abs(fixed - 1 / (4 * 2.0.squareRoot())) < 0.002, "\(fixed)")
    }

    /// The angle at every step of a snap from (100, 100) to (400, 500).
    func snapAngles(allowsRotation: Bool) throws -> [Double] {
        var behaviors = [DynamicBehavior(id: "snap", .snap(SnapBehavior(item: "box", snapPoint: Point(400, 500))))]
        if !allowsRotation {
            behaviors.append(DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["box"], allowsRotation: false))))
        }
        let a = try DynamicAnimator(referenceBounds: bounds, items: [
            DynamicItem(id: "box", center: Point(100, 100), size: Size(60, 60)),
        ], behaviors: behaviors)
        return try (1...(3 * 240)).map { k in
            try a.step(to: Double(k) / 240)
            return try #require(a.state(of: "box")).angle
        }
    }

    @Test func snapTiltsOnTheWayAndSettlesUnrotated() throws {
        // UIKit's snapped view tilts as it travels (the wobble apps turn off with
        // allowsRotation = NO) and comes to rest at rotation 0.
        let angles = try snapAngles(allowsRotation: true)
        let tilt = angles.map(abs).max() ?? 0
        #expect(tilt > 0.1, "largest tilt \(tilt) rad")
        #expect(abs(angles.last ?? 1) < 0.01)
        #expect(try snapAngles(allowsRotation: false).allSatisfy { $0 == 0 })
    }
}
