import Foundation
import Testing
import enum Kinetic.InspectReport
import KineticGeometry
import KineticLayers
import KineticScene
@testable import KineticCLI

/// `inspect` lists every animatable key of every layer type (`LayerSchema`), so the
/// timing of any animation can be checked from its JSON, in the contract's units.
@Suite struct InspectSchemaKeysTests {
    static let scene = """
    kinetic: 1
    scene: {size: [200, 200], duration: 1, fps: 10}
    layers:
      - {id: layer, type: layer}
      - {id: shape, type: shape, path: "M0 0 L10 10", lineDashPattern: [2, 3], shadowOpacity: 0.5}
      - {id: gradient, type: gradient, colors: [red, blue]}
      - {id: text, type: text, string: hi}
      - {id: emitter, type: emitter}
      - {id: replicator, type: replicator}
      - {id: transformLayer, type: transformLayer}
    animations:
      - {layer: shape, keyPath: shadowRadius, from: 0, to: 10, duration: 1}
      - {layer: shape, keyPath: lineDashPhase, from: 0, to: 8, duration: 1}
      - {layer: shape, keyPath: shadowOffset, from: [0, 0], to: [4, 8], duration: 1}
      - {layer: shape, keyPath: shadowColor, from: black, to: "#FF0000", duration: 1}
    """

    static func layers(at index: Int) throws -> [String: [String: Any]] {
        let scene = try SceneLoader.load(text: scene, file: "t.yaml")
        let frame = try Simulation(timeline: Timeline(scene: scene)).frame(index)
        let object = try JSONSerialization.jsonObject(with: Data(InspectReport.json(for: frame).utf8)) as? [String: Any]
        return try #require(object?["layers"] as? [String: [String: Any]])
    }

    @Test func everyAnimatableKeyOfEveryTypeIsListed() throws {
        let layers = try Self.layers(at: 5)
        for type in LayerType.allCases where type != .image {
            let entry = try #require(layers[type.rawValue], "\(type)")
            let keys = Set(entry.keys)
            let animatable = Set(LayerSchema.standard.animatableFileKeys(for: type).map(\.name))
            #expect(animatable.subtracting(keys).isEmpty, "\(type) lacks \(animatable.subtracting(keys).sorted())")
            #expect(!animatable.isEmpty)
            // Keys of other types stay out.
            let others = Set(LayerSchema.standard.entries.filter { !$0.applies(to: type) }.map(\.name))
            #expect(keys.isDisjoint(with: others), "\(type) lists \(keys.intersection(others).sorted())")
        }
    }

    @Test func shadowAndDashAnimationsShowHalfWayInContractUnits() throws {
        let shape = try #require(try Self.layers(at: 5)["shape"])
        #expect(shape["shadowRadius"] as? Double == 5)
        #expect(shape["lineDashPhase"] as? Double == 4)
        #expect(shape["shadowOffset"] as? [Double] == [2, 4])
        #expect(shape["shadowOpacity"] as? Double == 0.5)
        #expect(shape["lineDashPattern"] as? [Double] == [2, 3])
        // Black to red, half way: 0x80 (127.5 rounded) of red.
        #expect((shape["shadowColor"] as? String)?.hasPrefix("#80") == true || (shape["shadowColor"] as? String)?.hasPrefix("#7F") == true,
                "\(shape["shadowColor"] ?? "")")
    }
}
