import Foundation
import Testing
import enum Kinetic.InspectReport
import KineticScene
@testable import KineticCLI

/// `inspect --particles` (contract §10): each live particle's fields, plus its `angle`.
@Suite struct InspectParticlesTests {
    /// Ten particles a second that stay where they are born and turn at 2 rad/s: at 1 s
    /// each one's angle is 2 × its age, and every field of the contract is there.
    @Test func eachParticleGivesItsAngle() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], duration: 2, fps: 10}
        layers:
          - id: e
            type: emitter
            emitterPosition: [50, 50]
            emitterCells: [{name: dot, birthRate: 10, lifetime: 5, velocity: 0, spin: 2,
                            contents: {path: {oval: [0, 0, 4, 4]}, size: [4, 4], fillColor: white}}]
        """, file: "t.yaml")
        let frame = try FrameClock(scene: scene).frame(at: 1, index: 10)
        let json = InspectReport.json(for: frame, particles: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let cells = try #require((object["emitters"] as? [String: Any])?["e"] as? [String: Any])
        let dot = try #require((cells["cells"] as? [String: Any])?["dot"] as? [String: Any])
        let list = try #require(dot["particles"] as? [[String: Any]])
        #expect(list.count == 10)
        for particle in list {
            #expect(Set(particle.keys).isSuperset(of: ["position", "velocity", "age", "lifetime", "scale", "alpha", "color"]))
            let age = try #require(particle["age"] as? Double), angle = try #require(particle["angle"] as? Double)
            #expect(abs(angle - 2 * age) < 1e-9, "age \(age), angle \(angle)")
        }
    }
}
