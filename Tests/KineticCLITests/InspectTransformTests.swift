import Foundation
import Testing
import enum Kinetic.InspectReport
import KineticGeometry
import KineticScene
@testable import KineticCLI

/// `inspect` reports a layer tilted about x and y at once by two sub-key path animations.
@Suite struct InspectTransformTests {
    @Test func tiltAboutXAndYShowsInTheMatrixAndTheCorners() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 200], duration: 1, fps: 50}
        layers: [{id: card, position: [100, 100], bounds: [100, 100]}]
        animations:
          - {layer: card, keyPath: transform.rotation.x, to: 30deg, duration: 0.5}
          - {layer: card, keyPath: transform.rotation.y, to: 20deg, duration: 0.5}
        """, file: "t.yaml")
        let frame = try Simulation(timeline: Timeline(scene: scene)).frame(40)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(InspectReport.json(for: frame).utf8)) as? [String: Any])
        let card = try #require((object["layers"] as? [String: Any])?["card"] as? [String: Any])
        // Ry(20°)·Rx(30°), computed by hand.
        let expected = [0.9396926208, 0.1710100717, -0.2961981327, 0, 0, 0.8660254038, 0.5, 0,
                        0.3420201433, -0.4698463104, 0.8137976813, 0, 0, 0, 0, 1]
        let transform = try #require(card["transform"] as? [Double])
        #expect(transform.count == 16)
        for (got, want) in zip(transform, expected) { #expect(abs(got - want) < 1e-9) }
        // Corner (x, y) of the centred 100 × 100 square goes to (x·m11 + y·m21, x·m12 + y·m22)
        // + (100, 100): the top edge tilts down to the right, the sides shrink by cos 20°.
        let corners = try #require(card["corners"] as? [[Double]])
        let expectedCorners = [[53.0153689607, 48.1482262276], [146.9846310393, 65.2492333939],
                               [146.9846310393, 151.8517737724], [53.0153689607, 134.7507666061]]
        for (c, e) in zip(corners, expectedCorners) {
            #expect(abs(c[0] - e[0]) < 1e-8 && abs(c[1] - e[1]) < 1e-8, "\(c) vs \(e)")
        }
    }
}
