import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// `keyTimes` and `timingFunctions` with a keyframe `path` (CAKeyframeAnimation): key
/// times fall on the path's vertices, timing functions ease each segment; `paced`
/// ignores both.
@Suite struct MotionPathKeyTimesTests {
    func timeline(_ animations: String) throws -> Timeline {
        let yaml = """
        kinetic: 1
        scene: {size: [200, 100], duration: 1, fps: 10}
        layers:
          - {id: kt, position: [20, 20], bounds: [10, 10], backgroundColor: green}
        animations:

        """ + animations
        return Timeline(scene: try SceneLoader.load(text: yaml, file: "t.yaml"))
    }

    func layer(_ t: Timeline, _ id: String, at time: Double) -> Layer? { findLayer(t.frame(at: time, index: 0).layers, id: id) }

    func position(_ t: Timeline, at time: Double) throws -> Point {
        try #require(layer(t, "kt", at: time)).position
    }

    func problems(_ yaml: String) -> [String] { loadProblems(yaml).map(\.description) }

    /// The user's scene (33-path-modes.yaml) with key times: the 100-pt leg takes 0.8 s,
    /// the 10-pt leg 0.2 s.
    @Test func keyTimesPlaceTheVerticesInTime() throws {
        let t = try timeline("""
          - {layer: kt, keyPath: position, path: {polyline: [[20, 20], [120, 20], [120, 30]]}, duration: 1, keyTimes: [0, 0.8, 1], rotationMode: auto}
        """)
        var p = try position(t, at: 0.4)
        #expect(abs(p.x - 70) < 1e-9 && abs(p.y - 20) < 1e-9)
        p = try position(t, at: 0.8)
        #expect(abs(p.x - 120) < 1e-9 && abs(p.y - 20) < 1e-9)
        p = try position(t, at: 0.9)
        #expect(abs(p.x - 120) < 1e-9 && abs(p.y - 25) < 1e-9)
        // rotationMode follows the segment being travelled: down on the second leg.
        let turned = try #require(layer(t, "kt", at: 0.9)).transform.components.rotationZ
        #expect(abs(turned - .pi / 2) < 1e-9)
        // Without key times both legs would take 0.5 s: at 0.4 s it would be at x = 100.
        let even = try timeline("""
          - {layer: kt, path: {polyline: [[20, 20], [120, 20], [120, 30]]}, duration: 1}
        """)
        #expect(abs(try position(even, at: 0.4).x - 100) < 1e-9)
    }

    @Test func timingFunctionsEaseEachSegment() throws {
        let t = try timeline("""
          - {layer: kt, path: "M 20 20 L 120 20 L 120 60", duration: 1, keyTimes: [0, 0.5, 1], timingFunctions: [easeOut, easeIn]}
        """)
        let out = timingCurveY(atX: 0.5, c1: (0, 0), c2: (0.58, 1))     // easeOut
        let into = timingCurveY(atX: 0.5, c1: (0.42, 0), c2: (1, 1))    // easeIn
        var p = try position(t, at: 0.25)
        #expect(abs(p.x - (20 + 100 * out)) < 1e-4 && abs(p.y - 20) < 1e-9)
        #expect(out > 0.6)                                    // ahead of linear's 50 pt
        p = try position(t, at: 0.5)
        #expect(abs(p.x - 120) < 1e-9 && abs(p.y - 20) < 1e-9)
        p = try position(t, at: 0.75)
        #expect(abs(p.x - 120) < 1e-9 && abs(p.y - (20 + 40 * into)) < 1e-4)
        #expect(into < 0.4)                                   // behind linear's 20 pt
        p = try position(t, at: 1)
        #expect(abs(p.x - 120) < 1e-9 && abs(p.y - 60) < 1e-9)
    }

    /// The animation's own `timingFunction` eases the cycle's time first; the key times
    /// then divide the eased time, as for `values`.
    @Test func theAnimationsTimingFunctionComesFirst() throws {
        let t = try timeline("""
          - {layer: kt, path: "M 0 0 L 100 0 L 100 100", duration: 1, keyTimes: [0, 0.25, 1], timingFunction: easeIn}
        """)
        let u = timingCurveY(atX: 0.5, c1: (0.42, 0), c2: (1, 1))   // ≈ 0.315: on the second leg
        let p = try position(t, at: 0.5)
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y - 100 * (u - 0.25) / 0.75) < 1e-4)
    }

    @Test func discreteJumpsFromVertexToVertex() throws {
        let t = try timeline("""
          - {layer: kt, path: "M 20 20 L 120 20 L 120 60", duration: 1, calculationMode: discrete, keyTimes: [0, 0.2, 0.9]}
        """)
        var p = try position(t, at: 0.1)
        #expect(p.x == 20 && p.y == 20)
        p = try position(t, at: 0.5)
        #expect(p.x == 120 && p.y == 20)
        p = try position(t, at: 0.95)
        #expect(p.x == 120 && p.y == 60)
    }

    @Test func pacedIgnoresKeyTimesAndTimingFunctions() throws {
        let t = try timeline("""
          - {layer: kt, path: "M 0 0 L 100 0 L 100 100", duration: 1, calculationMode: paced, keyTimes: [0, 0.9, 1], timingFunctions: [easeIn, easeIn]}
        """)
        // 200 pt at constant speed: 0.25 s is 50 pt along the first leg.
        let p = try position(t, at: 0.25)
        #expect(abs(p.x - 50) < 1e-9 && abs(p.y) < 1e-9)
    }

    @Test func keyTimesAreCheckedAgainstTheVertices() {
        let head = """
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: a}]
        animations:

        """
        var p = problems(head + """
          - {layer: a, path: "M 0 0 L 10 0 L 10 10", keyTimes: [0, 1], duration: 1}
        """)
        #expect(p == ["t.yaml:5:56: animations[0].keyTimes: expected 3 key times (one per vertex: the path's start and each of its 2 segments' ends), found 2"])
        p = problems(head + """
          - {layer: a, path: "M 0 0 L 10 0 L 10 10", timingFunctions: [easeIn], duration: 1}
        """)
        #expect(p == ["t.yaml:5:63: animations[0].timingFunctions: expected 2 timing functions (one per segment of the path), found 1"])
        p = problems(head + """
          - {layer: a, path: "M 0 0 L 10 0 L 10 10", keyTimes: [0, 0.7, 0.5], duration: 1}
        """)
        #expect(p == ["t.yaml:5:56: animations[0].keyTimes: keyTimes[2] is smaller than the one before"])
        p = problems(head + """
          - {layer: a, path: "M 0 0 L 10 0 L 10 10", keyTimes: [0, 0.5, 0.9], duration: 1}
        """)
        #expect(p == ["t.yaml:5:56: animations[0].keyTimes: key times must end at 1, found 0.9"])
        // A timing function that is not one is reported as with `values`.
        p = problems(head + """
          - {layer: a, path: "M 0 0 L 10 0 L 10 10", timingFunctions: [easeIn, slow], duration: 1}
        """)
        #expect(p.count == 1 && p[0].hasPrefix("t.yaml:5:72: animations[0].timingFunctions[1]: 'slow' is not a timing function"))
        // Discrete counts one key time per vertex, or one more.
        p = problems(head + """
          - {layer: a, path: "M 0 0 L 10 0 L 10 10", calculationMode: discrete, keyTimes: [0, 1], duration: 1}
        """)
        #expect(p == ["t.yaml:5:83: animations[0].keyTimes: expected 4 key times (one per vertex — the path's start and each of its 2 segments' ends — and the end of the last, or 3 without it), found 2"])
        // Cubic has no meaning along a path here.
        p = problems(head + """
          - {layer: a, path: "M 0 0 L 10 0 L 10 10", calculationMode: cubic, duration: 1}
        """)
        #expect(p == ["t.yaml:5:63: animations[0].calculationMode: along a path, calculationMode is linear, discrete or paced"])
        // keyTimes still need values or a path.
        p = problems(head + """
          - {layer: a, keyPath: opacity, to: 0, keyTimes: [0, 1]}
        """)
        #expect(p == ["t.yaml:5:51: animations[0].keyTimes: 'keyTimes' needs 'values' or a keyframe 'path'"])
    }
}
