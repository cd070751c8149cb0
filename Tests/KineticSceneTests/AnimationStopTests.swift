import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// `on: {animationStop: ID}` (section 7): the handler's actions run when the animation
/// stops — its begin plus duration × repeatCount (× 2 when autoreversing) — at the first
/// simulation step from then (240 per second here).
@Suite struct AnimationStopTests {
    static let step = 1.0 / 240

    func load(_ body: String) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [200, 200], duration: 3, fps: 50}\n" + body, file: "t.yaml")
    }

    func problems(_ body: String) -> [SceneProblem] { sceneProblems(try load(body)) }

    /// The layer `id` at `time`, computed by a fresh simulation (frames asked out of order
    /// restart it anyway).
    func layer(_ scene: Scene, _ id: String, at time: Double) throws -> Layer? {
        try Simulation(timeline: Timeline(scene: scene)).frame(at: time, index: 0).layers.first { $0.id == id }
    }

    /// Checks that `changed` is false one step before `stop` and true one step after.
    func expectChange(_ scene: Scene, at stop: Double, _ changed: (Layer) -> Bool,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let before = try #require(try layer(scene, "box", at: stop - Self.step), sourceLocation: sourceLocation)
        let after = try #require(try layer(scene, "box", at: stop + Self.step), sourceLocation: sourceLocation)
        #expect(!changed(before), "changed before \(stop)", sourceLocation: sourceLocation)
        #expect(changed(after), "not changed after \(stop)", sourceLocation: sourceLocation)
    }

    @Test func aSetRunsWhenTheAnimationStops() throws {
        // Begins at 0.2, 0.1 s × 2 cycles × 2 (autoreverses): stops at 0.6 (step 144). `late`
        // stops at 0.61, between steps 146 and 147.
        let scene = try load("""
        layers: [{id: box, bounds: [20, 20], position: [50, 50]}]
        animations:
          - {id: wiggle, layer: box, keyPath: position.x, to: 60, begin: 0.2, duration: 0.1, repeatCount: 2, autoreverses: true}
          - {id: late, layer: box, keyPath: opacity, to: 0.5, begin: 0.31, duration: 0.3}
        events:
          - on: {animationStop: wiggle}
            do: [{set: {box.cornerRadius: 7}}]
          - on: {animationStop: late}
            do: [{set: {box.borderWidth: 3}}]
        """)
        try expectChange(scene, at: 0.6) { $0.cornerRadius == 7 }
        try expectChange(scene, at: 0.61) { $0.borderWidth == 3 }
        #expect(try layer(scene, "box", at: 0.3)?.cornerRadius == 0)
    }

    @Test func chainsWithAfterStopWhenTheirPredecessorsEndPlusTheirOwnTime() throws {
        // one: 0…0.3; two: after one with a 0.1 delay, 0.4 s: stops at 0.8.
        let scene = try load("""
        layers: [{id: box, bounds: [20, 20]}, {id: other, bounds: [10, 10]}]
        animations:
          - {id: one, layer: box, keyPath: opacity, to: 0.5, duration: 0.3}
          - {id: two, layer: box, keyPath: opacity, to: 1, begin: 0.1, duration: 0.4, after: one}
        events:
          - on: {animationStop: two}
            do:
              - animate: {layer: box, keyPath: position.x, from: 0, to: 100, duration: 1}
              - set: {box.cornerRadius: 4}
                delay: 0.25
        """)
        try expectChange(scene, at: 0.8) { $0.position.x > 0 }
        // The animation started by the handler runs from its stop: a quarter of the way at
        // 1.05 (within a step, 100/240 pt).
        let x = try #require(try layer(scene, "box", at: 1.05)).position.x
        #expect(abs(x - 25) <= 100 * Self.step + 1e-9)
        try expectChange(scene, at: 1.05) { $0.cornerRadius == 4 }
    }

    @Test func animationsStartedByEventsStopToo() throws {
        // `pop` starts at 0.5 from an `at:` event and runs 0.25 s: stops at 0.75; the
        // handler then starts `pop2`, which stops 0.5 s later.
        let scene = try load("""
        layers: [{id: box, bounds: [20, 20]}]
        events:
          - at: 0.5
            animate: {id: pop, layer: box, keyPath: transform.scale, from: 1, to: 2, duration: 0.25}
          - on: {animationStop: pop}
            do: [{animate: {id: pop2, layer: box, keyPath: zPosition, to: 5, duration: 0.5}}]
          - on: {animationStop: pop2}
            do: [{set: {box.opacity: 0.25}}]
        """)
        try expectChange(scene, at: 0.75) { $0.zPosition > 0 }
        try expectChange(scene, at: 1.25) { $0.opacity == 0.25 }
    }

    @Test func triggersAreChecked() {
        let layers = "layers: [{id: box, bounds: [20, 20]}]\n"
        let unknown = problems(layers + """
        animations: [{id: fade, layer: box, keyPath: opacity, to: 0}]
        events: [{on: {animationStop: fdae}, do: [{set: {box.opacity: 1}}]}]
        """)
        #expect(unknown.count == 1)
        #expect(unknown.first?.message == "unknown animation id 'fdae' (did you mean 'fade'?)")
        #expect(unknown.first?.keyPath == "events[0].on.animationStop")
        #expect(unknown.first.map { ($0.location.line, $0.location.column) } ?? (0, 0) == (5, 31))
        let forever = problems(layers + """
        animations: [{id: spin, layer: box, keyPath: transform.rotation, by: 1, repeatCount: forever}]
        events: [{on: {animationStop: spin}, do: [{set: {box.opacity: 1}}]}]
        """)
        #expect(forever.map(\.message) == ["'spin' repeats forever, so it never stops: animationStop would never fire"])
        let item = problems(layers + """
        animations: [{id: fade, layer: box, keyPath: opacity, to: 0}]
        events: [{on: {animationStop: fade, contact: began}, do: [{removeLayers: [$item]}]}]
        """)
        #expect(item.count == 2)
        #expect(item.contains {
            $0.message == "give 'animationStop' or 'contact', not both: an animationStop trigger names only the animation"
        })
        #expect(item.contains { $0.message.contains("$item names a contact's item") })
        // Ids of behavior animations and of events' `animate` actions are known.
        #expect(problems(layers + """
        dynamics: {behaviors: [{gravity: {id: g, items: [box]}}]}
        animations: [{id: tilt, behavior: g, keyPath: angle, from: 0, to: 1}]
        events:
          - {on: {animationStop: tilt}, do: [{animate: {id: later, layer: box, keyPath: opacity, to: 0}}]}
          - {on: {animationStop: later}, do: [{set: {g.magnitude: 2}}]}
        """).isEmpty)
    }
}
