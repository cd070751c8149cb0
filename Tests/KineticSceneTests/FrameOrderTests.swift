import Testing
import KineticLayers
@testable import KineticScene

/// `FrameOrder`: what a stage sees of the stages before it, as Core Animation shows it.
@Suite struct FrameOrderTests {
    private func opacity(_ events: String, at time: Double) throws -> Double {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], duration: 2, fps: 10}
        layers:
          - {id: a, frame: [0, 0, 10, 10], backgroundColor: red}
        events:
        \(events)
        """, file: "t.yaml")
        return try #require(findLayer(try FrameClock(scene: scene).frame(at: time, index: 0).layers, id: "a")).opacity
    }

    /// A value set and an animation started on the same key at the same time: while the
    /// animation runs it shows (a running animation's presentation value hides the model
    /// value under it); once it ends (`fillMode: removed`, CAAnimation's removedOnCompletion) the value set shows. Set
    /// values come before started animations in stage 3, whichever event is first.
    @Test func aStartedAnimationShowsOverAValueSetUnderIt() throws {
        for events in ["""
          - {at: 0.2, set: {a.opacity: 0.3}}
          - {at: 0.2, animate: {layer: a, keyPath: opacity, from: 1, to: 0, duration: 1, fillMode: removed}}
        """, """
          - {at: 0.2, animate: {layer: a, keyPath: opacity, from: 1, to: 0, duration: 1, fillMode: removed}}
          - {at: 0.2, set: {a.opacity: 0.3}}
        """] {
            // Linear (CAAnimation's default timing), half way at 0.7 s.
            #expect(abs(try opacity(events, at: 0.7) - 0.5) < 1e-9)
            #expect(abs(try opacity(events, at: 1.5) - 0.3) < 1e-9)
        }
    }
}
