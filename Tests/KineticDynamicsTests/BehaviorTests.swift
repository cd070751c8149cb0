import Foundation
import KineticGeometry
import Testing
@testable import KineticDynamics

@Suite struct BehaviorTests {
    let bounds = Rect(0, 0, 400, 400)
    let floorLine = CollisionBoundary(identifier: "floor", .line(from: Point(0, 300), to: Point(400, 300)))

    func ball(_ id: String, _ x: Double, _ y: Double, radius: Double = 10) -> DynamicItem {
        DynamicItem(id: id, center: Point(x, y), size: Size(2 * radius, 2 * radius), collisionBoundsType: .ellipse)
    }

    @Test func contactEventsNameTheBoundaryInSimulationOrder() throws {
        // a starts lower, so it lands first; elasticity 0.5 makes each bounce end.
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 200), ball("b", 300, 100)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a", "b"]))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["a", "b"], boundaries: [floorLine]))),
            DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["a", "b"], elasticity: 0.5))),
        ])
        try a.step(to: 0.8)
        let events = a.takeContactEvents()
        let began = events.filter { $0.phase == .began }
        try #require(began.count >= 2)
        #expect(began[0].item == "a" && began[0].other == .boundary("floor") && began[0].behavior == "c")
        // a's bottom falls 90 pt: t = √(2·90/1000) s.
        #expect(abs(began[0].time - (2 * 90 / 1000.0).squareRoot()) < 0.01)
        #expect(began.contains { $0.item == "b" })
        #expect(events.map(\.time) == events.map(\.time).sorted())
        #expect(events.contains { $0.phase == .ended && $0.item == "a" })
        #expect(a.takeContactEvents().isEmpty)
    }

    @Test func closedPathBoundaryReportsOneContactAndHoldsTheBall() throws {
        // A bowl: a half circle below the ball, closed by its chord (UIKit closes paths).
        var bowl = BezierPath()
        bowl.move(to: Point(100, 200))
        bowl.addCurve(to: Point(200, 300), control1: Point(100, 255), control2: Point(145, 300))
        bowl.addCurve(to: Point(300, 200), control1: Point(255, 300), control2: Point(300, 255))
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 200, 280)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a"]))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["a"], boundaries: [
                CollisionBoundary(identifier: "bowl", .path(bowl))]))),
        ])
        try a.step(to: 1)
        let s = try #require(a.state(of: "a"))
        #expect(abs(s.center.y - 290) < 1)
        #expect(a.takeContactEvents().filter { $0.phase == .began }.count == 1)
    }

    @Test func chordOfAnArcIsABoundary() throws {
        // An arc bulging upwards; a ball dropped onto its open side lands on the chord.
        var arc = BezierPath()
        arc.move(to: Point(100, 300))
        arc.addQuadCurve(to: Point(300, 300), control: Point(200, 200))
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 200, 360)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a"], gravityDirection: Point(0, -1)))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["a"], boundaries: [
                CollisionBoundary(identifier: "arc", .path(arc))]))),
        ])
        try a.step(to: 1)
        #expect(abs(try #require(a.state(of: "a")).center.y - 310) < 1)
    }

    @Test func referenceBoundsWithInsetsContainItems() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 200, 200)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a"], gravityDirection: Point(1, 1)))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["a"], translatesReferenceBoundsIntoBoundary: true,
                                                                  insets: EdgeInsets(top: 0, left: 0, bottom: 50, right: 20)))),
        ])
        try a.step(to: 2)
        let s = try #require(a.state(of: "a"))
        #expect(abs(s.center.x - 370) < 1 && abs(s.center.y - 340) < 1)
        #expect(a.takeContactEvents().contains { $0.other == .boundary(CollisionBehavior.referenceBoundsIdentifier) })
    }

    func twoBallsHeadOn(mode: CollisionMode) throws -> DynamicAnimator {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100), ball("b", 300, 100)], behaviors: [
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["a", "b"], collisionMode: mode))),
            DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["a", "b"], elasticity: 1,
                                                                        linearVelocity: Point(0, 0)))),
            DynamicBehavior(id: "va", .itemBehavior(DynamicItemBehavior(items: ["a"], linearVelocity: Point(200, 0)))),
        ])
        try a.step(to: 2)
        return a
    }

    @Test func itemsModeCollidesItemsAndBoundariesModeLetsThemPass() throws {
        let colliding = try twoBallsHeadOn(mode: .items)
        // Equal masses, elastic: a stops and b takes its velocity.
        #expect(abs(try #require(colliding.state(of: "b")).velocity.x - 200) < 1)
        #expect(colliding.takeContactEvents().contains { $0.other == .item("b") || $0.other == .item("a") })
        let passing = try twoBallsHeadOn(mode: .boundaries)
        #expect(abs(try #require(passing.state(of: "a")).center.x - 500) < 1e-6)
        #expect(passing.takeContactEvents().isEmpty)
    }

    @Test func behaviorsAreLiveOnlyBetweenBeginAndEnd() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100)], behaviors: [
            DynamicBehavior(id: "p", begin: 0.5, end: 1.5, .push(PushBehavior(items: ["a"], pushDirection: Point(1, 0)))),
        ])
        try a.step(to: 0.5)
        #expect(try #require(a.state(of: "a")).velocity.x == 0)
        try a.step(to: 2)
        // Live for exactly 1 s: push 100 on mass 20·20/10000 = 0.04.
        #expect(abs(try #require(a.state(of: "a")).velocity.x - 100 / 0.04) < 1e-6)
    }

    @Test func removingAndAddingBehaviorsAtRuntime() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a"]))),
        ])
        try a.step(to: 0.5)
        try a.removeBehavior(id: "g")
        try a.step(to: 1)
        #expect(abs(try #require(a.state(of: "a")).velocity.y - 500) < 1e-9)
        try a.addBehavior(DynamicBehavior(id: "up", .gravity(GravityBehavior(items: ["a"], gravityDirection: Point(0, -1)))))
        try a.step(to: 1.5)
        #expect(abs(try #require(a.state(of: "a")).velocity.y) < 1e-9)
        #expect(throws: DynamicsError.unknownBehavior("g")) { try a.removeBehavior(id: "g") }
        #expect(throws: DynamicsError.duplicateBehavior("up")) {
            try a.addBehavior(DynamicBehavior(id: "up", .gravity(GravityBehavior(items: ["a"]))))
        }
    }

    @Test func movingTheAnchorDragsTheItem() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 150)], behaviors: [
            DynamicBehavior(id: "pan", .attachment(AttachmentBehavior(item: "a", attachedTo: .anchor(Point(100, 100))))),
        ])
        for k in 1...240 {
            let t = Double(k) / 240
            try a.updateBehavior(id: "pan") { b in
                if case .attachment(var at) = b.kind { at.anchorPoint = Point(100 + 100 * t, 100); b.kind = .attachment(at) }
            }
            try a.step(to: t)
        }
        let s = try #require(a.state(of: "a"))
        // The rod keeps its initial 50 pt length as the anchor moves.
        #expect(abs(s.center.distance(to: Point(200, 100)) - 50) < 0.5)
    }

    @Test func itemToItemRodKeepsItsLengthAndMomentum() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 200), ball("b", 160, 200)], behaviors: [
            DynamicBehavior(id: "rod", .attachment(AttachmentBehavior(item: "a", attachedTo: .item("b", offsetFromCenter: .zero)))),
            DynamicBehavior(id: "kick", .itemBehavior(DynamicItemBehavior(items: ["a"], linearVelocity: Point(0, 120)))),
        ])
        try a.step(to: 1)
        let pa = try #require(a.state(of: "a")), pb = try #require(a.state(of: "b"))
        #expect(abs(pa.center.distance(to: pb.center) - 60) < 0.5)
        // Equal masses: the center of mass drifts at half the kick.
        #expect(abs((pa.velocity.y + pb.velocity.y) / 2 - 60) < 0.5)
    }

    @Test func limitAttachmentIsARope() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 120)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a"]))),
            DynamicBehavior(id: "rope", .attachment(AttachmentBehavior(kind: .limit, item: "a",
                                                                       attachedTo: .anchor(Point(100, 100)), length: 80))),
        ])
        try a.step(to: 0.1)
        #expect(try #require(a.state(of: "a")).center.y < 179)   // slack: falls freely
        try a.step(to: 2)
        #expect(abs(try #require(a.state(of: "a")).center.y - 180) < 1)
    }

    @Test func anchoredItemDoesNotMoveButStopsOthers() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100), ball("wall", 100, 200)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a", "wall"]))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["a", "wall"]))),
            DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["wall"], anchored: true))),
        ])
        try a.step(to: 1)
        #expect(try #require(a.state(of: "wall")).center == Point(100, 200))
        #expect(abs(try #require(a.state(of: "a")).center.y - 180) < 1)
    }

    @Test func allowsRotationFalseKeepsTheAngle() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [DynamicItem(id: "box", center: Point(200, 200), size: Size(40, 40))],
                                    behaviors: [
            DynamicBehavior(id: "p", .push(PushBehavior(items: ["box"], mode: .instantaneous, pushDirection: Point(1, 0),
                                                        targetOffsetFromCenter: Point(0, 20)))),
            DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["box"], allowsRotation: false))),
        ])
        try a.step(to: 0.5)
        let s = try #require(a.state(of: "box"))
        #expect(s.angle == 0 && s.angularVelocity == 0)
        #expect(abs(s.velocity.x - 100 / 0.16) < 1e-9)   // mass 40·40/10000
    }

    @Test func resultsDoNotDependOnHowOftenTheCallerSamples() throws {
        func run(_ samples: Int) throws -> DynamicItemState? {
            let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100), ball("b", 110, 50)], behaviors: [
                DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a", "b"]))),
                DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["a", "b"], translatesReferenceBoundsIntoBoundary: true))),
                DynamicBehavior(id: "f", .field(FieldBehavior(kind: .noise, items: ["a", "b"], strength: 2, animationSpeed: 1))),
            ])
            for k in 1...samples { try a.step(to: 2 * Double(k) / Double(samples)) }
            return a.state(of: "b")
        }
        let once = try run(1)
        #expect(once == (try run(50)))
        #expect(once == (try run(33)))
    }

    @Test func invalidValuesAreRefusedBeforeChipmunkSeesThem() throws {
        let items = [ball("a", 100, 100)]
        #expect(throws: DynamicsError.self) {
            try DynamicAnimator(referenceBounds: bounds, items: items, behaviors: [
                DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a"], gravityDirection: Point(.nan, 1))))])
        }
        #expect(throws: DynamicsError.unknownItem(behavior: "g", item: "zz")) {
            try DynamicAnimator(referenceBounds: bounds, items: items, behaviors: [
                DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["zz"])))])
        }
        #expect(throws: DynamicsError.self) {
            try DynamicAnimator(referenceBounds: bounds, items: items, behaviors: [
                DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["a"], density: 0)))])
        }
        #expect(throws: DynamicsError.self) {
            try DynamicAnimator(referenceBounds: bounds, items: [DynamicItem(id: "flat", center: .zero, size: Size(0, 10))])
        }
        var line = BezierPath()
        line.move(to: Point(0, 0)); line.addLine(to: Point(10, 10)); line.addLine(to: Point(20, 20))
        #expect(throws: DynamicsError.self) {
            try DynamicAnimator(referenceBounds: bounds, items: [
                DynamicItem(id: "p", center: .zero, size: Size(10, 10), collisionBoundsType: .path(line))])
        }
        #expect(throws: DynamicsError.self) {
            try DynamicAnimator(referenceBounds: bounds, items: items, behaviors: [
                DynamicBehavior(id: "s", .snap(SnapBehavior(item: "a", snapPoint: .zero, damping: 1.5)))])
        }
    }

    @Test func blowUpReportsTimeAndItem() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100), ball("b", 200, 100)], behaviors: [
            DynamicBehavior(id: "p", begin: 0.25, .push(PushBehavior(items: ["b"], pushDirection: Point(1e300, 0)))),
        ])
        #expect(throws: DynamicsError.nonFiniteState(time: 0.25, item: "b")) { try a.step(to: 1) }
    }

    @Test func pathCollisionBoundsUseTheHull() throws {
        // A triangle pointing down; its tip rests on the floor.
        var triangle = BezierPath()
        triangle.move(to: Point(-30, -20)); triangle.addLine(to: Point(30, -20)); triangle.addLine(to: Point(0, 40)); triangle.close()
        let a = try DynamicAnimator(referenceBounds: bounds, items: [
            DynamicItem(id: "t", center: Point(200, 200), size: Size(60, 60), collisionBoundsType: .path(triangle))], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["t"]))),
            DynamicBehavior(id: "c", .collision(CollisionBehavior(items: ["t"], boundaries: [floorLine]))),
            DynamicBehavior(id: "ib", .itemBehavior(DynamicItemBehavior(items: ["t"], allowsRotation: false))),
        ])
        try a.step(to: 1)
        #expect(abs(try #require(a.state(of: "t")).center.y - 260) < 1)
    }

    @Test func linearGravityFieldAndDragFollowTheirLaws() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100)], behaviors: [
            DynamicBehavior(id: "f", .field(FieldBehavior(kind: .linearGravity, items: ["a"], strength: 0.5,
                                                          direction: Point(2, 0)))),
        ])
        try a.step(to: 1)
        #expect(abs(try #require(a.state(of: "a")).velocity.x - 500) < 1e-6)
        let b = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100)], behaviors: [
            DynamicBehavior(id: "f", .field(FieldBehavior(kind: .drag, items: ["a"], strength: 1))),
            DynamicBehavior(id: "v", .itemBehavior(DynamicItemBehavior(items: ["a"], linearVelocity: Point(100, 0)))),
        ])
        try b.step(to: 1)
        // dv/dt = −v: e^(−1) within the explicit step's error.
        #expect(abs(try #require(b.state(of: "a")).velocity.x - 100 * exp(-1)) < 0.2)
    }

    @Test func radialFieldActsOnlyInsideItsRegion() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("in", 150, 100), ball("out", 350, 100)], behaviors: [
            DynamicBehavior(id: "f", .field(FieldBehavior(kind: .radialGravity, items: ["in", "out"], position: Point(100, 100),
                                                          region: .radius(100), strength: 0.1))),
        ])
        try a.step(to: 0.1)
        #expect(try #require(a.state(of: "in")).velocity.x < 0)
        #expect(try #require(a.state(of: "out")).velocity == .zero)
    }

    @Test func jointsBetweenImmovableEndsWaitUntilAnEndCanMove() throws {
        // Chipmunk cannot solve a joint between two immovable ends (it aborts): such
        // joints are left out while both ends are anchored, and made once one is free.
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100), ball("b", 200, 100)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a", "b"]))),
            DynamicBehavior(id: "pinA", .attachment(AttachmentBehavior(kind: .fixed, item: "a", offsetFromCenter: Point(0, -50),
                                                                       attachedTo: .anchor(Point(100, 50))))),
            DynamicBehavior(id: "ab", .attachment(AttachmentBehavior(kind: .pin, item: "a", offsetFromCenter: Point(100, 0),
                                                                     attachedTo: .item("b", offsetFromCenter: .zero),
                                                                     frictionTorque: 1))),
            DynamicBehavior(id: "hold", end: 0.5, .itemBehavior(DynamicItemBehavior(items: ["a", "b"], allowsRotation: false,
                                                                                   anchored: true))),
        ])
        try a.step(to: 0.5)
        #expect(try #require(a.state(of: "b")).center == Point(200, 100))
        try a.step(to: 3)
        // Freed, and held by the joints: a welded to its anchor, b pinned to a's arm.
        let pa = try #require(a.state(of: "a")), pb = try #require(a.state(of: "b"))
        #expect(pa.center.distance(to: Point(100, 100)) < 1)
        #expect(pb.center.distance(to: Point(200, 100)) < 1)
    }
}

@Suite struct BlowUpTests {
    @Test func absurdAddedVelocityIsABlowUpNotACrash() throws {
        let a = try DynamicAnimator(referenceBounds: Rect(0, 0, 100, 100),
                                    items: [DynamicItem(id: "a", center: Point(50, 50), size: Size(10, 10))], behaviors: [
            DynamicBehavior(id: "v1", .itemBehavior(DynamicItemBehavior(items: ["a"], linearVelocity: Point(1.5e308, 0)))),
            DynamicBehavior(id: "v2", .itemBehavior(DynamicItemBehavior(items: ["a"], linearVelocity: Point(1.5e308, 0)))),
        ])
        #expect(throws: DynamicsError.nonFiniteState(time: 0, item: "a")) { try a.step(to: 0.1) }
    }

    @Test func absurdInstantaneousPushIsABlowUpNotACrash() throws {
        let a = try DynamicAnimator(referenceBounds: Rect(0, 0, 100, 100),
                                    items: [DynamicItem(id: "a", center: Point(50, 50), size: Size(10, 10))], behaviors: [
            DynamicBehavior(id: "p", begin: 0.5, .push(PushBehavior(items: ["a"], mode: .instantaneous, pushDirection: Point(0, 1e300)))),
        ])
        #expect(throws: DynamicsError.nonFiniteState(time: 0.5, item: "a")) { try a.step(to: 1) }
    }
}
