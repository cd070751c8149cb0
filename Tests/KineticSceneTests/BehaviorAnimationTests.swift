import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// `behavior: ID` animations: a scripted pan moves an attachment's anchor along
/// keyframes, and the rigid rod drags the item along at its length.
@Suite struct BehaviorAnimationTests {
    @Test func animatedAnchorDragsTheItemAtTheRodsLength() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [400, 300], scale: 1, duration: 2, fps: 50}
        layers:
          - {id: box, position: [100, 100], bounds: [40, 40]}
          - {id: finger, position: [100, 50], bounds: [8, 8]}
        dynamics:
          behaviors:
            - attachment: {id: pan, item: box, attachedToAnchor: [100, 50], length: 50}
        animations:
          - {behavior: pan, keyPath: anchorPoint, values: [[100, 50], [300, 50], [300, 200]], duration: 1.5}
          - {layer: finger, keyPath: position, values: [[100, 50], [300, 50], [300, 200]], duration: 1.5}
        """, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: scene))
        var moved = 0.0
        for i in stride(from: 5, to: 100, by: 5) {
            let frame = try simulation.frame(i)
            let finger = try #require(frame.layers.first { $0.id == "finger" }).position
            let center = try #require(simulation.itemStates["box"]).center
            // The anchor moves up to ~400 pt/s, ~1.7 pt a step: the rod trails it by a step
            // or so, as a finger's anchor set once per step does.
            #expect(abs(center.distance(to: finger) - 50) < 2.5, "frame \(i)")
            moved = max(moved, center.x)
        }
        #expect(moved > 250)
    }

    @Test func unknownBehaviorsAndPropertiesAreReported() {
        func problems(_ animation: String) -> [String] {
            loadProblems("""
            kinetic: 1
            scene: {size: [400, 300], duration: 1}
            layers: [{id: box, bounds: [10, 10]}]
            dynamics: {behaviors: [{gravity: {id: g, items: [box]}}]}
            animations: [\(animation)]
            """).map(\.message)
        }
        #expect(problems("{behavior: gg, keyPath: magnitude, from: 1, to: 2}").first?.contains("unknown behavior id 'gg'") == true)
        #expect(problems("{behavior: g, keyPath: magnitud, from: 1, to: 2}").count == 1)
        #expect(problems("{behavior: g, keyPath: magnitude, to: 2}").first?.contains("needs 'from' or 'values'") == true)
        // Core Animation's name for 'from' is reported, not as a missing 'from' too.
        #expect(problems("{behavior: g, keyPath: magnitude, fromValue: 1, to: 2}")
            == ["unknown key 'fromValue' (Core Animation's fromValue is 'from' here)"])
        #expect(problems("{behavior: g, keyPath: magnitude, toValue: 2}")
            == ["a behavior animation needs 'from' or 'values': behaviors have no presentation value",
                "unknown key 'toValue' (Core Animation's toValue is 'to' here)"])
        #expect(problems("{behavior: g, keyPath: magnitude, from: 1, to: 2}").isEmpty)
    }
}

/// The lock screen's `insets: [height, 0, 0, 0]` closes the reference bounds to the
/// bottom line, as in UIKit: the full-screen view rests on it instead of being thrown out.
@Test func insetsClosingTheBoundsToALineLeaveALineBoundary() throws {
    let scene = try SceneLoader.load(text: """
    kinetic: 1
    scene: {size: [375, 667], duration: 2, fps: 25}
    layers: [{id: lock, frame: [0, 0, 375, 667]}]
    dynamics:
      behaviors:
        - gravity: {items: [lock], magnitude: 2.6}
        - collision: {items: [lock], translatesReferenceBoundsIntoBoundary: true, insets: [667, 0, 0, 0]}
    """, file: "t.yaml")
    let simulation = Simulation(timeline: Timeline(scene: scene))
    for i in [0, 10, 25, 49] {
        _ = try simulation.frame(i)
        let center = try #require(simulation.itemStates["lock"]).center
        #expect(abs(center.y - 333.5) < 1.5 && abs(center.x - 187.5) < 1e-6, "frame \(i)")
    }
}
