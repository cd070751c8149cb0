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
        #expect(spec.behaviorPlaces["dynamics.behaviors[0]"] == SourcePlace(location: .init(file: "t.yaml", line: 6, column: 7),
                                                                              keyPath: "dynamics.behaviors[0]"))
        #expect(spec.behaviorPlaces["shove"] == SourcePlace(location: .init(file: "t.yaml", line: 7, column: 7),
                                                             keyPath: "dynamics.behaviors[1]"))
        // The item's place is where its layer's id is written.
        #expect(spec.itemPlaces["ball"] == SourcePlace(location: .init(file: "t.yaml", line: 3, column: 15), keyPath: "layers[0].id"))
        #expect(spec.itemPlaces.count == 1 && spec.behaviorPlaces.count == 2)
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

    @Test func aBehaviorAddedByAnEventIsNotPlacedYet() throws {
        // Events' behaviors are not recorded (yet): the message keeps its old form.
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
        #expect(e.place == nil)
        #expect(e.description.hasPrefix("dynamics: behavior "))
    }
}
