import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 4 inside animations: `from`/`to`/`by`/`values` written as expressions are
/// evaluated once, when the animation begins (Core Animation fixes an animation's values
/// when it is added), reading what a frame then shows without the animations beginning
/// then or later.
@Suite struct AnimationExpressionTests {
    func load(_ body: String, fps: Double = 50) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [400, 400], duration: 3, fps: \(fps)}\n" + body, file: "t.yaml")
    }

    func problems(_ body: String) -> [SceneProblem] { sceneProblems(try load(body)) }

    func layer(_ frame: SceneFrame, _ id: String) -> Layer? { findLayer(frame.layers, id: id) }

    @Test func valuesAreFixedWhenTheAnimationBegins() throws {
        // a moves 0 → 100 over the first second; b's animation begins at 0.5, when a is at
        // 50, so it runs 0 → 60 over 0.5 s whatever a does afterwards.
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}, {id: b, position: [0, 0]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1}
          - {layer: b, keyPath: position.x, to: "= a.position.x + 10", begin: 0.5, duration: 0.5}
        """)
        #expect(abs((timelineLayer(scene, "b", at: 0.75)?.position.x ?? 0) - 30) < 1e-9)
        #expect(abs((timelineLayer(scene, "b", at: 2)?.position.x ?? 0) - 60) < 1e-9)
        // Before it begins the animation does nothing.
        #expect(timelineLayer(scene, "b", at: 0.4)?.position.x == 0)
    }

    @Test func transformValuesAreComposedWhenTheAnimationBegins() throws {
        // The transform's components are numbers: expressions in them are evaluated at the
        // begin (0.5 s, a at 50), the written ones kept.
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}, {id: card, bounds: [50, 50]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1}
          - {layer: card, keyPath: transform, to: {rotate: "= a.position.x / 100", perspective: 500}, begin: 0.5,
             duration: 0.5}
          - {layer: card, keyPath: sublayerTransform, values: [{scale: 1}, {scale: "= 1 + a.position.x / 50"}], begin: 0.5,
             duration: 0.5}
        """)
        let card = try #require(timelineLayer(scene, "card", at: 2))
        var c = Transform3D.Components()
        c.rotationZ = 0.5; c.m34 = -1.0 / 500
        for (x, y) in zip(card.transform.fields, c.composed.fields) { #expect(abs(x - y) < 1e-9) }
        #expect(abs(card.sublayerTransform.m11 - 2) < 1e-9 && abs(card.sublayerTransform.m22 - 2) < 1e-9)
    }

    @Test func valuesAreTermsSaltedInReadingOrder() throws {
        // A value written with expressions is a term with its own random() salt, 1 << 32 + n
        // in the order the file is read (animations, dynamics, events, then behavior
        // animations), whichever reader meets it; a literal stays one.
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}, {id: ball, bounds: [20, 20]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: "= random() * 10", duration: 1}
          - {layer: a, keyPath: opacity, values: [1, "= random()", 0], duration: 1}
          - {behavior: g, keyPath: magnitude, from: "= random()", to: 1, duration: 1}
        dynamics: {behaviors: [{gravity: {id: g, items: [ball], magnitude: "= random() + 1"}}]}
        events:
          - {at: 1, set: {a.position.y: "= random() * 5", g.magnitude: "= random() + 2"}}
        """)
        let salt = { (n: UInt64) in UInt64(1) << 32 + n }
        guard case .basic(let from, let to, nil) = scene.animations[0].values,
              case .keyframeTerms(let timing, let terms) = scene.animations[1].values,
              case .set(let behaviors, let layers)? = scene.events.first?.actions.first?.kind,
              case .value(.positionY, let set)? = layers.first?.change,
              case .basic(let behaviorFrom, _, nil)? = scene.behaviorAnimations.first?.spec.values else {
            Issue.record("unexpected model: \(scene.animations), \(scene.events), \(scene.behaviorAnimations)")
            return
        }
        #expect(from?.literal == .number(0))
        #expect(to?.expression?.seedSalt == salt(1))
        #expect(terms.map(\.literal) == [.number(1), nil, .number(0)])
        // The terms are the keyframes' values: nothing stands for the expression until it is evaluated.
        #expect(timing.values.isEmpty)
        #expect(terms[1].expression?.seedSalt == salt(2))
        #expect(scene.physics?.behaviorTerms.map(\.term.expression?.seedSalt) == [salt(3)])
        #expect(set.expression?.seedSalt == salt(4))
        #expect(behaviors.map(\.term.expression?.seedSalt) == [salt(5)])
        #expect(behaviorFrom?.expression?.seedSalt == salt(6))
    }

    @Test func pacedKeyframesMeasureTheValuesTheyBeginWith() throws {
        // At load an expression's value is only its kind (measurable here); paced times come from
        // the values evaluated at the begin (a at 25): 25 then 75 pt, so the layer moves at 100 pt/s
        // (evenly spaced key times would put it at 5 after 0.1 s).
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}, {id: b, position: [0, 0]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1}
          - {layer: b, keyPath: position, values: [[0, 0], "= [a.position.x, 0]", [100, 0]], calculationMode: paced,
             begin: 0.25, duration: 1}
        """)
        for (t, x) in [(0.35, 10.0), (0.75, 50)] {
            #expect(abs((timelineLayer(scene, "b", at: t)?.position.x ?? 0) - x) < 1e-9)
        }
    }

    @Test func keyframesOfAGroupAndOfAnEventsAnimateRunOnceEvaluated() throws {
        // Each evaluates `a.position.x` when it begins (50 at 0.5), then runs as keyframes 0 → 50 → 0:
        // at its middle key 0.5 s later, a quarter back down 0.25 s after that.
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}, {id: b, position: [0, 0]}, {id: c, position: [0, 0]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1}
          - {layer: b, begin: 0.5, duration: 1, group: [{keyPath: position.x, values: [0, "= a.position.x", 0], duration: 1}]}
        events:
          - at: 0.5
            animate: {layer: c, keyPath: position.x, values: [0, "= a.position.x", 0], duration: 1}
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        for (i, x) in [(50, 50.0), (62, 26)] {
            let frame = try simulation.frame(i)
            for id in ["b", "c"] { #expect(abs((layer(frame, id)?.position.x ?? 0) - x) < 1e-9, "\(id) at frame \(i)") }
        }
    }

    @Test func everyValueKindAndSlot() throws {
        let scene = try load("""
        layers:
          - {id: a, position: [40, 30], bounds: [20, 10]}
          - {id: p, position: [0, 0]}
          - {id: q, bounds: [1, 1], opacity: 1}
        animations:
          - {layer: p, keyPath: position, from: "@a", by: ["= a.bounds.size.width", 5], duration: 1}
          - {layer: q, keyPath: bounds.size, to: "= [a.position.x, a.position.y]", duration: 1}
          - {layer: q, keyPath: opacity, values: [1, "= a.bounds.size.height / 20", 0], duration: 1}
        """)
        let p = try #require(timelineLayer(scene, "p", at: 0.5))
        // From (40, 30) by (20, 5): half-way (50, 32.5).
        #expect(abs(p.position.x - 50) < 1e-9 && abs(p.position.y - 32.5) < 1e-9)
        let q = try #require(timelineLayer(scene, "q", at: 0.5))
        #expect(abs(q.bounds.width - 20.5) < 1e-9 && abs(q.bounds.height - 15.5) < 1e-9)
        #expect(abs(q.opacity - 0.5) < 1e-9)
    }

    @Test func aGroupsChildrenAreEvaluatedWhenTheGroupBegins() throws {
        // The group begins at 0.5 (a at 50); its child's own begin (0.7, a at 70) does not count.
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}, {id: b, position: [0, 0]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1}
          - {layer: b, begin: 0.5, duration: 1, group: [{keyPath: position.x, to: "= a.position.x", begin: 0.2, duration: 0}]}
        """)
        #expect(timelineLayer(scene, "b", at: 1.2)?.position.x == 50)
    }

    @Test func animationsBeginningTogetherDoNotSeeEachOther() throws {
        // c's own animation begins at 0.5 too: b reads c before it, at its model value 5.
        let scene = try load("""
        layers: [{id: b, position: [0, 0]}, {id: c, position: [5, 0]}]
        animations:
          - {layer: b, keyPath: position.x, to: "= c.position.x", begin: 0.5, duration: 0}
          - {layer: c, keyPath: position.x, from: 200, to: 300, begin: 0.5, duration: 1}
          - {id: later, layer: b, keyPath: position.y, to: "= c.position.x", begin: 1, duration: 0}
        """)
        let b = try #require(timelineLayer(scene, "b", at: 2))
        #expect(b.position.x == 5)
        // At 1.0 c's animation (begun at 0.5) is half-way: 250.
        #expect(abs(b.position.y - 250) < 1e-9)
    }

    @Test func afterChainsReadThePredecessorsEnd() throws {
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}, {id: b, position: [0, 0]}]
        animations:
          - {id: slide, layer: a, keyPath: position.x, to: 80, duration: 0.4, timingFunction: easeIn}
          - {layer: b, keyPath: position.x, to: "= a.position.x / 2", duration: 0, after: slide}
        """)
        #expect(abs((timelineLayer(scene, "b", at: 1)?.position.x ?? 0) - 40) < 1e-9)
    }

    @Test func frameAndTimeAreThoseOfTheBeginAtTheScenesFps() throws {
        let scene = try load("""
        layers: [{id: a, position: [0, 0]}]
        animations:
          - {layer: a, keyPath: position, to: ["= frame", "= t * 10"], begin: 0.5, duration: 0}
        """)
        let timeline = Timeline(scene: scene)
        // Frame 25 of the scene's 50 fps, even when frames are asked at 100 fps.
        for frame in [timeline.frame(200, fps: 100), timeline.frame(100)] {
            let a = try #require(layer(frame, "a"))
            #expect(a.position.x == 25 && abs(a.position.y - 5) < 1e-12)
        }
    }

    @Test func aValueThatIsNotFiniteLeavesTheAnimationWithoutEffect() throws {
        let scene = try load("""
        layers: [{id: a, position: [7, 0]}]
        animations:
          - {layer: a, keyPath: position.x, to: "= 1 / (t - 0.5)", begin: 0.5, duration: 1}
        """)
        #expect(timelineLayer(scene, "a", at: 1)?.position.x == 7)
    }

    @Test func physicsIsReadAtTheLastStepBeforeTheBegin() throws {
        // The marker jumps to the falling ball where a frame at 0.5 shows it, and stays
        // there; the second marker is moved by an `at:` event's animate, the third by the
        // animationStop handler of the first marker's animation, the fourth by an `at:`
        // event's animate that begins 0.2 s after it fires.
        let scene = try load("""
        layers:
          - {id: ball, position: [100, 50], bounds: [20, 20]}
          - {id: marker, position: [0, 0], bounds: [4, 4]}
          - {id: marker2, position: [0, 0], bounds: [4, 4]}
          - {id: marker3, position: [0, 0], bounds: [4, 4]}
          - {id: marker4, position: [0, 0], bounds: [4, 4]}
        dynamics:
          behaviors: [{gravity: {items: [ball]}}]
        animations:
          - {id: mark, layer: marker, keyPath: position, to: "@ball", begin: 0.5, duration: 0.2}
        events:
          - at: 0.3
            animate: {layer: marker2, keyPath: position.y, to: "= ball.position.y", duration: 0}
          - at: 0.3
            animate: {layer: marker4, keyPath: position.y, to: "= ball.position.y", begin: 0.2, duration: 0}
          - on: {animationStop: mark}
            do: [{animate: {layer: marker3, keyPath: position.y, to: "= ball.position.y", duration: 0}}]
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        var ballY: [Double: Double] = [:]
        for i in 0...60 {
            let frame = try simulation.frame(i)
            ballY[Double(i) / 50] = try #require(layer(frame, "ball")).position.y
        }
        let ball05 = try #require(ballY[0.5]), ball03 = try #require(ballY[0.3]), ball07 = try #require(ballY[0.7])
        // ½·1000·0.5² = 125 below the start, within the fixed step's error.
        #expect(abs(ball05 - 175) < 2)
        let last = try simulation.frame(60)
        #expect(try #require(layer(last, "marker")).position == Point(100, ball05))
        #expect(try #require(layer(last, "marker2")).position.y == ball03)
        #expect(try #require(layer(last, "marker3")).position.y == ball07)
        // An event's animate with a `begin` delay reads when it begins, not when it fires.
        #expect(try #require(layer(last, "marker4")).position.y == ball05)
        // A fresh simulation asked for the last frame only gives the same values.
        let direct = try Simulation(timeline: Timeline(scene: scene)).frame(60)
        #expect(try #require(layer(direct, "marker")).position == Point(100, ball05))
        #expect(try #require(layer(direct, "marker3")).position.y == ball07)
    }

    @Test func problemsAreLocated() {
        let layers = "layers: [{id: ball, position: [0, 0]}, {id: b}]\n"
        let unknown = problems(layers + """
        animations: [{layer: b, keyPath: opacity, to: "= bal.opacity"}]
        """)
        #expect(unknown.map(\.message) == ["unknown layer id 'bal' (did you mean 'ball'?)"])
        #expect(unknown.first?.keyPath == "animations[0].to")
        #expect(unknown.first.map { ($0.location.line, $0.location.column) } ?? (0, 0) == (4, 50))
        let kind = problems(layers + """
        animations: [{layer: b, keyPath: position, values: [[0, 0], "= ball.position.x"]}]
        """)
        #expect(kind.map(\.message) == ["expected a point, but the expression gives a number"])
        #expect(kind.first?.keyPath == "animations[0].values[1]")
        let fill = problems(layers + """
        animations: [{layer: b, keyPath: opacity, to: "= ball.opacity", fillMode: both}]
        """)
        #expect(fill.count == 1 && fill.first?.message.hasPrefix("fillMode 'both' shows the values before") == true)
        #expect(fill.first?.keyPath == "animations[0].fillMode")
        // With an unknown key beside it, each problem is reported once.
        let both = problems(layers + """
        animations: [{layer: b, keyPath: opacity, to: "= ball.opacity", fillMode: both, speeed: 2}]
        """)
        #expect(both.map(\.keyPath) == ["animations[0].fillMode", "animations[0].speeed"])
        let syntax = problems(layers + """
        animations: [{layer: b, keyPath: opacity, to: "= 1 +"}]
        """)
        #expect(syntax.count == 1 && syntax.first?.keyPath == "animations[0].to")
    }
}
