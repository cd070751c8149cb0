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

    /// A rigid rod along the motion: its velocity constraint gives the item the anchor's
    /// velocity along the rod. The finger speeds up as y = x² for 0.1 s (90 pt, ending at
    /// 2 × 90 / 0.1 = 1800 pt/s), then runs 270 pt in 0.15 s at 1800 pt/s; the attachment
    /// goes at 0.2 s, mid-flight, and nothing acts after: the item keeps ≈ 1800 pt/s (UIKit:
    /// momentum after lift-off). Chipmunk moves positions before it solves velocities, so
    /// the item trails the anchor by one step's travel (v·h = 7.5 pt) and the rod's error
    /// correction makes that up with a little extra speed: within 2 % while dragged, 1.5 % at
    /// the release.
    @Test func aThrownItemKeepsTheFingersSpeed() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [800, 300], scale: 1, duration: 0.5, fps: 50}
        layers: [{id: box, position: [50, 100], bounds: [40, 40]}]
        dynamics:
          behaviors:
            - attachment: {id: pan, item: box, attachedToAnchor: [100, 100]}
        animations:
          - {behavior: pan, keyPath: anchorPoint, values: [[100, 100], [190, 100], [460, 100]], keyTimes: [0, 0.4, 1],
             timingFunctions: [[0.333333, 0, 0.666667, 0.333333], linear], duration: 0.25}
        events:
          - {at: 0.2, removeBehaviors: [pan]}
        """, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: scene))
        _ = try simulation.frame(7)   // 0.14 s: dragged at 1800 pt/s, anchor at 190 + 1800 × 0.04
        let dragged = try #require(simulation.itemStates["box"])
        #expect(abs(dragged.velocity.x - 1800) < 36 && abs(dragged.velocity.y) < 1e-6, "dragged at \(dragged.velocity.x)")
        #expect(abs(dragged.center.x - (262 - 50)) < 12)   // ≤ 7.5 pt of lag + the first step
        _ = try simulation.frame(20)  // 0.4 s: 0.2 s after the release
        let thrown = try #require(simulation.itemStates["box"])
        #expect(abs(thrown.velocity.x - 1800) < 27, "left at \(thrown.velocity.x) pt/s")
        // Still moving 0.2 s later: it went on at that speed, it was not stopped.
        #expect(abs(thrown.center.x - (dragged.center.x + thrown.velocity.x * 0.26)) < 10)
    }

    /// An eased drag (0 → 300 pt in 0.5 s, easeInEaseOut, peak ≈ 1.5 × 600 pt/s) read at
    /// every step: the item's speed never passes the finger's peak, and it changes by at
    /// most what the easing's acceleration allows per step (no jump-and-wait spikes).
    @Test func aSmoothDragHasNoVelocitySpikes() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [800, 300], scale: 1, duration: 0.6, fps: 240}
        layers: [{id: box, position: [50, 100], bounds: [40, 40]}]
        dynamics:
          behaviors:
            - attachment: {id: pan, item: box, attachedToAnchor: [100, 100]}
        animations:
          - {behavior: pan, keyPath: anchorPoint, values: [[100, 100], [400, 100]], duration: 0.5,
             timingFunction: easeInEaseOut}
        """, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: scene))
        var previous = 0.0, maxSpeed = 0.0, maxChange = 0.0
        for i in 1..<144 {
            _ = try simulation.frame(i)
            let v = try #require(simulation.itemStates["box"]).velocity.x
            maxSpeed = max(maxSpeed, abs(v))
            maxChange = max(maxChange, abs(v - previous))
            previous = v
        }
        // easeInEaseOut = cubic (0.42, 0, 0.58, 1): peak slope ≈ 1.66 → ≈ 1000 pt/s.
        #expect(maxSpeed < 1050 && maxSpeed > 900, "peak \(maxSpeed) pt/s")
        // Its acceleration stays below ~8000 pt/s² (≈ 35 pt/s a step); a 50 Hz set:
        // series would change the speed by thousands of pt/s in one step.
        #expect(maxChange < 60, "largest change in one step: \(maxChange) pt/s")
    }

    /// A spring's anchor moved by `set:` has no velocity (UIKit): one step after the anchor
    /// jumps 10 pt, the item has only the spring's impulse, (2π·1 Hz)² × 10 pt × 1/240 s
    /// ≈ 1.6 pt/s, not a damping kick of 2·ζ·ω × 10 pt / (1/240 s) ≈ 125 pt/s.
    @Test func aMovedSpringAnchorGivesNoDampingKick() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [400, 300], scale: 1, duration: 1, fps: 240}
        layers: [{id: box, position: [100, 100], bounds: [40, 40]}]
        dynamics:
          behaviors:
            - attachment: {id: spring, item: box, attachedToAnchor: [100, 50], length: 50, frequency: 1, damping: 1}
        events:
          - {at: 0.5, set: {spring.anchorPoint: [100, 40]}}
        """, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: scene))
        _ = try simulation.frame(121)
        let v = try #require(simulation.itemStates["box"]).velocity
        let omega = 2 * Double.pi, impulse = omega * omega * 10 / 240
        #expect(abs(v.x) < 1e-9 && v.y < 0 && abs(-v.y - impulse) < 0.5, "velocity \(v.y) pt/s")
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

    /// A behavior's values are checked as a `set:` of them is, each at the value written:
    /// every keyframe the snap's damping (UIKit's 0…1) cannot take; `by` is a step, not a
    /// value (its drive out of range is found when the scene runs).
    @Test func valuesOutsideTheBehaviorsRangeAreReportedWhereWritten() {
        let problems = loadProblems("""
        kinetic: 1
        scene: {size: [400, 300], duration: 1}
        layers: [{id: box, bounds: [10, 10]}]
        dynamics: {behaviors: [{snap: {id: s, item: box, snapPoint: [50, 50], damping: 0.5}}]}
        animations:
          - {behavior: s, keyPath: damping, values: [1, -3, 0.2, 4]}
          - {behavior: s, keyPath: damping, from: 0.5, to: 2}
          - {behavior: s, keyPath: damping, from: 0.5, by: 2}
        """)
        #expect(problems.map(\.keyPath) == ["animations[0].values[1]", "animations[0].values[3]", "animations[1].to"])
        #expect(problems.allSatisfy { $0.message.hasPrefix("behavior 's': 'damping' must be ≥ 0 and ≤ 1") })
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
