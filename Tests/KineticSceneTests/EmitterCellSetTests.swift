import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 7 sets any property, and section 3.2 makes every cell key a key path: an
/// event's `set: {burst.emitterCells.explosion.birthRate: 500}` starts an explosion, as
/// the seeds do, and another stops it.
@Suite struct EmitterCellSetTests {
    static let scene = """
    kinetic: 1
    scene: {size: [200, 200], duration: 2, fps: 10}
    layers:
      - id: burst
        type: emitter
        emitterPosition: [100, 100]
        emitterCells:
          - {name: explosion, birthRate: 0, lifetime: 5, velocity: 50, emitterCells: [{name: spark, birthRate: 0}]}
    events:
      - at: 0.5
        set: {burst.emitterCells.explosion.birthRate: 500, burst.emitterCells.explosion.emitterCells.spark.lifetime: 2}
      - at: 1.0
        set: {burst.emitterCells.explosion.birthRate: 0}

    """

    @Test func setStartsAndStopsTheExplosion() throws {
        let scene = try SceneLoader.load(text: Self.scene, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: scene))
        var particles = ParticleSimulation(scene: scene, maxParticles: 100_000)
        var alive: [Int] = []
        var birthRates: [Double] = []
        for index in 0..<scene.frameCount {
            let frame = try particles.frame(simulation.frame(index))
            let burst = try #require(findLayer(frame.layers, id: "burst")?.emitter)
            birthRates.append(burst.emitterCells[0].birthRate)
            alive.append(burst.particles.alive.first ?? 0)
            if index == 7 { #expect(burst.emitterCells[0].emitterCells[0].lifetime == 2) }
        }
        // Frames 0–4 before the event, 5–9 at 500 per second, then none born.
        #expect(birthRates[0..<5].allSatisfy { $0 == 0 } && birthRates[5..<10].allSatisfy { $0 == 500 })
        #expect(birthRates[10...].allSatisfy { $0 == 0 })
        #expect(alive[4] == 0)
        // 0.5 s at 500 per second; lifetimes of 5 s outlast the scene.
        #expect(alive[10] > 200 && alive[10] <= 260, "\(alive)")
        #expect(alive[19] == alive[10], "none born after the stop, none dead yet: \(alive)")
    }

    @Test func aCellKeyPathIsCheckedAsAnAnimationsIs() {
        func problems(_ set: String) -> [String] {
            loadProblems(Self.scene.replacingOccurrences(of: "set: {burst.emitterCells.explosion.birthRate: 0}", with: set))
                .map(\.description)
        }
        #expect(problems("set: {burst.emitterCells.explosoin.birthRate: 1}")
                == ["t.yaml:13:51: events[1].set.burst.emitterCells.explosoin.birthRate: emitter 'burst' has no cell named "
                    + "'explosoin' (did you mean 'explosion'?)"])
        #expect(problems("set: {burst.emitterCells.explosion.birthRate: -1}")
                == ["t.yaml:13:51: events[1].set.burst.emitterCells.explosion.birthRate: must not be negative, found -1"])
        #expect(problems("set: {burst.emitterCells.explosion.emissionRange: 90deg}").isEmpty, "angles as animations take them")
    }
}
