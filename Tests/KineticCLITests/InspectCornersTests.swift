import Foundation
import Testing
import enum Kinetic.InspectReport
import KineticGeometry
import KineticLayers
@testable import KineticCLI

/// `inspect`'s `corners` for 3D layers, against the hand projection.
@Suite struct InspectCornersTests {
    @Test func cornersOfASquareTurnedSixtyDegreesAboutYWithPerspective() throws {
        // CA's y rotation takes (x, y, 0) to (x·cos θ, y, −x·sin θ); m34 = −1/500 makes
        // w = 1 + x·sin θ/500; position (100, 100) is added after the divide.
        var layer = Layer(id: "card", place: "layers[0]")
        layer.bounds = Rect(0, 0, 100, 100)
        layer.position = Point(100, 100)
        layer.transform = Transform3D.rotation(Double.pi / 3, 0, 1, 0).concatenating(.perspective(500))
        let frame = SceneFrame(index: 0, time: 0, size: Size(200, 200), background: .color(.white), layers: [layer])
        let json = InspectReport.json(for: frame)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let layers = try #require(object["layers"] as? [String: Any])
        let card = try #require(layers["card"] as? [String: Any])
        let corners = try #require(card["corners"] as? [[Double]])
        let expected: [[Double]] = [(-50.0, -50.0), (50, -50), (50, 50), (-50, 50)].map { x, y in
            let w = 1 + x * sin(Double.pi / 3) / 500
            return [x * 0.5 / w + 100, y / w + 100]
        }
        #expect(corners.count == 4)
        for (c, e) in zip(corners, expected) {
            #expect(abs(c[0] - e[0]) < 1e-8 && abs(c[1] - e[1]) < 1e-8, "\(c) vs \(e)")
        }
    }
}
