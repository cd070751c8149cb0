import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 4 on emitter, emitter-cell and replicator keys: constant expressions are
/// evaluated at load, live ones bound to the key paths the particle system reads at every
/// step, and keys without a key path say what is possible.
@Suite struct EmitterExpressionTests {
    let header = "kinetic: 1\nscene: {size: [400, 400], duration: 4, fps: 50, seed: 3}\n"

    func load(_ body: String) throws -> Scene { try SceneLoader.load(text: header + body, file: "t.yaml") }

    func problems(_ body: String) -> [SceneProblem] { loadProblems(header + body) }

    /// The particles of the emitter `id` at `time`, the simulation run frame by frame at 50 fps.
    func particles(_ scene: Scene, id: String = "e", at time: Double) throws -> ParticleSnapshot {
        var sim = ParticleSimulation(scene: scene)
        let timeline = Timeline(scene: scene)
        var frame = 0
        while Double(frame) / 50 < time {
            _ = try sim.frame(timeline.frame(at: Double(frame) / 50, index: frame))
            frame += 1
        }
        let out = try sim.frame(timeline.frame(at: time, index: frame))
        return try #require(findLayer(out.layers, id: id)?.emitter?.particles)
    }

    func emitter(_ scene: Scene, _ id: String = "e") throws -> EmitterStyle {
        try #require(findLayer(scene.layers, id: id)?.emitter)
    }

    /// Half a particle step: the emitter's values are read at each step's middle.
    let halfStep = 0.5 / ParticleSystem.stepsPerSecond

    @Test func snowSeedRangesAsExpressions() throws {
        // scenes/snow.yaml with the seed's own spelling of its angles.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scenes/snow.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: "emissionRange: 90deg", with: "emissionRange: \"= 0.5 * pi\"")
            .replacingOccurrences(of: "spinRange: 45deg", with: "spinRange: \"= 0.25 * pi\"")
        #expect(text.contains("= 0.5 * pi") && text.contains("= 0.25 * pi"))
        let expressions = try SceneLoader.load(text: text, file: "snow.yaml")
        let degrees = try SceneLoader.load(path: url.path)
        let cell = try #require(try emitter(expressions, "snow").emitterCells.first)
        #expect(abs(cell.emissionRange - .pi / 2) < 1e-15 && abs(cell.spinRange - .pi / 4) < 1e-15)
        // Constants are evaluated at load: nothing is left to run every frame.
        #expect(expressions.bindings.isEmpty)
        // The same flakes as the degrees give (60 s of pre-warm: dozens of them).
        let a = try particles(expressions, id: "snow", at: 0.5), b = try particles(degrees, id: "snow", at: 0.5)
        #expect(a.count > 40 && a.count == b.count)
        for i in 0..<min(a.count, b.count) {
            #expect(abs(a.x[i] - b.x[i]) < 1e-9 && abs(a.y[i] - b.y[i]) < 1e-9 && abs(a.angle[i] - b.angle[i]) < 1e-9)
        }
    }

    @Test func constantExpressionsOnEmitterCellAndReplicatorKeys() throws {
        let scene = try load("""
        layers:
          - {id: e, type: emitter, frame: [0, 0, 400, 400], birthRate: "= 1", emitterSize: ["= 10", 0],
             emitterPosition: "= [100, 50 * 2]", lifetime: "= 2 / 4", seed: "= 3 + 4",
             emitterCells: [{name: a, velocity: "= 5*2", emissionRange: "= 0.5 * pi", spinRange: "= 0.25 * pi",
                             birthRate: "= 20", lifetime: "= 10", duration: "= 1 + 1"}]}
          - {id: r, type: replicator, instanceDelay: "= 0.1", instanceCount: "= 2 + 1", instanceAlphaOffset: "= -1 / 4",
             instanceTransform: {rotate: "= pi / 2"}}
        """)
        let e = try emitter(scene)
        #expect(e.birthRate == 1 && e.emitterSize == Size(10, 0) && e.emitterPosition == Point(100, 100))
        #expect(e.lifetime == 0.5 && e.seed == 7)
        let cell = try #require(e.emitterCells.first)
        #expect(cell.velocity == 10 && cell.birthRate == 20 && cell.lifetime == 10 && cell.duration == 2)
        #expect(abs(cell.emissionRange - .pi / 2) < 1e-15 && abs(cell.spinRange - .pi / 4) < 1e-15)
        let r = try #require(findLayer(scene.layers, id: "r")?.replicator)
        #expect(r.instanceDelay == 0.1 && r.instanceCount == 3 && r.instanceAlphaOffset == -0.25)
        #expect(abs(r.instanceTransform.m12 - 1) < 1e-15 && abs(r.instanceTransform.m11) < 1e-15)
        #expect(scene.bindings.isEmpty)
        // The cell's 2 s window at 20/s: 40 particles, from 10 per unit of velocity.
        let p = try particles(scene, at: 3)
        #expect(p.born == [40])
    }

    @Test func constantExpressionsAreCheckedAsLiterals() {
        let p = problems("""
        layers:
          - {id: e, type: emitter, birthRate: "= -1", emitterSize: ["= 10", "= 0 - 2"], seed: "= 1 / 2",
             emitterCells: [{name: a, lifetime: "= 1 +", velocity: "= [1, 2]"}]}
        """)
        let messages = p.map { "\($0.keyPath): \($0.message)" }
        #expect(messages.contains("layers[0].birthRate: must not be negative, found -1"), "\(messages)")
        #expect(messages.contains("layers[0].emitterSize: a size must not be negative"), "\(messages)")
        #expect(messages.contains("layers[0].seed: expected a whole number, found 0.5"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("layers[0].emitterCells[0].velocity: expected a number") }, "\(messages)")
        // A syntax error points at its character (after "= 1 +": the end).
        let syntax = p.first { $0.keyPath == "layers[0].emitterCells[0].lifetime" }
        #expect(syntax?.location.line == 5 && syntax?.location.column == 47, "\(String(describing: syntax))")
        #expect(p.count == 5)
    }

    @Test func cometTrailFollowsAnAnimatedLayer() throws {
        func scene(_ emitterPosition: String, animations: String = "") throws -> Scene {
            try load("""
            layers:
              - {id: comet, position: [0, 100], bounds: [10, 10]}
              - {id: e, type: emitter, frame: [0, 0, 400, 400], emitterPosition: \(emitterPosition),
                 emitterCells: [{name: tail, birthRate: 100, lifetime: 10}]}
            animations:
              - {layer: comet, keyPath: position, from: [0, 100], to: [200, 300], duration: 2}
            \(animations)
            """)
        }
        let comet = try scene("\"@comet\"")
        #expect(comet.bindings.count == 1)
        // The emitter shows the comet's place in every frame…
        let frame = Timeline(scene: comet).frame(at: 1.5, index: 75)
        #expect(try #require(findLayer(frame.layers, id: "e")?.emitter).emitterPosition == Point(150, 250))
        // …and each particle (velocity 0) stays where the comet was at its birth's step.
        let p = try particles(comet, at: 1.5)
        #expect(p.born == [150])
        for i in 0..<p.count {
            let birth = 1.5 - p.age[i]
            #expect(abs(p.x[i] - 100 * birth) <= 100 * halfStep + 1e-9 && abs(p.y[i] - (100 + 100 * birth)) <= 100 * halfStep + 1e-9,
                    "particle \(i) at (\(p.x[i]), \(p.y[i])), born \(birth)")
        }
        // Ordered along the comet's path, one per 1/100 s.
        #expect(Set(p.x.map { $0.rounded() }).count == 150)
        // The same births as an animation of emitterPosition itself gives.
        let animated = try scene("[0, 0]", animations: "  - {layer: e, keyPath: emitterPosition, from: [0, 100], to: [200, 300], duration: 2}")
        let q = try particles(animated, at: 1.5)
        #expect(p.x == q.x && p.y == q.y)
    }

    @Test func liveExpressionsMoveBirthsAndDriveCellKeys() throws {
        let scene = try load("""
        layers:
          - {id: e, type: emitter, frame: [0, 0, 400, 400], emitterPosition: ["= 30 + 120*t", 100],
             birthRate: "= floor(min(t, 1))",
             emitterCells: [{name: a, birthRate: 50, lifetime: 10, velocity: "= 10 * t"}]}
        """)
        #expect(scene.bindings.count == 3)
        let p = try particles(scene, at: 2)
        // No births while the layer's rate is 0 (t < 1), then 50/s.
        #expect(p.born == [50])
        for i in 0..<p.count {
            let birth = 2 - p.age[i]
            #expect(birth >= 1 - 1e-9)
            // Velocity 10·t along +x (longitude 0), t read at the birth's step.
            #expect(abs(p.vx[i] - 10 * birth) <= 10 * halfStep + 1e-9 && abs(p.vy[i]) < 1e-9, "vx \(p.vx[i]) born \(birth)")
            // Born where the emitter was at that step.
            let start = p.x[i] - p.vx[i] * p.age[i]
            #expect(abs(start - (30 + 120 * birth)) <= 120 * halfStep + 1e-9 && abs(p.y[i] - 100) < 1e-9, "from \(start)")
        }
    }

    @Test func nestedNamedCellsBindThroughTheirPath() throws {
        let scene = try load("""
        layers:
          - {id: e, type: emitter, frame: [0, 0, 400, 400],
             emitterCells: [{name: rocket, birthRate: 1, lifetime: 10,
                             emitterCells: [{name: spark, birthRate: "= 0 * t + 4", lifetime: 10}]}]}
        """)
        #expect(scene.bindings.map(\.keyPath) == [LayerKeyPath.parsing("emitterCells.rocket.emitterCells.spark.birthRate")])
        #expect(scene.bindings.first?.label == "e.emitterCells.rocket.emitterCells.spark.birthRate")
        // Rockets are born at 1 s and 2 s; each emits 4 sparks a second from its birth:
        // 6 from the first by 2.5 s, 2 from the second.
        let p = try particles(scene, at: 2.5)
        #expect(p.born == [2, 8])
    }

    @Test func liveInstanceDelayDelaysCopies() throws {
        let t = Timeline(scene: try load("""
        layers:
          - {id: rep, type: replicator, frame: [0, 0, 200, 200], instanceCount: 2, instanceDelay: "= 0.25 + 0 * t",
             sublayers: [{id: dot, frame: [0, 0, 20, 20]}]}
        animations:
          - {layer: dot, keyPath: position.x, from: 0, to: 100, duration: 1}
        """))
        var copies: [String: Layer] = [:]
        t.frame(at: 0.5, index: 25).layers.forEach { root in root.forEach { copies[$0.key] = $0 } }
        #expect(abs((copies["dot"]?.position.x ?? 0) - 50) < 1e-9)
        #expect(abs((copies["dot#1"]?.position.x ?? 0) - 25) < 1e-9)
    }

    @Test func liveMultipliersScaleEachBirth() throws {
        // CAEmitterLayer's lifetime, velocity, scale and spin multiply the cell's values
        // of a particle when it is born: read at the birth's step, like birthRate.
        let scene = try load("""
        layers:
          - {id: e, type: emitter, frame: [0, 0, 400, 400], lifetime: "= 1 + t", velocity: "= 2 * t", scale: "= t",
             spin: "= -t", emitterCells: [{name: a, birthRate: 20, lifetime: 10, velocity: 10, scale: 2, spin: 3}]}
        """)
        #expect(Set(scene.bindings.map(\.keyPath)) == Set(["lifetime", "velocity", "scale", "spin"].compactMap { LayerKeyPath.named[$0] }))
        let p = try particles(scene, at: 1.5)
        #expect(p.count == 30)
        let tolerance = halfStep + 1e-9
        for i in 0..<p.count {
            let birth = 1.5 - p.age[i]
            #expect(abs(p.lifetime[i] - 10 * (1 + birth)) <= 10 * tolerance, "lifetime \(p.lifetime[i]) born \(birth)")
            #expect(abs(p.vx[i] - 10 * 2 * birth) <= 20 * tolerance, "vx \(p.vx[i]) born \(birth)")
            #expect(abs(p.scale[i] - 2 * birth) <= 2 * tolerance, "scale \(p.scale[i]) born \(birth)")
            #expect(abs(p.angle[i] - (-3 * birth) * p.age[i]) <= 3 * tolerance * p.age[i] + 1e-9, "angle \(p.angle[i])")
        }
    }

    @Test func liveReplicatorCountAndColorOffsets() throws {
        let t = Timeline(scene: try load("""
        layers:
          - {id: rep, type: replicator, frame: [0, 0, 200, 200], instanceCount: "= 1 + floor(2 * t)",
             instanceRedOffset: "= -t / 10", sublayers: [{id: dot, frame: [0, 0, 20, 20]}]}
        animations:
          - {layer: rep, keyPath: instanceAlphaOffset, from: 0, to: -0.5, duration: 1}
        """))
        for (time, count) in [(0.0, 1), (0.5, 2), (1.7, 4)] {
            let rep = try #require(findLayer(t.frame(at: time, index: Int(time * 50)).layers, id: "rep"))
            #expect(rep.sublayers.count == count, "at \(time)")
            #expect(abs((rep.replicator?.instanceRedOffset ?? 0) + time / 10) < 1e-12)
            #expect(abs((rep.replicator?.instanceAlphaOffset ?? 0) + min(time, 1) / 2) < 1e-12)
        }
        // An animated or computed count is rounded down and kept within the limit.
        #expect(ReplicatorStyle.instanceCount(2.9) == 2 && ReplicatorStyle.instanceCount(-3) == 0)
        #expect(ReplicatorStyle.instanceCount(1e300) == ReplicatorStyle.maximumInstanceCount)
        #expect(ReplicatorStyle.instanceCount(.nan) == 0)
    }

    @Test func liveValuesWithoutKeyPathsSayWhatIsPossible() {
        let p = problems("""
        layers:
          - {id: e, type: emitter, seed: "= frame", beginTime: "@e",
             emitterCells: [{birthRate: "= random()"}, {name: a, emitterCells: [{velocity: "= t"}]}]}
        """)
        #expect(p.count == 4, "\(p.map(\.message))")
        #expect(p.allSatisfy { $0.message.hasPrefix("not yet supported: a live expression for '") })
        #expect(p.allSatisfy { $0.message.hasSuffix("constant expressions (no t, frame, random() or reference) are evaluated when the scene loads") })
        let seed = p.first { $0.keyPath == "layers[0].seed" }?.message ?? ""
        #expect(seed.contains("(it changes with t or frame)") && seed.contains("the emitter's 'seed' is not animatable"))
        #expect(p.first { $0.keyPath == "layers[0].beginTime" }?.message.contains("(it reads 'e.position')") == true)
        let unnamed = p.filter { $0.message.contains("give it, and the cells it is in, a name") }.map(\.keyPath)
        #expect(unnamed == ["layers[0].emitterCells[0].birthRate", "layers[0].emitterCells[1].emitterCells[0].velocity"])
    }

    @Test func liveEmitterReferencesAreChecked() {
        let p = problems("""
        layers:
          - {id: e, type: emitter, emitterPosition: "@comet", emitterSize: ["= e.birthRate", "= 1 +"],
             emitterCells: [{name: a, velocity: "= a.position"}]}
        """)
        let messages = p.map { "\($0.keyPath): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("layers[0].emitterPosition: unknown layer id 'comet'") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("layers[0].emitterSize[1]: ") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("layers[0].emitterCells[0].velocity: unknown layer id 'a'") }, "\(messages)")
    }
}
