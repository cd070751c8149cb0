import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Emitters against CAEmitterLayer's documented semantics, checked with hand computations:
/// birth counts from the rates, closed-form motion, the ranges' extremes.
@Suite struct ParticleSystemTests {
    /// A scene with one emitter layer `e` whose body is `emitter` (YAML flow-mapping keys).
    func scene(_ emitter: String, seed: Int = 1, duration: Double = 10, animations: String = "") throws -> Scene {
        let yaml = """
        kinetic: 1
        scene: {size: [400, 400], duration: \(duration), fps: 50, seed: \(seed)}
        layers:
          - {id: e, type: emitter, frame: [0, 0, 400, 400], \(emitter)}
        \(animations)
        """
        return try SceneLoader.load(text: yaml, file: "t.yaml")
    }

    /// The emitter's particles at `time` (the simulation run frame by frame at 50 fps up
    /// to it, as the render loop runs it).
    func particles(_ scene: Scene, at time: Double, stepByFrames: Bool = true) throws -> ParticleSnapshot {
        var sim = ParticleSimulation(scene: scene)
        let timeline = Timeline(scene: scene)
        if stepByFrames {
            var t = 0.0
            while t < time { _ = try sim.frame(timeline.frame(at: t, index: 0)); t += 0.02 }
        }
        let frame = try sim.frame(timeline.frame(at: time, index: 0))
        return try #require(frame.layers.first?.emitter?.particles)
    }

    @Test func birthsFollowTheRateWithinOneParticle() throws {
        let s = try scene("""
        birthRate: 2, emitterCells: [{name: a, birthRate: 37.5, lifetime: 1000}, {name: b, birthRate: 3.3, lifetime: 1000}]
        """)
        for time in [0.5, 1.3, 2.0, 3.77] {
            let p = try particles(s, at: time)
            // The layer's birthRate multiplies each cell's.
            #expect(abs(Double(p.born[0]) - 75 * time) <= 1, "a at \(time): \(p.born[0])")
            #expect(abs(Double(p.born[1]) - 6.6 * time) <= 1, "b at \(time): \(p.born[1])")
            #expect(p.alive == p.born)
        }
    }

    @Test func emittersRunOnTheirLayersClock() throws {
        // speed 0.5 from the layer: at scene 2 s the emitter's clock reads 1 s, 37.5 born;
        // speed 0 with timeOffset 0.4: the clock stands at 0.4 s, 15 born, for good.
        let half = try scene("speed: 0.5, emitterCells: [{name: a, birthRate: 37.5, lifetime: 1000}]")
        #expect(abs(Double(try particles(half, at: 2).born[0]) - 37.5) <= 1)
        let paused = try scene("speed: 0, timeOffset: 0.4, emitterCells: [{name: a, birthRate: 37.5, lifetime: 1000}]")
        for time in [0.5, 1.5] { #expect(abs(Double(try particles(paused, at: time).born[0]) - 15) <= 1, "at \(time)") }
    }

    @Test func birthsAreSpreadEvenlyWithinSteps() throws {
        // 1000/s is about 4 births a 1/240 s step: their times must be 1 ms apart, not clumped.
        let p = try particles(try scene("emitterCells: [{name: a, birthRate: 1000, lifetime: 100}]"), at: 0.5)
        let ages = p.age.sorted()
        for (a, b) in zip(ages, ages.dropFirst()) { #expect(abs((b - a) - 0.001) < 1e-9) }
    }

    @Test func steadyStateHoldsRateTimesLifetime() throws {
        let s = try scene("emitterCells: [{name: a, birthRate: 50, lifetime: 0.8}]")
        for time in [2.0, 3.33, 5.0] {
            let p = try particles(s, at: time)
            #expect(abs(Double(p.alive[0]) - 40) <= 1, "\(p.alive[0]) alive at \(time)")
            // Particles live exactly their lifetime.
            #expect(p.age.allSatisfy { $0 >= 0 && $0 < 0.8 })
        }
    }

    @Test func velocityAndDirectionCoverTheirRanges() throws {
        let s = try scene("""
        emitterPosition: [100, 200], emitterCells: [{name: a, birthRate: 10000, lifetime: 10, velocity: 100, velocityRange: 20,
                                                     emissionLongitude: 30deg, emissionRange: 60deg}]
        """)
        let p = try particles(s, at: 1.0, stepByFrames: false)
        #expect(p.count >= 10000)
        var speeds: [Double] = [], angles: [Double] = []
        for i in 0..<p.count {
            speeds.append((p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i]).squareRoot())
            angles.append(atan2(p.vy[i], p.vx[i]) * 180 / .pi)
            // No acceleration: the particle is where its velocity took it from the emitter.
            #expect(abs(p.x[i] - (100 + p.vx[i] * p.age[i])) < 1e-9 && abs(p.y[i] - (200 + p.vy[i] * p.age[i])) < 1e-9)
        }
        let meanSpeed = speeds.reduce(0, +) / Double(speeds.count)
        let meanAngle = angles.reduce(0, +) / Double(angles.count)
        // Uniform on 80…120 (σ ≈ 11.5; the mean of 10,000 is within ±0.5) and 0°…60°.
        #expect(abs(meanSpeed - 100) < 0.5)
        #expect((speeds.min() ?? 0) >= 80 && (speeds.min() ?? 0) < 80.5)
        #expect((speeds.max() ?? 0) <= 120 && (speeds.max() ?? 0) > 119.5)
        #expect(abs(meanAngle - 30) < 0.5)
        #expect((angles.min() ?? -1) >= 0 && (angles.min() ?? 1) < 0.1)
        #expect((angles.max() ?? 61) <= 60 && (angles.max() ?? 0) > 59.9)
    }

    @Test func accelerationIsConstant() throws {
        let p = try particles(try scene("emitterCells: [{name: a, birthRate: 3, lifetime: 10, xAcceleration: -4, yAcceleration: 10}]"), at: 2.5)
        #expect(p.count == 7)
        for i in 0..<p.count {
            let a = p.age[i]
            #expect(abs(p.x[i] - (-2 * a * a)) < 1e-9 && abs(p.y[i] - 5 * a * a) < 1e-9)
            #expect(abs(p.vy[i] - 10 * a) < 1e-9)
        }
    }

    @Test func alphaSpeedMinusOneFadesFromOneToZeroInOneSecond() throws {
        let s = try scene("emitterCells: [{name: a, birthRate: 20, lifetime: 5, alphaSpeed: -1, color: white}]")
        let p = try particles(s, at: 3)
        #expect(p.count > 50)
        for i in 0..<p.count {
            let expected = max(0, 1 - p.age[i])
            #expect(abs(Double(p.alpha[i]) - expected) < 1e-6, "age \(p.age[i]): alpha \(p.alpha[i])")
            if p.age[i] >= 1 { #expect(p.alpha[i] == 0) }
        }
    }

    @Test func scaleSpinAndColourRangesAndSpeeds() throws {
        let s = try scene("""
        scale: 2, spin: 1, emitterCells: [{name: a, birthRate: 2000, lifetime: 10, scale: 0.5, scaleRange: 0.1, scaleSpeed: 0.2,
                                        spin: 1, spinRange: 0.5, color: "rgba(128, 128, 128, 0.5)", redRange: 0.1, redSpeed: 0.1}]
        """)
        let p = try particles(s, at: 1, stepByFrames: false)
        var scales: [Double] = [], spins: [Double] = [], reds: [Double] = []
        for i in 0..<p.count where p.age[i] > 0.1 {
            let a = p.age[i]
            // The layer's scale multiplier applies to the cell's scale and its speed.
            scales.append(p.scale[i] / 2 - 0.2 * a)
            spins.append(p.angle[i] / a)
            reds.append(Double(p.red[i]) - 0.1 * a)
        }
        #expect(abs((scales.min() ?? 0) - 0.4) < 0.002 && abs((scales.max() ?? 0) - 0.6) < 0.002)
        #expect(abs((spins.min() ?? 0) - 0.5) < 0.002 && abs((spins.max() ?? 0) - 1.5) < 0.002)
        #expect(abs((reds.min() ?? 0) - (128.0 / 255 - 0.1)) < 0.002 && abs((reds.max() ?? 0) - (128.0 / 255 + 0.1)) < 0.002)
    }

    @Test func circleOutlineEmitsOutwardFromItsRim() throws {
        let s = try scene("""
        emitterShape: circle, emitterMode: outline, emitterPosition: [200, 200], emitterSize: [25, 0],
        emitterCells: [{name: a, birthRate: 500, lifetime: 10, velocity: 40}]
        """)
        let p = try particles(s, at: 1)
        for i in 0..<p.count {
            let bx = p.x[i] - p.vx[i] * p.age[i] - 200, by = p.y[i] - p.vy[i] * p.age[i] - 200
            #expect(abs((bx * bx + by * by).squareRoot() - 25) < 1e-9)
            // The velocity points away from the centre: parallel to the birth offset.
            #expect(abs(bx * p.vy[i] - by * p.vx[i]) < 1e-6 && bx * p.vx[i] + by * p.vy[i] > 0)
        }
    }

    @Test func shapesAndModesPlaceBirthsOnThem() throws {
        func births(_ shape: String, _ mode: String) throws -> [(Double, Double)] {
            let p = try particles(try scene("""
            emitterShape: \(shape), emitterMode: \(mode), emitterPosition: [200, 100], emitterSize: [80, 40],
            emitterCells: [{name: a, birthRate: 400, lifetime: 10}]
            """), at: 1, stepByFrames: false)
            return (0..<p.count).map { (p.x[$0] - 200, p.y[$0] - 100) }
        }
        for (x, y) in try births("line", "volume") { #expect(abs(x) <= 40 && y == 0) }
        for (x, y) in try births("line", "points") { #expect(abs(x) == 40 && y == 0) }
        for (x, y) in try births("rectangle", "outline") { #expect((abs(x) == 40 && abs(y) <= 20) || (abs(y) == 20 && abs(x) <= 40)) }
        for (x, y) in try births("rectangle", "surface") { #expect(abs(x) <= 40 && abs(y) <= 20) }
        let disk = try births("circle", "surface")
        #expect(disk.allSatisfy { $0.0 * $0.0 + $0.1 * $0.1 <= 80 * 80 + 1e-9 })
        #expect(disk.contains { $0.0 * $0.0 + $0.1 * $0.1 < 40 * 40 })
        for (x, y) in try births("point", "outline") { #expect(x == 0 && y == 0) }
    }

    @Test func sameSeedSameParticlesOtherSeedOthers() throws {
        let body = "emitterShape: rectangle, emitterSize: [100, 100], emitterCells: [{name: a, birthRate: 100, lifetime: 3, velocity: 20, velocityRange: 10, emissionRange: 6.28}]"
        let a = try particles(try scene(body, seed: 3), at: 2)
        let b = try particles(try scene(body, seed: 3), at: 2)
        let c = try particles(try scene(body, seed: 4), at: 2)
        #expect(a.x == b.x && a.y == b.y && a.vx == b.vx && a.age == b.age)
        #expect(a.count == c.count)
        #expect(a.x != c.x)
        // The frames asked do not change the particles: one jump equals frame by frame.
        let jump = try particles(try scene(body, seed: 3), at: 2, stepByFrames: false)
        #expect(jump.x == a.x && jump.vy == a.vy)
    }

    @Test func animatedCellBirthRateMakesABurst() throws {
        let s = try scene("emitterCells: [{name: explosion, birthRate: 0, lifetime: 5}]", animations: """
        animations:
          - {layer: e, keyPath: emitterCells.explosion.birthRate, from: 500, to: 500, begin: 0.4, duration: 0.1, fillMode: removed}
        """)
        let during = try particles(s, at: 0.45)
        #expect(abs(Double(during.born[0]) - 25) <= 1)
        let after = try particles(s, at: 2)
        #expect(abs(Double(after.born[0]) - 50) <= 1)
        #expect(after.age.allSatisfy { $0 > 1.5 - 1e-9 && $0 <= 1.6 + 1e-9 })
    }

    @Test func subCellsAreEmittedByEachParticle() throws {
        let s = try scene("""
        emitterCells: [{name: rocket, birthRate: 2, lifetime: 10, velocity: 50, color: "rgba(255, 0, 0, 1)", greenSpeed: 0.5,
                        emitterCells: [{name: spark, birthRate: 10, lifetime: 10, beginTime: 0.2, color: "rgba(255, 255, 255, 0.5)"}]}]
        """)
        let p = try particles(s, at: 2.1)
        // Rockets born at 0.5, 1, 1.5, 2; each emits 10/s from 0.2 s of its life on.
        #expect(p.born[0] == 4)
        let expected = 10 * (1.4 + 0.9 + 0.4)
        #expect(abs(Double(p.born[1]) - expected) <= 3)
        // A spark starts where its rocket was at the spark's birth, with its own colour
        // (white, alpha 0.5) times the rocket's then (red, green growing 0.5/s).
        let rockets = (0..<p.count).filter { p.cell[$0] == 0 }
        for i in 0..<p.count where p.cell[i] == 1 {
            let parent = rockets.first { r in
                let ageThen = p.age[r] - p.age[i]
                return abs(p.x[i] - p.vx[r] * ageThen) < 1e-9 && abs(p.y[i] - p.vy[r] * ageThen) < 1e-9
            }
            guard let r = parent else { Issue.record("spark \(i) is on no rocket"); continue }
            let ageThen = p.age[r] - p.age[i]
            #expect(p.red[i] == 1 && abs(Double(p.alpha[i]) - 0.5) < 1e-6)
            #expect(abs(Double(p.green[i]) - 0.5 * ageThen) < 1e-6)
        }
    }

    @Test func cellBeginTimeAndDurationGateEmission() throws {
        let p = try particles(try scene("emitterCells: [{name: a, birthRate: 20, lifetime: 100, beginTime: 0.5, duration: 1.5}]"), at: 4)
        // Births only during [0.5, 2): 30 of them, the oldest 3.5 s old, the youngest over 2 s.
        #expect(abs(p.born[0] - 30) <= 1)
        #expect(p.age.allSatisfy { $0 <= 3.5 + 1e-9 && $0 > 2 - 1e-9 })
    }

    @Test func layerMultipliersScaleLifetimeAndVelocity() throws {
        let p = try particles(try scene("lifetime: 0.5, velocity: 3, emitterCells: [{name: a, birthRate: 100, lifetime: 2, velocity: 10}]"), at: 3)
        // Lifetime 2 × 0.5 = 1 s: 100 alive; speed 10 × 3.
        #expect(abs(p.alive[0] - 100) <= 1)
        #expect(p.vx.allSatisfy { abs($0 - 30) < 1e-9 })
    }

    @Test func tooManyParticlesIsAClearError() throws {
        let s = try scene("emitterCells: [{name: a, birthRate: 1000, lifetime: 10}]")
        var sim = ParticleSimulation(scene: s, maxParticles: 500)
        #expect(throws: ParticleLimitError.self) { _ = try sim.frame(Timeline(scene: s).frame(at: 1, index: 0)) }
    }

    @Test func loaderReportsEmitterMistakes() {
        let yaml = """
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers:
          - id: e
            type: emitter
            emitterShape: circel
            emitterCells:
              - {name: spark, birthRat: 3, contents: {path: "M 0 0 L 1 1", size: [2, 2], fillColor: bleu}}
        animations:
          - {layer: e, keyPath: emitterCells.sprak.birthRate, to: 3}
          - {layer: e, keyPath: emitterCells.spark.velocty, to: 3}
        """
        do {
            _ = try SceneLoader.load(text: yaml, file: "t.yaml")
            Issue.record("the scene should not load")
        } catch let error as SceneLoadError {
            let text = error.description
            #expect(text.contains("t.yaml:6:") && text.contains("did you mean 'circle'?"))
            #expect(text.contains("unknown key 'birthRat'") && text.contains("did you mean 'birthRate'?"))
            #expect(text.contains("fillColor"))
            #expect(text.contains("no cell named 'sprak'") && text.contains("did you mean 'spark'?"))
            #expect(text.contains("did you mean 'velocity'?"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
