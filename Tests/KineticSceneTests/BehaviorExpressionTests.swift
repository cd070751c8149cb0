import Foundation
import Testing
import KineticDynamics
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 4 inside behaviors: a property written as an expression is set at every
/// simulation step, as a UIKit `action` block would set it.
@Suite struct BehaviorExpressionTests {
    func load(_ body: String) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [400, 400], scale: 1, duration: 2, fps: 50}\n" + body, file: "t.yaml")
    }

    func problems(_ body: String) -> [String] { sceneProblems(try load(body)).map(\.message) }

    @Test func gravityMagnitudeFollowsTimeEveryStep() throws {
        // a(t) = 2000·t points/s²: y = 1000·t³/3, 72 pt at 0.6 s (a magnitude read once, at
        // 0, would leave the ball where it is) — exactly as the same ramp animated.
        func fall(_ gravity: String, _ animations: String = "") throws -> Double {
            let scene = try load("""
            layers: [{id: ball, position: [100, 50], bounds: [20, 20]}]
            dynamics: {behaviors: [{gravity: {id: g, items: [ball], \(gravity)}}]}
            \(animations)
            """)
            let simulation = Simulation(timeline: Timeline(scene: scene))
            _ = try simulation.frame(30)
            return try #require(simulation.itemStates["ball"]).center.y - 50
        }
        let y = try fall("magnitude: \"= 2 * t\"")
        #expect(abs(y - 72) < 2)
        let animated = try fall("magnitude: 0", "animations: [{behavior: g, keyPath: magnitude, from: 0, to: 4, duration: 2}]")
        #expect(abs(y - animated) < 1e-9)
    }

    @Test func aDirectionTowardsALayerKeepsItsLiteralMagnitude() throws {
        // Gravity towards the target at 1000 pt/s², the magnitude re-applied after the
        // direction each step: ½·1000·0.3² = 45 pt along the line in 0.3 s.
        let scene = try load("""
        layers:
          - {id: ball, position: [100, 100], bounds: [20, 20]}
          - {id: target, position: [400, 500], bounds: [4, 4]}
        dynamics: {behaviors: [{gravity: {items: [ball], gravityDirection: "= @target - @ball", magnitude: 1}}]}
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        _ = try simulation.frame(15)
        let c = try #require(simulation.itemStates["ball"]).center
        let moved = c - Point(100, 100)
        #expect(abs(moved.length - 45) < 1)
        // Along (300, 400) / 500.
        #expect(abs(moved.x / moved.length - 0.6) < 1e-6 && abs(moved.y / moved.length - 0.8) < 1e-6)
    }

    @Test func aDirectionsLiteralKeysAreTermsAfterItsExpression() throws {
        // Set at every step in UIKit's order whatever the file's: the vector, then the
        // angle turns it, then the magnitude scales it — each literal as written.
        let scene = try load("""
        layers: [{id: ball, bounds: [20, 20]}]
        dynamics: {behaviors: [{gravity: {items: [ball], magnitude: 3, angle: 90deg, gravityDirection: "= [0, t]"}}]}
        """)
        let terms = try #require(scene.physics).behaviorTerms
        #expect(terms.map(\.property) == ["gravityDirection", "angle", "magnitude"])
        guard terms.count == 3, case .expression = terms[0].term, case .literal(.number(let angle)) = terms[1].term,
              case .literal(.number(let magnitude)) = terms[2].term else { Issue.record("\(terms)"); return }
        #expect(abs(angle - .pi / 2) < 1e-12 && magnitude == 3)
    }

    @Test func anAnchorFollowsAnAnimatedLayer() throws {
        // An anchor that reads the finger layer every step moves the box as the same
        // keyframes animating the anchor do (BehaviorAnimationTests' scripted pan), a step
        // behind: the expression reads where the finger is now and the anchor gets there at
        // the step's end, while the animation gives where the finger is at the step's end.
        // The finger moves at most 200 pt / 0.75 s ≈ 1.1 pt a step; the rod passes that on
        // to the box: within 3 pt.
        func centers(anchor: String, animation: String) throws -> [Point] {
            let scene = try load("""
            layers:
              - {id: box, position: [100, 100], bounds: [40, 40]}
              - {id: finger, position: [100, 50], bounds: [8, 8]}
            dynamics: {behaviors: [{attachment: {id: pan, item: box, attachedToAnchor: \(anchor), length: 50}}]}
            animations:
              - {\(animation), values: [[100, 50], [300, 50], [300, 200]], duration: 1.5}
            """)
            let simulation = Simulation(timeline: Timeline(scene: scene))
            return try stride(from: 5, to: 100, by: 5).map { i in
                _ = try simulation.frame(i)
                return try #require(simulation.itemStates["box"]).center
            }
        }
        let followed = try centers(anchor: "\"@finger\"", animation: "layer: finger, keyPath: position")
        let animated = try centers(anchor: "[100, 50]", animation: "behavior: pan, keyPath: anchorPoint")
        #expect(followed.count == animated.count)
        for (f, a) in zip(followed, animated) { #expect(f.distance(to: a) < 3, "\(f) vs \(a)") }
        #expect((followed.map(\.x).max() ?? 0) > 250)
    }

    @Test func anAnchorExpressionSetsTheDefaultLength() throws {
        // No length given: the rod keeps the distance from the box to where the anchor is
        // at the start, 50 (not to a stand-in), as gravity pulls the box.
        let scene = try load("""
        layers:
          - {id: box, position: [100, 100], bounds: [20, 20]}
          - {id: finger, position: [100, 50], bounds: [8, 8]}
        dynamics:
          behaviors:
            - gravity: {items: [box]}
            - attachment: {item: box, attachedToAnchor: "@finger"}
        events:
          - at: 1
            addBehaviors: [{attachment: {id: late, item: box, attachedToAnchor: "= @finger + [0, -100]"}}]
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        _ = try simulation.frame(45)
        let center = try #require(simulation.itemStates["box"]).center
        #expect(abs(center.distance(to: Point(100, 50)) - 50) < 0.5)
        // The second rod, added at 1 s, keeps the box 50 + 100 from its own anchor.
        #expect(abs(center.distance(to: Point(100, -50)) - 150) < 0.5)
    }

    @Test func behaviorsAddedByEventsEvaluateTheirsFromThen() throws {
        // Pushed from 0.5 s with a magnitude of 10·(t − 0.5): 100 pt/s² per unit on a
        // 100×100 item, 25 times that on this 20×20 one (mass 0.04): a = 25 000·τ,
        // x = 12 500·τ³/3 = 33.3 pt at τ = 0.2 (less a step's lag of the fixed step).
        let scene = try load("""
        layers: [{id: box, position: [50, 200], bounds: [20, 20]}]
        dynamics: {behaviors: [{itemBehavior: {items: [box]}}]}
        events:
          - at: 0.5
            addBehaviors: [{push: {id: p, items: [box], pushDirection: [1, 0], magnitude: "= 10 * (t - 0.5)"}}]
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        _ = try simulation.frame(35)
        let x = try #require(simulation.itemStates["box"]).center.x
        #expect(abs(x - 50 - 12_500 * 0.2 * 0.2 * 0.2 / 3) < 2.5)
    }

    @Test func theTablesSayWhatAKeySetsAndWhereAValueComesFrom() {
        // Every key a value comes from is a key of its behavior; an anchor's spellings set
        // `anchorPoint`, a direction's angle and magnitude set themselves.
        for kind in DynamicsTable.behaviorKinds.map(\.name) {
            let table = DynamicsTable.contexts[kind] ?? []
            for entry in table { #expect(entry.writtenAs.allSatisfy { table.property($0) != nil }, "\(kind).\(entry.name)") }
        }
        let attachment = AttachmentBehavior.properties, gravity = GravityBehavior.properties
        #expect(["attachedToAnchor", "anchorPoint", "attachmentAnchor"].map { attachment.settable(writtenAs: $0)?.name }
                == Array(repeating: "anchorPoint", count: 3))
        #expect(attachment.settable(writtenAs: "offsetFromCenter") == nil)
        #expect(["gravityDirection", "angle", "magnitude"].map { gravity.settable(writtenAs: $0)?.name }
                == ["gravityDirection", "angle", "magnitude"])
    }

    @Test func aCheckedValueIsReportedAtTheLiteralItCameFrom() {
        // The vector is an expression (its default until the first step): the magnitude
        // written with it is what the check refuses.
        let p = sceneProblems(try load("""
        layers: [{id: box, bounds: [20, 20]}]
        dynamics: {behaviors: [{gravity: {items: [box], gravityDirection: "= [0, t]", magnitude: 1e8}}]}
        """))
        #expect(p.map(\.keyPath) == ["dynamics.behaviors[0].gravity.magnitude"])
        #expect(p.first?.message.hasPrefix("must be finite and within ±10000000, got 100000000") == true)
    }

    @Test func onlyPropertiesABehaviorCanChangeTakeExpressions() {
        let layers = "layers: [{id: box, bounds: [20, 20]}, {id: f, bounds: [2, 2]}]\n"
        let insets = problems(layers + """
        dynamics: {behaviors: [{collision: {items: [box], insets: "= [0, 0]"}}]}
        """)
        #expect(insets.count == 1 && insets.first?.hasPrefix("not yet supported: an expression for 'insets'") == true)
        let active = problems(layers + """
        dynamics: {behaviors: [{push: {items: [box], active: "= t"}}]}
        """)
        #expect(active.count == 1 && active.first?.contains("'active' takes true or false") == true)
        let fixed = problems(layers + """
        dynamics: {behaviors: [{attachment: {kind: fixed, item: box, attachedToAnchor: "@f"}}]}
        """)
        #expect(fixed.count == 1 && fixed.first?.contains("anchor of this kind of attachment") == true)
        let unknown = problems(layers + """
        dynamics: {behaviors: [{snap: {item: box, snapPoint: "@ff"}}]}
        """)
        #expect(unknown == ["unknown layer id 'ff' (did you mean 'f'?)"])
    }
}
