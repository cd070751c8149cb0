import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// The presentation values of frames against Core Animation's timing, computed
/// independently here.
@Suite struct TimelineTests {
    func timeline(_ body: String, fps: Double = 50) throws -> Timeline {
        let yaml = "kinetic: 1\nscene: {size: [200, 200], duration: 2, fps: \(fps)}\n" + body
        return Timeline(scene: try SceneLoader.load(text: yaml, file: "t.yaml"))
    }

    func layer(_ t: Timeline, _ id: String, at time: Double) -> Layer? { findLayer(t.frame(at: time, index: 0).layers, id: id) }

    @Test func basicAnimationFollowsTheTimingFunction() throws {
        let t = try timeline("""
        layers: [{id: a, position: [0, 0], bounds: [10, 10]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1, begin: 0.5, timingFunction: easeInEaseOut}
        """)
        for time in [0.6, 0.75, 1.0, 1.3] {
            let expected = 100 * timingCurveY(atX: time - 0.5, c1: (0.42, 0), c2: (0.58, 1))
            let x = try #require(layer(t, "a", at: time)).position.x
            #expect(abs(x - expected) < 1e-6, "t=\(time): \(x) vs \(expected)")
        }
        // Before begin the model value shows; after the end (fill forwards) the end value.
        #expect(layer(t, "a", at: 0.2)?.position.x == 0)
        #expect(layer(t, "a", at: 1.9)?.position.x == 100)
    }

    @Test func fillModeRemovedSnapsBack() throws {
        let t = try timeline("""
        layers: [{id: a, opacity: 1}]
        animations: [{layer: a, keyPath: opacity, to: 0, duration: 0.5, fillMode: removed}]
        """)
        #expect(abs((layer(t, "a", at: 0.25)?.opacity ?? -1) - 0.5) < 1e-9)
        #expect(layer(t, "a", at: 0.75)?.opacity == 1)
    }

    @Test func autoreverseAndRepeat() throws {
        let t = try timeline("""
        layers: [{id: a, position: [0, 0]}]
        animations: [{layer: a, keyPath: position.y, from: 0, to: 10, duration: 0.25, autoreverses: true, repeatCount: 2}]
        """)
        // A cycle is 0.5 s: up in 0.25 s, back in 0.25 s; two cycles end at 1.0 s at 0.
        #expect(abs((layer(t, "a", at: 0.125)?.position.y ?? -1) - 5) < 1e-9)
        #expect(abs((layer(t, "a", at: 0.375)?.position.y ?? -1) - 5) < 1e-9)
        #expect(abs((layer(t, "a", at: 0.6)?.position.y ?? -1) - 4) < 1e-9)
        #expect(abs(layer(t, "a", at: 1.5)?.position.y ?? -1) < 1e-9)
    }

    @Test func keyTimesMeetingAfterChainsAreOneInstant() throws {
        // The gooey menu's timing: frame 35 shows t = 35/50 = 0.7 s, where `open2`
        // begins (0.4 + 0.3 = 0.7) and the discrete key time 0.1875 × 1.6 s falls, but
        // (0.7 − 0.4) / 1.6 = 0.18749999999999994 < 0.1875 in doubles: the old rule
        // showed state 1 with the new segment's 0 (the ball popped round). At frame 50
        // (1.0 s) the same happens for key time 0.375 (0.6 / 1.6 = 0.37499999999999994).
        let t = try timeline("""
        layers: [{id: m, properties: {state: 1, x: 0}}]
        animations:
          - {layer: m, keyPath: state, begin: 0.4, duration: 1.6, calculationMode: discrete,
             values: [1, 2, 3, 3], keyTimes: [0, 0.1875, 0.375, 1]}
          - {id: open1, layer: m, keyPath: x, begin: 0.4, from: 0, to: 1, duration: 0.3}
          - {id: open2, layer: m, keyPath: x, after: open1, from: 0, to: 1, duration: 0.3}
          - {layer: m, keyPath: x, after: open2, from: 0, to: 1, duration: 1.0}
        """)
        func values(_ frame: Int) -> (state: Double, x: Double) {
            let l = findLayer(t.frame(frame).layers, id: "m")
            return (l?.properties["state"] ?? .nan, l?.properties["x"] ?? .nan)
        }
        // Frames 34 and 49 (0.68 s, 0.98 s) are 0.28 s into a 0.3 s segment.
        #expect(values(34).state == 1 && abs(values(34).x - 0.28 / 0.3) < 1e-9)
        #expect(values(35) == (2, 0))     // state 2 begins with open2's first value
        #expect(values(49).state == 2 && abs(values(49).x - 0.28 / 0.3) < 1e-9)
        #expect(values(50) == (3, 0))
    }

    @Test func afterChainsAndToOnlyStartsFromThePresentationValue() throws {
        let t = try timeline("""
        layers: [{id: star, position: [50, 100]}]
        animations:
          - {id: up, layer: star, keyPath: position.y, by: -14, duration: 0.125}
          - {id: down, layer: star, keyPath: position.y, to: 100, duration: 0.215, after: up}
        """)
        #expect(abs((layer(t, "star", at: 0.125)?.position.y ?? 0) - 86) < 1e-9)
        // Half-way through the fall: from 86 (where `up` left it) towards 100.
        let mid = 0.125 + 0.215 / 2
        #expect(abs((layer(t, "star", at: mid)?.position.y ?? 0) - 93) < 1e-9)
        #expect(abs((layer(t, "star", at: 1)?.position.y ?? 0) - 100) < 1e-9)
    }

    @Test func keyframesWithKeyTimes() throws {
        let t = try timeline("""
        layers: [{id: m, bounds: [60, 60]}]
        animations:
          - {layer: m, keyPath: bounds.size.width, values: [60, 50, 2000], keyTimes: [0, 0.5, 1], duration: 1}
        """)
        #expect(abs((layer(t, "m", at: 0.25)?.bounds.size.width ?? 0) - 55) < 1e-9)
        #expect(abs((layer(t, "m", at: 0.75)?.bounds.size.width ?? 0) - 1025) < 1e-9)
    }

    @Test func additiveAddsToTheModelValue() throws {
        let t = try timeline("""
        layers: [{id: a, position: [20, 0]}]
        animations: [{layer: a, keyPath: position.x, from: 0, to: 10, duration: 1, additive: true}]
        """)
        #expect(abs((layer(t, "a", at: 0.5)?.position.x ?? 0) - 25) < 1e-9)
    }

    @Test func groupTimesItsChildrenLocally() throws {
        let t = try timeline("""
        layers: [{id: dot, opacity: 1}]
        animations:
          - layer: dot
            duration: 1
            begin: 0.5
            repeatCount: forever
            group:
              - {keyPath: opacity, from: 1, to: 0, duration: 1}
              - {keyPath: transform.scale, from: 0, to: 1, duration: 1}
        """)
        let d = try #require(layer(t, "dot", at: 1.75))
        // 0.25 s into the second cycle.
        #expect(abs(d.opacity - 0.75) < 1e-9)
        #expect(abs(d.transform.m11 - 0.25) < 1e-9)
    }

    @Test func rotationSubKeyPathComposesAboutTheAnchor() throws {
        let t = try timeline("""
        layers: [{id: r, position: [100, 100], bounds: [40, 20]}]
        animations: [{layer: r, keyPath: transform.rotation.z, from: 0, to: 90deg, duration: 1}]
        """)
        let l = try #require(layer(t, "r", at: 1))
        // A quarter turn clockwise (y down) maps the top-left corner (0,0) of the 40×20
        // bounds, 20 left and 10 above the anchor, to 10 right and 20 above the position.
        let p = l.toSuperlayer.apply(to: Point(0, 0))
        #expect(abs(p.x - 110) < 1e-9 && abs(p.y - 80) < 1e-9)
    }

    @Test func uiViewSpringSettlesAtItsDuration() throws {
        let t = try timeline("""
        layers: [{id: b, bounds: [60, 60]}]
        animations:
          - {layer: b, keyPath: bounds.size.width, to: 240, duration: 0.6, spring: {dampingRatio: 0.6, initialVelocity: 0}}
        """)
        let w = try #require(layer(t, "b", at: 0.6)).bounds.size.width
        #expect(abs(w - 240) < 0.2)
        // Damping 0.6 overshoots on the way.
        let peak = stride(from: 0.0, through: 0.6, by: 0.01).compactMap { layer(t, "b", at: $0)?.bounds.size.width }.max() ?? 0
        #expect(peak > 245)
    }

    @Test func motionAlongAPathPacedAndPerSegment() throws {
        let t = try timeline("""
        layers: [{id: dot, position: [0, 0]}, {id: dot2, position: [0, 0]}]
        animations:
          - {layer: dot, path: "M 0 0 L 100 0 L 100 300", calculationMode: paced, duration: 1, rotationMode: auto}
          - {layer: dot2, path: "M 0 0 L 100 0 L 100 300", duration: 1}
        """)
        // Paced: 400 pt at constant speed; half-way is 200 pt along, 100 down the second leg.
        let d = try #require(layer(t, "dot", at: 0.5))
        #expect(abs(d.position.x - 100) < 1e-6 && abs(d.position.y - 100) < 1e-6)
        #expect(abs(d.transform.components.rotationZ - .pi / 2) < 1e-9)
        for time in stride(from: 0.05, through: 0.95, by: 0.1) {
            let a = try #require(layer(t, "dot", at: time)).position
            let b = try #require(layer(t, "dot", at: time + 0.01)).position
            // 4 pt per 0.01 s everywhere (constant speed within 1%).
            #expect(abs(a.distance(to: b) - 4) < 0.04 || abs(a.x - 100) < 4.1)
        }
        // Linear: each of the two segments takes half the time.
        let e = try #require(layer(t, "dot2", at: 0.5))
        #expect(abs(e.position.x - 100) < 1e-6 && abs(e.position.y) < 1e-6)
        let f = try #require(layer(t, "dot2", at: 0.75))
        #expect(abs(f.position.y - 150) < 1e-6)
    }

    @Test func groupChildrenWithoutDurationRunForTheGroupsDuration() throws {
        let t = try timeline("""
        layers: [{id: dot, opacity: 1}]
        animations:
          - {layer: dot, duration: 2, group: [{keyPath: opacity, from: 1, to: 0}]}
        """)
        // Half-way through the 2-s group, not long after a 0.25-s child would have ended.
        #expect(abs((layer(t, "dot", at: 1)?.opacity ?? 0) - 0.5) < 1e-9)
    }
}

/// CAMediaTiming in full: `speed`, `timeOffset`, `repeatDuration` on animations and
/// `begin`, `speed`, `timeOffset` on layers, against Apple's definitions computed by hand:
/// local time = (parent time − beginTime) × speed + timeOffset, composed down the tree.
@Suite struct MediaTimingTests {
    func x(_ body: String, _ id: String = "a", at time: Double) throws -> Double {
        let yaml = "kinetic: 1\nscene: {size: [200, 200], duration: 4, fps: 50}\n" + body
        let scene = try SceneLoader.load(text: yaml, file: "t.yaml")
        return try #require(findLayer(Timeline(scene: scene).frame(at: time, index: 0).layers, id: id)).position.x
    }

    @Test func animationSpeedTimeOffsetAndRepeatDuration() throws {
        // speed 2, begin 0.5: local = (t − 0.5)·2, so t = 0.75 is 0.5 s into a 1 s ramp.
        let fast = "layers: [{id: a}]\nanimations: [{layer: a, keyPath: position.x, from: 0, to: 100, duration: 1, begin: 0.5, speed: 2}]\n"
        #expect(abs(try x(fast, at: 0.75) - 50) < 1e-9)
        #expect(abs(try x(fast, at: 1.0) - 100) < 1e-9)     // ends at 0.5 + 1/2
        // timeOffset 0.25 starts a quarter in and wraps round the active duration.
        let offset = "layers: [{id: a}]\nanimations: [{layer: a, keyPath: position.x, from: 0, to: 100, duration: 1, timeOffset: 0.25, fillMode: removed}]\n"
        #expect(abs(try x(offset, at: 0) - 25) < 1e-9)
        #expect(abs(try x(offset, at: 0.8) - 5) < 1e-9)      // 1.05 wraps to 0.05
        // repeatDuration 2.5 of a 1 s cycle: 2½ cycles, held at the half (fill forwards).
        let repeated = "layers: [{id: a}]\nanimations: [{layer: a, keyPath: position.x, from: 0, to: 100, duration: 1, repeatDuration: 2.5}]\n"
        #expect(abs(try x(repeated, at: 2.25) - 25) < 1e-9)
        #expect(abs(try x(repeated, at: 3.5) - 50) < 1e-9)
    }

    @Test func layerTimeIsComposedDownTheTree() throws {
        // Parent: begin 1, speed 2, timeOffset 0.5 → local (t − 1)·2 + 0.5.
        // Child: speed 0.5 → its local is half its parent's: (t − 1) + 0.25.
        let body = """
        layers:
          - id: p
            begin: 1
            speed: 2
            timeOffset: 0.5
            sublayers: [{id: a}, {id: c, speed: 0.5}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 2}
          - {layer: c, keyPath: position.x, from: 0, to: 100, duration: 2}
        """
        // t = 1.25: parent local (0.25·2 + 0.5) = 1 → a at 50; c local 0.5 → 25.
        #expect(abs(try x(body, "a", at: 1.25) - 50) < 1e-9)
        #expect(abs(try x(body, "c", at: 1.25) - 25) < 1e-9)
        // t = 0.5: parent local −0.5, before its animations begin: the model value.
        #expect(try x(body, "a", at: 0.5) == 0)
        #expect(abs(try x(body, "c", at: 2.25) - 75) < 1e-9)  // c local 1.25 + 0.25 = 1.5
    }

    @Test func speedZeroPausesTheSubtree() throws {
        let body = """
        layers:
          - {id: p, speed: 0, timeOffset: 0.3, sublayers: [{id: a}]}
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1}
        """
        for t in [0.0, 1.0, 3.9] { #expect(abs(try x(body, at: t) - 30) < 1e-9, "t=\(t)") }
    }

    @Test func afterChainsCrossLayerClocks() throws {
        // `first` runs on a layer of speed 2: its 1 s ends at scene 0.5; `second` (a
        // layer of scene time) starts there.
        let body = """
        layers: [{id: fast, speed: 2}, {id: a}]
        animations:
          - {id: first, layer: fast, keyPath: opacity, to: 0, duration: 1}
          - {layer: a, keyPath: position.x, after: first, from: 0, to: 100, duration: 1}
        """
        #expect(abs(try x(body, at: 0.75) - 25) < 1e-9)
    }

    @Test func expressionValuesAreTakenWhenTheAnimationBeginsInSceneTime() throws {
        // The layer begins at 1 s, the animation 0.5 s into the layer's time: it begins at
        // scene 1.5 s, where `to` = 100·t = 150; at scene 2 s it is half-way, 75.
        let body = """
        layers: [{id: p, begin: 1, sublayers: [{id: a}]}]
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: "= 100 * t", duration: 1, begin: 0.5}
        """
        #expect(abs(try x(body, at: 2) - 75) < 1e-6)
    }

    @Test func badTimingIsReported() {
        let header = "kinetic: 1\nscene: {size: [10, 10], duration: 1}\nlayers: [{id: a, speed: -1}]\n"
        let p = loadProblems(header + """
        animations:
          - {layer: a, keyPath: opacity, to: 0, repeatCount: .inf}
          - {layer: a, keyPath: opacity, to: 0, repeatCount: inf}
          - {layer: a, keyPath: opacity, to: 0, repeatCount: 2, repeatDuration: 1}
          - {layer: a, keyPath: opacity, to: 0, speed: -2}
        """)
        #expect(p.filter { $0.message.contains("did you mean 'forever'?") }.count == 2)
        #expect(p.contains { $0.keyPath.hasSuffix("repeatDuration") && $0.message.contains("not both") })
        // The layer's speed is read by its table entry's range, the animation's by its decoder.
        #expect(p.contains { $0.keyPath == "layers[0].speed" && $0.message == "must not be negative, found -1" })
        #expect(p.filter { $0.message.contains("negative speed") }.count == 1)
    }
}
