import Foundation
import KineticGeometry
import Testing
@testable import KineticDynamics

/// Random scenes with extreme values: each must run or fail with a typed error — never
/// reach Chipmunk's aborts (which would kill this test process).
@Suite struct StressTests {
    /// SplitMix64, so the scenes are the same every run.
    struct Random {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func unit() -> Double { generator.unit() }
        /// A value from a wide, lopsided range: mostly ordinary, sometimes zero or huge.
        mutating func wild(_ scale: Double) -> Double {
            switch next() % 8 {
            case 0: return 0
            case 1: return scale * 1e9 * (unit() - 0.5)
            case 2: return scale * 1e-9
            default: return scale * (unit() * 2 - 1)
            }
        }
        mutating func point(_ scale: Double) -> Point { Point(wild(scale), wild(scale)) }
        mutating func pick<T>(_ xs: [T]) -> T { xs[Int(next() % UInt64(xs.count))] }
    }

    @Test(arguments: 0..<400)
    func randomScenesRunOrFailCleanly(seed: Int) {
        var r = Random(state: UInt64(seed) &* 7919)
        let ids = (0..<6).map { "i\($0)" }
        var items: [DynamicItem] = []
        for id in ids {
            let size = Size(max(0.01, abs(r.wild(60))), max(0.01, abs(r.wild(60))))
            var tri = BezierPath()
            tri.move(to: r.point(20)); tri.addLine(to: r.point(20)); tri.addQuadCurve(to: r.point(20), control: r.point(20)); tri.close()
            let bounds: CollisionBoundsType = r.pick([.rectangle, .ellipse, .rectangle, .path(tri)])
            items.append(DynamicItem(id: id, center: Point(200 + r.wild(150), 200 + r.wild(150)), size: size,
                                     angle: r.wild(3), collisionBoundsType: bounds))
        }
        var behaviors: [DynamicBehavior] = []
        for k in 0..<10 {
            let some = Array(ids.shuffled(using: &r).prefix(Int(r.next() % 4) + 1))
            let begin = r.unit() * 0.3, end = begin + r.unit() * 0.5
            let kind: DynamicBehavior.Kind
            switch r.next() % 7 {
            case 0: kind = .gravity(GravityBehavior(items: some, gravityDirection: r.point(3)))
            case 1: kind = .collision(CollisionBehavior(items: some, collisionMode: r.pick([.items, .boundaries, .everything]),
                                                        translatesReferenceBoundsIntoBoundary: r.next() % 2 == 0,
                                                        boundaries: [CollisionBoundary(identifier: "l", .line(from: r.point(400), to: r.point(400))),
                                                                     CollisionBoundary(identifier: "p", .path({ var p = BezierPath(); p.move(to: r.point(300)); p.addCurve(to: r.point(300), control1: r.point(300), control2: r.point(300)); return p }()))]))
            case 2: kind = .push(PushBehavior(items: some, mode: r.pick([.continuous, .instantaneous]),
                                              pushDirection: r.point(5), targetOffsetFromCenter: r.point(30)))
            case 3:
                let other = r.pick(ids)
                let attached: AttachmentBehavior.Attached = other == some[0] || r.next() % 2 == 0
                    ? .anchor(r.point(300)) : .item(other, offsetFromCenter: r.point(20))
                let axis = Point(1, r.unit()), kinds: [AttachmentBehavior.Kind] = [.distance, .pin, .fixed, .limit, .sliding]
                kind = .attachment(AttachmentBehavior(kind: r.pick(kinds), item: some[0], offsetFromCenter: r.point(20),
                                                      attachedTo: attached, length: r.next() % 2 == 0 ? nil : abs(r.wild(100)),
                                                      frequency: abs(r.wild(5)), damping: abs(r.wild(1)),
                                                      frictionTorque: abs(r.wild(10)), axisOfTranslation: axis))
            case 4: kind = .snap(SnapBehavior(item: some[0], snapPoint: r.point(300), damping: r.unit()))
            case 5: kind = .itemBehavior(DynamicItemBehavior(items: some, elasticity: abs(r.wild(1)), friction: abs(r.wild(1)),
                                                             density: max(1e-3, abs(r.wild(5))), resistance: abs(r.wild(3)),
                                                             allowsRotation: r.next() % 2 == 0, anchored: r.next() % 3 == 0,
                                                             charge: r.wild(2), linearVelocity: r.point(500), angularVelocity: r.wild(10)))
            default: kind = .field(FieldBehavior(kind: r.pick(FieldBehavior.Kind.allCases), items: some, position: r.point(300),
                                                 strength: r.wild(2), falloff: abs(r.wild(2)), minimumRadius: abs(r.wild(10))))
            }
            behaviors.append(DynamicBehavior(id: "b\(k)", begin: begin, end: end, kind))
        }
        do {
            let a = try DynamicAnimator(referenceBounds: Rect(0, 0, 400, 400), items: items, behaviors: behaviors)
            for k in 1...20 { try a.step(to: Double(k) / 20) }
            for id in ids {
                let s = a.state(of: id)
                #expect(s.map { $0.center.isFinite && $0.velocity.isFinite } == true)
            }
        } catch {
            // A typed refusal or a reported blow-up is a clean outcome.
            _ = error as DynamicsError
        }
    }
}

extension StressTests.Random: RandomNumberGenerator {}
