import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// The one frame clock: its order (physics before expressions, expressions before
/// replicators), frames of a range against single frames, and the limits `validate`
/// checks through it.
@Suite struct FrameClockTests {
    func load(_ body: String, fps: Double = 50, duration: Double = 2, limits: SceneLimits = SceneLimits()) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [300, 300], duration: \(duration), fps: \(fps)}\n" + body,
                             file: "t.yaml", limits: limits)
    }

    @Test func replicatorCopiesOfTheSameTimeShowExpressionsReadingThePhysics() throws {
        // follower = ball + (0, 30), inside a replicator without delay or placement: all
        // three copies are the same layer at the same time, so each sits 30 pt below the
        // falling ball (expressions run once, after the physics, before the copies are made).
        let scene = try load("""
        layers:
          - {id: ball, position: [150, 50], bounds: [20, 20]}
          - id: rep
            type: replicator
            frame: [0, 0, 300, 300]
            instanceCount: 3
            sublayers:
              - {id: follower, bounds: [4, 4], position: "@ball.position + [0, 30]"}
        dynamics:
          behaviors:
            - gravity: {items: [ball]}
        """)
        let frame = try FrameClock(scene: scene).frame(25)   // 0.5 s
        let ball = try #require(findLayer(frame.layers, id: "ball")).position
        // Fallen ½·1000·0.5² = 125 pt (UIKit's 1 g is 1000 pt/s²).
        #expect(abs(ball.y - 175) < 2, "\(ball)")
        var copies: [String: Layer] = [:]
        for root in frame.layers { root.forEach { copies[$0.key] = $0 } }
        for key in ["follower", "follower#1", "follower#2"] {
            let p = try #require(copies[key], "\(key) missing").position
            #expect(p == ball + Point(0, 30), "\(key): \(p) vs ball \(ball)")
        }
    }

    @Test func aRangeIsTheFramesOneByOne() throws {
        let scene = try load("""
        layers:
          - {id: ball, position: [150, 50], bounds: [20, 20]}
          - {id: shadow, position: ["@ball.position.x", 290], opacity: "= 1 - ball.position.y / 300"}
        animations:
          - {layer: shadow, keyPath: bounds.size.width, from: 10, to: 40, duration: 1}
        dynamics:
          behaviors:
            - gravity: {items: [ball]}
            - collision: {items: [ball], collisionMode: boundaries, translatesReferenceBoundsIntoBoundary: true}
        """)
        let frames = try FrameClock(scene: scene).frames(Array(0..<60))
        #expect(frames.map(\.index) == Array(0..<60))
        for i in [0, 17, 59] {
            // A fresh clock jumps straight to frame i: the physics steps at its own rate, so
            // the frame is the same.
            let single = try FrameClock(scene: scene).frame(i)
            for id in ["ball", "shadow"] {
                let a = try #require(findLayer(frames[i].layers, id: id)), b = try #require(findLayer(single.layers, id: id))
                #expect(a.position == b.position && a.opacity == b.opacity && a.bounds == b.bounds, "frame \(i) \(id)")
            }
        }
        // The shadow follows the ball, read after the physics: opacity 1 − y / 300.
        let last = frames[59]
        let ball = try #require(findLayer(last.layers, id: "ball")), shadow = try #require(findLayer(last.layers, id: "shadow"))
        #expect(shadow.position.x == ball.position.x)
        #expect(abs(shadow.opacity - (1 - ball.position.y / 300)) < 1e-12)
    }

    /// Two emitters of 300 particles a second living 1 s: 600 alive together at the end,
    /// over a limit of 500 that each alone keeps.
    static let twoEmitters = """
    kinetic: 1
    scene: {size: [40, 30], fps: 10, duration: 1.5}
    layers:
      - id: e0
        type: emitter
        emitterPosition: [20, 15]
        emitterCells:
          - {name: c, birthRate: 300, lifetime: 1, contents: {size: [1, 1], path: "M 0 0 L 1 1 L 0 1 Z"}}
      - id: e1
        type: emitter
        emitterPosition: [20, 15]
        emitterCells:
          - {name: c, birthRate: 300, lifetime: 1, contents: {size: [1, 1], path: "M 0 0 L 1 1 L 0 1 Z"}}
    """

    @Test func theParticleLimitIsOnAllEmittersAndLocatedAtTheEmitter() throws {
        let folder = NSTemporaryDirectory() + "frame-clock-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/two.yaml"
        try Self.twoEmitters.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: path)
        var limits = SceneLimits()
        limits.maxParticles = 500

        // Rendering every frame meets the limit…
        let clock = FrameClock(scene: scene, limits: limits)
        var met: FrameError?
        for i in 0..<scene.frameCount {
            do { _ = try clock.frame(i) } catch { met = error; break }
        }
        guard case .particles(let e)? = met else { Issue.record("no particle limit met: \(String(describing: met))"); return }
        #expect(e.together && e.limit == 500 && e.count > 500)
        // …and `validate`'s check reports the same, at the emitter's line in the file.
        let problem = try #require(FrameClock.runtimeFailure(in: scene, limits: limits)?.problem(in: scene))
        #expect(problem.message == e.description)
        #expect(problem.keyPath == e.place)
        let lines = Self.twoEmitters.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.hasSuffix("- id: \(e.layer)") }) + 1
        #expect(problem.location == SourceLocation(file: path, line: line, column: 5), "\(problem)")

        // Within the limit: nothing to report.
        limits.maxParticles = 700
        #expect(FrameClock.runtimeFailure(in: scene, limits: limits) == nil)
    }

    @Test func anAnimatedReplicatorCountOverTheLimitIsFoundByTheCheck() throws {
        var limits = SceneLimits()
        limits.maxMemory = 64 << 20   // 4,096 layer instances
        let scene = try load("""
        layers:
          - id: outer
            type: replicator
            instanceCount: 100
            sublayers:
              - id: inner
                type: replicator
                instanceCount: 1
                sublayers: [{bounds: [1, 1]}]
        animations:
          - {layer: inner, keyPath: instanceCount, from: 1, to: 1000, duration: 1}
        """, fps: 10, duration: 1, limits: limits)
        let problem = try #require(FrameClock.runtimeFailure(in: scene, limits: limits)?.problem(in: scene))
        #expect(problem.keyPath == "layers")
        // Placed by the load's source map: "t.yaml" is no file to read again.
        #expect(problem.location == SourceLocation(file: "t.yaml", line: 4, column: 3), "\(problem)")
        #expect(problem.message.contains("the replicators make more than 4096 layers"), "\(problem)")
        do {
            _ = try FrameClock(scene: scene, limits: limits).frames(Array(0..<scene.frameCount))
            Issue.record("the render went through")
        } catch {
            #expect(error.description == problem.message)
        }
    }

    @Test func theSourceMapPlacesEveryValueAndFallsBackToItsNearestAncestor() throws {
        let scene = try load("""
        layers:
          - id: a
            sublayers:
              - id: b
                opacity: 0.5
        """)
        let map = try #require(scene.sourceMap)
        #expect(map.location(of: "layers[0].sublayers[0].opacity") == SourceLocation(file: "t.yaml", line: 7, column: 18))
        #expect(map.location(of: "layers[0].sublayers[0]") == SourceLocation(file: "t.yaml", line: 6, column: 9))
        #expect(map.location(of: "layers[0].id") == SourceLocation(file: "t.yaml", line: 4, column: 9))
        // Not in the file: the nearest ancestor that is.
        #expect(map.location(of: "layers[0].sublayers[3].mask") == SourceLocation(file: "t.yaml", line: 6, column: 7))
        #expect(map.location(of: "nowhere.at.all") == SourceLocation(file: "t.yaml", line: 1, column: 1))
    }
}
