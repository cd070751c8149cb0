import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// A cell's emission window (`beginTime`, `duration`) gives exactly ⌊rate × duration⌋
/// particles at start + k / rate, wherever the window starts and however the frames are
/// asked for (docs/extensions.md, Emitters: Births).
@Suite struct EmitterBirthWindowTests {
    func scene(_ cells: String, fps: Int = 10, duration: Double = 3) throws -> Scene {
        try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], scale: 1, fps: \(fps), duration: \(duration)}
        layers:
          - {id: e, type: emitter, emitterPosition: [50, 50], emitterCells: [\(cells)]}
        """, file: "t.yaml")
    }

    /// The snapshot at `time`, the simulation run frame by frame up to it (as `render`
    /// does) or asked for directly (as `inspect --time` does).
    func particles(_ scene: Scene, at time: Double, byFrames: Bool) throws -> ParticleSnapshot {
        var sim = ParticleSimulation(scene: scene)
        let timeline = Timeline(scene: scene)
        if byFrames {
            let fps = Double(scene.settings.fps)
            var i = 0
            while Double(i) / fps < time { _ = try sim.frame(timeline.frame(at: Double(i) / fps, index: i)); i += 1 }
        }
        let frame = try sim.frame(timeline.frame(at: time, index: 0))
        return try #require(frame.layers.first?.emitter?.particles)
    }

    @Test func aWindowGivesRateTimesDurationWhereverItStarts() throws {
        // The user's x-count.yaml: 10/s for 1 s gave 9 from 0 and 10 from 0.5.
        for begin in [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0 / 3, 0.123] {
            let s = try scene("{name: c, birthRate: 10, lifetime: 10, velocity: 0, beginTime: \(begin), duration: 1.0}")
            for byFrames in [true, false] {
                let p = try particles(s, at: 2, byFrames: byFrames)
                #expect(p.born == [10], "beginTime \(begin), by frames \(byFrames): \(p.born)")
                // Born at beginTime + k/10, k = 1…10: the last on the window's end.
                let births = p.age.map { 2 - $0 }.sorted()
                for (k, b) in births.enumerated() {
                    #expect(abs(b - (begin + Double(k + 1) / 10)) < 1e-9, "beginTime \(begin): birth \(k + 1) at \(b)")
                }
            }
        }
    }

    @Test func countsAreWholeWhereBinaryRoundingFallsShort() throws {
        // 100 × 0.29 is 28.999… in binary; 7 × 0.3 = 2.1 gives 2; 3 × 0.5 = 1.5 gives 1.
        let s = try scene("""
        {name: a, birthRate: 100, lifetime: 10, beginTime: 0.2, duration: 0.29},
        {name: b, birthRate: 7, lifetime: 10, beginTime: 0.05, duration: 0.3},
        {name: c, birthRate: 3, lifetime: 10, duration: 0.5}
        """)
        for byFrames in [true, false] {
            #expect(try particles(s, at: 2.5, byFrames: byFrames).born == [29, 2, 1])
        }
    }

    @Test func theBirthOnTheWindowsEndIsBornAtIt() throws {
        // The 10th particle is born at 1.5 exactly: not yet there just before, there at it.
        let s = try scene("{name: c, birthRate: 10, lifetime: 10, beginTime: 0.5, duration: 1.0}", fps: 50)
        #expect(try particles(s, at: 1.49, byFrames: true).born == [9])
        #expect(try particles(s, at: 1.5, byFrames: true).born == [10])
        #expect(try particles(s, at: 1.5, byFrames: false).born == [10])
    }

    @Test func subCellWindowsCountFromTheirParentsBirth() throws {
        // Every rocket (1 s apart) gives exactly ⌊10 × 0.7⌋ = 7 sparks, 0.1 s apart from
        // 0.2 s after its birth.
        let s = try scene("""
        {name: rocket, birthRate: 1, lifetime: 5, velocity: 0,
         emitterCells: [{name: spark, birthRate: 10, lifetime: 10, beginTime: 0.1, duration: 0.7}]}
        """, duration: 4)
        let p = try particles(s, at: 3.95, byFrames: true)
        #expect(p.born == [3, 21])
        let sparkBirths = (0..<p.count).filter { p.cell[$0] == 1 }.map { 3.95 - p.age[$0] }.sorted()
        let expected = [1.0, 2.0, 3.0].flatMap { rocket in (1...7).map { rocket + 0.1 + Double($0) / 10 } }
        #expect(sparkBirths.count == expected.count)
        for (b, e) in zip(sparkBirths, expected) { #expect(abs(b - e) < 1e-9, "\(b) vs \(e)") }
    }

    @Test func aRateThatChangesStillAddsUp() throws {
        // 20/s, switched to 0 for a while and back (an animated rate): the runs add up,
        // the gap gives nothing.
        let s = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], fps: 10, duration: 3}
        layers:
          - {id: e, type: emitter, emitterCells: [{name: c, birthRate: 20, lifetime: 10}]}
        animations:
          - {layer: e, keyPath: emitterCells.c.birthRate, values: [0, 0], duration: 1, begin: 0.5, fillMode: removed}
        """, file: "t.yaml")
        // 0.5 s at 20/s, nothing for 1 s, then 20/s again for 0.5 s.
        #expect(try particles(s, at: 2.0, byFrames: true).born == [20])
        #expect(try particles(s, at: 2.0, byFrames: false).born == [20])
    }

    @Test func birthClockHandsOutEachBirthOnce() {
        var clock = BirthClock()
        var times: [Double] = []
        // 1/240 s steps at 10/s for 1 s.
        for i in 0..<240 {
            clock.count(from: Double(i) / 240, to: Double(i + 1) / 240, rate: 10) { times.append($0); return true }
        }
        #expect(clock.born == 10)
        #expect(times == (1...10).map { Double($0) / 10 })
    }
}
