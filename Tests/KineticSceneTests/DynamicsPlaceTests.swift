import Foundation
import Testing
@testable import KineticDynamics
@testable import KineticScene

/// Runtime dynamics failures start at the place in the scene file of what caused them,
/// `FILE:LINE:COLUMN: KEY.PATH:`, like every load error (issue 13).
@Suite struct DynamicsPlaceTests {
    func load(_ yaml: String) throws -> Scene { try SceneLoader.load(text: yaml, file: "t.yaml") }

    /// The first frame's error from `frame` up to frame 40 (1 s at 40 fps).
    func failure(_ scene: Scene) -> SimulationError? {
        let simulation = Simulation(timeline: Timeline(scene: scene))
        do { for i in stride(from: 0, through: 40, by: 10) { _ = try simulation.frame(i, fps: 40) } } catch { return error }
        return nil
    }

    let head = """
    kinetic: 1
    scene: {size: [100, 100], duration: 1}
    layers: [{id: ball, bounds: [0, 0, 0.01, 0.01]}]
    dynamics:
      behaviors:

    """

    @Test func theLoaderRecordsEachBehaviorAndItem() throws {
        let scene = try load(head + """
            - gravity: {items: [ball]}
            - push: {id: shove, items: [ball], pushDirection: [1, 0]}
        """)
        let spec = try #require(scene.dynamics)
        #expect(spec.places.behaviors["dynamics.behaviors[0]"] == SourcePlace(location: .init(file: "t.yaml", line: 6, column: 7),
                                                                              keyPath: "dynamics.behaviors[0]"))
        #expect(spec.places.behaviors["shove"] == SourcePlace(location: .init(file: "t.yaml", line: 7, column: 7),
                                                             keyPath: "dynamics.behaviors[1]"))
        // The item's place is where its layer's id is written.
        #expect(spec.places.items["ball"] == SourcePlace(location: .init(file: "t.yaml", line: 3, column: 15), keyPath: "layers[0].id"))
        #expect(spec.places.items.count == 1 && spec.places.behaviors.count == 2)
    }

    @Test func aBlowUpStartsAtTheItemsLayer() throws {
        let scene = try load(head + """
            - push: {items: [ball], pushDirection: [1e7, 0], begin: 0.5}
        """)
        let e = try #require(failure(scene))
        guard case .blewUp(_, "ball") = e.kind else { Issue.record("\(e.kind)"); return }
        #expect(e.place?.description == "t.yaml:3:15: layers[0].id")
        #expect(e.description.hasPrefix("t.yaml:3:15: layers[0].id: simulation blew up at t = 0.50"))
        #expect(e.description.hasSuffix(" s: item 'ball' has a non-finite or runaway (> 1e12) position or velocity"))
    }

    @Test func anUnsolvableJointStartsAtItsBehavior() throws {
        let scene = try load(head + """
            - gravity: {items: [ball]}
            - attachment: {id: pin, item: ball, kind: pin, attachedToAnchor: [50, 0], offsetFromCenter: [100, 0]}
        """)
        let e = try #require(failure(scene))
        guard case .invalidScene = e.kind else { Issue.record("\(e.kind)"); return }
        #expect(e.description == "t.yaml:7:7: dynamics.behaviors[1]: "
                + "an attach point this far from so small an item cannot be solved; attach nearer the item")
    }

    @Test func aBehaviorAddedByAnEventStartsAtItsKeyInTheEvent() throws {
        let scene = try load("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: ball, bounds: [0, 0, 0.01, 0.01]}]
        events:
          - at: 0.1
            addBehaviors:
              - attachment: {item: ball, kind: pin, attachedToAnchor: [50, 0], offsetFromCenter: [100, 0]}
        """)
        let e = try #require(failure(scene))
        guard case .invalidScene = e.kind else { Issue.record("\(e.kind)"); return }
        #expect(e.description == "t.yaml:7:9: events[0].addBehaviors[0]: "
                + "an attach point this far from so small an item cannot be solved; attach nearer the item")
    }

    @Test func anItemOnlyAnEventMovesBlowsUpAtItsLayer() throws {
        // No `dynamics:` block: the item is the event's behavior's only.
        let scene = try load("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: ball, bounds: [0, 0, 0.01, 0.01]}]
        events:
          - at: 0.5
            addBehaviors: [{push: {id: shove, items: [ball], pushDirection: [1e7, 0]}}]
        """)
        let e = try #require(failure(scene))
        guard case .blewUp(_, "ball") = e.kind else { Issue.record("\(e.kind)"); return }
        #expect(e.description.hasPrefix("t.yaml:3:15: layers[0].id: simulation blew up at t = 0.50"))
    }

    /// `validate` runs the frames as render does (`FrameClock.runtimeFailure`): it meets the
    /// physics failures the render meets, with the same description, so a scene it accepts
    /// is not refused later (issue 13).
    @Test func validatesCheckMeetsThePhysicsFailuresOfTheRender() throws {
        let behaviors = [
            "- push: {items: [ball], pushDirection: [1e7, 0], begin: 0.5}",                          // a blow-up
            "- push: {id: p, items: [ball], pushDirection: [1, 0], magnitude: \"= 1e30 * t\"}",       // out of range
            "- gravity: {items: [ball]}\n    - attachment: {item: ball, kind: pin, attachedToAnchor: [50, 0], offsetFromCenter: [100, 0]}",
        ]
        for behavior in behaviors {
            let scene = try load(head + "    " + behavior + "\n")
            let met = try #require(failure(scene), "\(behavior)")
            guard case .simulation(let e)? = FrameClock.runtimeFailure(in: scene, limits: SceneLimits()) else {
                Issue.record("validate's check met nothing for \(behavior)")
                continue
            }
            #expect(e.description == met.description)
        }
        // Nothing to meet: a plain fall.
        let fall = try load(head + "    - gravity: {items: [ball]}\n")
        #expect(FrameClock.runtimeFailure(in: fall, limits: SceneLimits()) == nil)
    }

    /// The scene's size is the physics' bounds when `referenceBounds` is not given: a size
    /// past the physics' range is refused at `scene.size` when loading (the fuzzer found it
    /// refused by the animator at run time, with no place), and only when physics runs.
    @Test func aSceneSizePastThePhysicsRangeIsRefusedAtItsKeyWhenPhysicsRuns() throws {
        let huge = head.replacingOccurrences(of: "size: [100, 100]", with: "size: [2e7, 100]")
        #expect(loadProblems(huge + "    - gravity: {items: [ball]}\n").map(\.description) == [
            "t.yaml:2:15: scene.size: the physics' reference bounds (no dynamics.referenceBounds) must be finite and within ±10000000"])
        // Given bounds are the physics' own: the size is then only the canvas's.
        _ = try load(huge.replacingOccurrences(of: "dynamics:\n", with: "dynamics:\n  referenceBounds: [0, 0, 100, 100]\n")
                     + "    - gravity: {items: [ball]}\n")
        // No physics, no check.
        _ = try load("kinetic: 1\nscene: {size: [2e7, 100], duration: 1}\nlayers: [{id: ball, bounds: [0, 0, 1, 1]}]\n")
    }

    // MARK: Values expressions drive out of range (docs/dynamics.md)

    /// The kind, time and description of the failure an expression's value causes.
    func outOfRange(_ scene: Scene) throws -> (time: Double, behavior: String, property: String, text: String) {
        let e = try #require(failure(scene))
        guard case .valueOutOfRange(let time, let behavior, let property) = e.kind else {
            Issue.record("\(e.kind): \(e)")
            return (.nan, "", "", "")
        }
        return (time, behavior, property, e.description)
    }

    @Test func anExpressionDrivingAPushOutOfRangeStopsAtItsKey() throws {
        // Zero at 0 s, 4.2e27 at the first step: UIKit clamps no magnitude, and the physics
        // takes none beyond ±10⁷, so the render stops there (it used to go on, unpushed).
        let scene = try load(head + """
            - push: {id: p, items: [ball], pushDirection: [1, 0], magnitude: "= 1e30 * t"}
        """)
        let r = try outOfRange(scene)
        #expect(abs(r.time - 1.0 / 240) < 1e-12 && r.behavior == "p" && r.property == "magnitude")
        #expect(r.text.hasPrefix("t.yaml:6:70: dynamics.behaviors[0].push.magnitude: at t = 0.00416"), "\(r.text)")
        #expect(r.text.contains(" s the expression drives behavior 'p' out of range: 'magnitude' must be finite and "
                                + "within ±10000000, got 4.1666"), "\(r.text)")
    }

    @Test func aValueThatIsNotFiniteStopsAtItsKey() throws {
        // 1 / 0 at the start: an attachment's length that is no number.
        let scene = try load(head + """
            - attachment: {id: rope, item: ball, attachedToAnchor: [50, 0], length: "= 1 / (t - t)"}
        """)
        let r = try outOfRange(scene)
        #expect(r.time == 0 && r.behavior == "rope" && r.property == "length")
        #expect(r.text.hasPrefix("t.yaml:6:"), "\(r.text)")
        #expect(r.text.hasSuffix("dynamics.behaviors[0].attachment.length: at t = 0.0 s the expression drives behavior 'rope' "
                                 + "out of range: 'length' must be finite, got a value that is not"), "\(r.text)")
    }

    @Test func anEventsExpressionOutOfRangeStopsAtItsKey() throws {
        let scene = try load(head + """
            - gravity: {id: g, items: [ball]}
        events:
          - {at: 0.5, set: {g.magnitude: "= 1e8 * t"}}
        """)
        let r = try outOfRange(scene)
        #expect(abs(r.time - 0.5) < 1e-9 && r.behavior == "g" && r.property == "magnitude")
        #expect(r.text.hasPrefix("t.yaml:8:"), "\(r.text)")
        #expect(r.text.contains(": events[0].set.g.magnitude: at t = 0.5"), "\(r.text)")
        #expect(r.text.contains("got 50000000 ("), "\(r.text)")
    }

    @Test func anEventsBehaviorsExpressionStopsAtItsKey() throws {
        let scene = try load("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: ball, bounds: [0, 0, 10, 10]}]
        events:
          - at: 0.25
            addBehaviors: [{push: {id: p, items: [ball], pushDirection: [1, 0], magnitude: "= 1e8 * t"}}]
        """)
        let r = try outOfRange(scene)
        #expect(abs(r.time - 0.25) < 1e-9 && r.behavior == "p")
        #expect(r.text.hasPrefix("t.yaml:6:"), "\(r.text)")
        #expect(r.text.contains(": events[0].addBehaviors[0].push.magnitude: at t = 0.25"), "\(r.text)")
    }

    @Test func valuesInRangeAreSetAsBefore() throws {
        // The same push within range: pushed, no failure (a = magnitude · 100 / mass).
        let scene = try load(head + """
            - push: {id: p, items: [ball], pushDirection: [1, 0], magnitude: "= 1e-9 * t"}
        """)
        #expect(failure(scene) == nil)
    }

    @Test func aBehaviorAnimationsWrittenValuesAreCheckedAtLoad() throws {
        let yaml = head + """
            - gravity: {id: g, items: [ball]}
        animations: [{behavior: g, keyPath: magnitude, from: 0, to: 1e30, duration: 1}]
        """
        let error = try #require(throws: SceneLoadError.self) { try load(yaml) }
        #expect(error.description.hasPrefix("t.yaml:7:"), "\(error)")
        #expect(error.description.contains("animations[0].to: behavior 'g': 'magnitude' must be finite and within ±10000000"),
                "\(error)")
    }

    @Test func aBehaviorAnimationOvershootingTheRangeStopsAtIt() throws {
        // Both ends in range; the underdamped spring passes its end, beyond ±10⁷.
        let scene = try load(head + """
            - gravity: {id: g, items: [ball]}
        animations: [{behavior: g, keyPath: magnitude, from: 0, to: 1e7, spring: {dampingRatio: 0.2, initialVelocity: 0}, duration: 0.8}]
        """)
        let r = try outOfRange(scene)
        #expect(r.time > 0 && r.time < 0.8 && r.behavior == "g" && r.property == "magnitude")
        #expect(r.text.hasPrefix("t.yaml:7:14: animations[0]: at t = "), "\(r.text)")
        #expect(r.text.contains(" s the animation drives behavior 'g' out of range: 'magnitude' must be"), "\(r.text)")
    }
}
