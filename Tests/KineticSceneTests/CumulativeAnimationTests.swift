import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// `cumulative: true` (CAPropertyAnimation.cumulative): each repeat cycle starts where the
/// previous one ended, so cycle k shows its own value plus k × (end − start).
@Suite struct CumulativeAnimationTests {
    func timeline(_ body: String) throws -> Timeline {
        let yaml = "kinetic: 1\nscene: {size: [200, 200], duration: 4, fps: 50}\n" + body
        return Timeline(scene: try SceneLoader.load(text: yaml, file: "t.yaml"))
    }

    func layer(_ t: Timeline, _ id: String, at time: Double) -> Layer? { findLayer(t.frame(at: time, index: 0).layers, id: id) }

    @Test func aBasicAnimationStepsOnEachRepeat() throws {
        // A ring that steps: half a radian per 0.5 s cycle, three cycles.
        let t = try timeline("""
        layers: [{id: a, type: shape, path: {oval: [0, 0, 10, 10]}}]
        animations:
          - {layer: a, keyPath: transform.rotation.z, from: 1, to: 1.5, duration: 0.5, repeatCount: 3, cumulative: true}
        """)
        func angle(at time: Double) -> Double? {
            guard case .number(let v)? = layer(t, "a", at: time)?.value(at: .transformRotationZ) else { return nil }
            return v
        }
        // Hand computation: cycle k (0, 1, 2) at fraction u shows 1 + 0.5·u + k·0.5.
        for (time, expected) in [(0.25, 1.25), (0.5, 1.5), (0.75, 1.75), (1.25, 2.25), (1.4, 2.4)] {
            let a = try #require(angle(at: time))
            #expect(abs(a - expected) < 1e-9, "t=\(time): \(a) vs \(expected)")
        }
        // After the third cycle (fill forwards) it holds the third cycle's end: 1 + 3·0.5.
        #expect(abs(try #require(angle(at: 2)) - 2.5) < 1e-9)
    }

    @Test func keyframesAccumulateTheirEndMinusStart() throws {
        let t = try timeline("""
        layers: [{id: a, position: [0, 0]}]
        animations:
          - {layer: a, keyPath: position, values: [[0, 0], [10, 20], [30, 5]], duration: 1, repeatCount: 2.5, cumulative: true}
        """)
        // Cycle 1 adds (30, 5); at 1.25 s the first half of segment 0 again: (5, 10) + (30, 5).
        let p = try #require(layer(t, "a", at: 1.25)).position
        #expect(abs(p.x - 35) < 1e-9 && abs(p.y - 15) < 1e-9)
        // At 2.25 s, cycle 2 adds 2 × (30, 5).
        let q = try #require(layer(t, "a", at: 2.25)).position
        #expect(abs(q.x - 65) < 1e-9 && abs(q.y - 20) < 1e-9)
    }

    @Test func withoutCumulativeEachRepeatStartsOver() throws {
        let t = try timeline("""
        layers: [{id: a, opacity: 0}]
        animations: [{layer: a, keyPath: position.x, from: 0, to: 10, duration: 1, repeatCount: 2}]
        """)
        #expect(abs(try #require(layer(t, "a", at: 1.5)).position.x - 5) < 1e-9)
    }

    @Test func valuesWithoutASumAreRefused() throws {
        let yaml = """
        kinetic: 1
        scene: {size: [200, 200], duration: 4}
        layers: [{id: a, type: shape, path: {oval: [0, 0, 10, 10]}}]
        animations: [{layer: a, keyPath: path, to: {oval: [0, 0, 20, 20]}, cumulative: true}]
        """
        #expect(throws: SceneLoadError.self) { try SceneLoader.load(text: yaml, file: "t.yaml") }
    }
}
