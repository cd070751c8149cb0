import Foundation
import Kinetic
import KineticLayers
import Testing

/// Every key the scene format has for a layer (the property model, `LayerSchema`) is
/// reachable from the builder of that layer's type: the loader takes it as a key of the
/// layer, and only judges its value.
struct BuilderCoverageTests {
    /// The builder of each layer type, by the type the property model names.
    static func builder(for type: LayerType) -> any LayerElement {
        switch type {
        case .layer: Layer("x")
        case .shape: ShapeLayer("x")
        case .gradient: GradientLayer("x")
        case .text: TextLayer("x")
        case .image: ImageLayer("x")
        case .replicator: ReplicatorLayer("x")
        case .emitter: EmitterLayer("x")
        case .transformLayer: TransformLayer("x")
        }
    }

    @Test(arguments: LayerType.allCases)
    func everyKeyOfTheTypeIsAcceptedFromItsBuilder(type: LayerType) throws {
        let keys = LayerSchema.standard.fileKeys(for: type).filter { $0 != "id" && $0 != "type" }
        #expect(keys.count >= 20, "the common keys alone are more")
        for key in keys {
            // A value of no key's shape: the loader must object to the value, not the key.
            let layer = Self.builder(for: type).setting(key, ["not": ["a value"]])
            let error = try #require(throws: SceneLoadError.self, "\(type.rawValue).\(key)") {
                try Scene(size: [10, 10], duration: 1, layers: [layer])
            }
            // (A mapping value's own keys, such as `transform.not`, may be unknown: they are the value's.)
            #expect(!error.problems.contains { $0.keyPath == "layers[0].\(key)" && $0.message.hasPrefix("unknown key") },
                    "\(type.rawValue).\(key): \(error)")
            #expect(error.problems.contains { $0.keyPath.hasPrefix("layers[0].\(key)") }, "\(type.rawValue).\(key): \(error)")
        }
    }

    @Test func aKeyOfAnotherTypeIsUnknown() throws {
        // The check above can fail: a shape's key on a text layer is reported as unknown.
        let error = try #require(throws: SceneLoadError.self) {
            try Scene(size: [10, 10], duration: 1, layers: [TextLayer("x").setting("strokeEnd", ["not": ["a value"]])])
        }
        #expect(error.problems.map(\.message) == ["unknown key 'strokeEnd'"])
    }
}
