import Foundation
import Testing
@testable import KineticScene

/// Apple's names Kinetic leaves out are refused as "not supported" where they are written,
/// never answered as a typo; the table, the loader and the schema say the same.
@Suite struct UnsupportedAppleNamesTests {
    /// A scene with `KEY: 1` in one mapping of `context` (the key on the line the test names).
    private static func scene(_ context: String, _ key: String) -> (text: String, line: Int, keyPath: String) {
        let head = "kinetic: 1\nscene: {size: [100, 100], duration: 1}\n"
        let box = "layers: [{id: a, frame: [0, 0, 10, 10]}]\n"
        switch context {
        case "layer", "text", "emitter", "replicator", "shape", "gradient":
            let type = context == "layer" ? "" : "type: \(context), "
            return (head + "layers:\n  - {id: a, \(type)\(key): 1}\n", 4, "layers[0].\(key)")
        case "emitterCell":
            return (head + "layers:\n  - id: a\n    type: emitter\n    emitterCells:\n      - {name: c, \(key): 1}\n",
                    7, "layers[0].emitterCells[0].\(key)")
        case "animation":
            return (head + box + "animations:\n  - {layer: a, keyPath: opacity, to: 0, \(key): 1}\n", 5, "animations[0].\(key)")
        case "dynamics":
            return (head + box + "dynamics:\n  \(key): 1\n", 5, "dynamics.\(key)")
        case "behavior":
            return (head + box + "dynamics:\n  behaviors:\n    - gravity: {items: [a], \(key): 1}\n", 6,
                    "dynamics.behaviors[0].gravity.\(key)")
        default:
            return (head + box + "dynamics:\n  behaviors:\n    - \(context): {items: [a], \(key): 1}\n", 6,
                    "dynamics.behaviors[0].\(context).\(key)")
        }
    }

    private static func problems(_ text: String) -> [SceneProblem] {
        do {
            _ = try SceneLoader.load(text: text, file: "t.yaml")
            return []
        } catch let error as SceneLoadError {
            return error.problems
        } catch {
            return []
        }
    }

    @Test func everyNameIsRefusedAsNotSupportedAtItsPlace() {
        for e in UnsupportedAppleNames.entries {
            let (text, line, keyPath) = Self.scene(e.context, e.name)
            let found = Self.problems(text).first { $0.keyPath == keyPath }
            #expect(found?.message.hasPrefix("'\(e.name)' is not supported (\(e.owner).\(e.name)") == true,
                    "\(e.context).\(e.name): \(found?.description ?? "accepted")")
            #expect(found?.location.line == line, "\(e.context).\(e.name)")
            #expect(found?.message.contains("did you mean") == false)
        }
    }

    @Test func theMessageNamesTheFileLineAndColumn() {
        let problems = Self.problems(Self.scene("layer", "isGeometryFlipped").text)
        #expect(problems.map(\.description) == [
            "t.yaml:4:13: layers[0].isGeometryFlipped: 'isGeometryFlipped' is not supported (CALayer.isGeometryFlipped): "
                + "Kinetic does not implement it (docs/keys.md lists Apple's names it leaves out)",
        ])
    }

    @Test func noRefusedNameIsAKeyKineticTakes() {
        for e in UnsupportedAppleNames.entries {
            let taken = e.context == "layer" ? SceneSchema.keys(of: "layer") : SceneSchema.keys(of: e.context)
            #expect(!taken.contains(e.name), "\(e.context).\(e.name) is taken and refused")
        }
    }

    @Test func theSchemaRefusesTheSameNames() throws {
        let object = try JSONSerialization.jsonObject(with: Data(SceneSchema.json().utf8)) as? [String: Any]
        let defs = object?["$defs"] as? [String: Any]
        let layer = (defs?["layer"] as? [String: Any])?["properties"] as? [String: Any]
        let refused = layer?["isGeometryFlipped"] as? [String: Any]
        #expect(refused?["not"] is [String: Any])
        #expect((refused?["description"] as? String)?.contains("not supported") == true)
        let animation = (defs?["animation"] as? [String: Any])?["properties"] as? [String: Any]
        #expect((animation?["valueFunction"] as? [String: Any])?["not"] != nil)
    }
}
