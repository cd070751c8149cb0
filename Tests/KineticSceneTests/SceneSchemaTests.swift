import Foundation
import KineticDynamics
import Testing
@testable import KineticScene

/// `kinetic schema` cannot drift from the loader: its keys are the tables', the key
/// lists the loader keeps itself are those tables' names, and every key of a mapping
/// the loader checks inline is one it takes.
@Suite struct SceneSchemaTests {
    /// The key lists the loader keeps, by context.
    static let loaderLists: [String: [String]] = [
        "gradient": LayerDecoder.gradientKeys,
        "emitterCell": LayerDecoder.emitterCellKeys, "animation": AnimationDecoder.keys,
    ]

    /// The mappings the loader checks against the table inline or by a list taken from it
    /// (no list of its own).
    static let inlineChecked: Set<String> = [
        "top", "scene", "event", "gravity", "collision", "push", "attachment", "snap", "itemBehavior", "field", "boundary", "trigger",
        "golden", "tolerance", "transform", "spring", "oscillation", "region", "pathPrimitive", "arc", "star", "svgPath",
        "cellContents", "doAction", "layer", "shape", "text", "emitter", "replicator", "dynamics", "dynamicItem", "behavior",
        "action",
    ]

    @Test func everyLoaderListIsItsTable() {
        for (context, list) in Self.loaderLists {
            #expect(Set(list) == Set(SceneSchema.keys(of: context)), "\(context): \(Set(list).symmetricDifference(SceneSchema.keys(of: context)).sorted())")
        }
        #expect(DynamicsDecoder.behaviorKinds == DynamicsTable.behaviorKinds.map(\.name))
        for kind in DynamicsDecoder.behaviorKinds { #expect(KeyDocs.table[kind] != nil, "behavior \(kind) has no key table") }
    }

    /// Each rule between keys (`SceneKeys.rules`) names keys of its mapping, and the schema
    /// says it where its key is given (`dependentSchemas`).
    @Test func everyKeyRuleNamesKeysOfItsMappingAndIsInTheSchema() throws {
        let schema = try #require(JSONSerialization.jsonObject(with: Data(SceneSchema.json().utf8)) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        for (context, rules) in SceneKeys.rules {
            let keys = Set(SceneSchema.keys(of: context) + (context == "event" ? SceneSchema.keys(of: "action") : []))
            for rule in rules {
                let named = [rule.key] + rule.excludes + [rule.requires?.key].compactMap { $0 }
                #expect(keys.isSuperset(of: named), "\(context): \(named)")
            }
            // A behavior kind's mapping is a property of the behavior's.
            let behaviors = (defs["behavior"] as? [String: Any])?["properties"] as? [String: Any]
            let object = try #require((defs[context] ?? behaviors?[context]) as? [String: Any])
            #expect(Set((object["dependentSchemas"] as? [String: Any] ?? [:]).keys) == Set(rules.map(\.key)), "\(context)")
        }
    }

    @Test func everyContextOfTheTablesIsChecked() {
        #expect(Set(KeyDocs.table.keys) == Set(Self.loaderLists.keys).union(Self.inlineChecked))
    }

    /// A scene putting `KEY: VALUE` into one mapping of the given context.
    private static func scene(_ context: String, _ key: String) -> String? {
        let kv = "\(key): null"
        let box = "layers: [{id: a, frame: [0, 0, 10, 10]}, {id: b, frame: [20, 0, 10, 10]}]\n"
        let head = "kinetic: 1\nscene: {size: [100, 100], duration: 1}\n"
        /// Lines (or entries) without the one `key` replaces.
        func without(_ lines: [String]) -> [String] { lines.filter { !$0.hasPrefix("\(key):") } }
        switch context {
        case "top": return (without(["kinetic: 1", "scene: {size: [100, 100], duration: 1}"]) + [kv]).joined(separator: "\n") + "\n"
        case "scene": return "kinetic: 1\nscene: {" + (without(["size: [100, 100]", "duration: 1"]) + [kv]).joined(separator: ", ") + "}\n"
        case "layer": return head + "layers: [{\(kv)}]\n"
        case "shape", "text", "emitter", "replicator": return head + "layers: [{type: \(context), \(kv)}]\n"
        case "dynamics": return head + box + "dynamics: {\(kv)}\n"
        case "dynamicItem": return head + box + "dynamics: {items: {a: {\(kv)}}}\n"
        case "behavior": return head + box + "dynamics: {behaviors: [{gravity: {items: [a], \(kv)}}]}\n"
        case "gravity", "collision", "push", "attachment", "snap", "itemBehavior", "field":
            return head + box + "dynamics: {behaviors: [{\(context): {\(kv)}}]}\n"
        case "boundary": return head + box + "dynamics: {behaviors: [{collision: {items: [a], boundaries: [{\(kv)}]}}]}\n"
        case "region": return head + box + "dynamics: {behaviors: [{field: {kind: noise, items: [a], region: {\(kv)}}}]}\n"
        case "trigger": return head + box + "events: [{on: {\(kv)}, do: [{removeLayers: [a]}]}]\n"
        case "doAction": return head + box + "events: [{on: {contact: began, items: [a, b]}, do: [{\(kv)}]}]\n"
        case "event": return head + box + "events: [{\(kv)}]\n"
        case "action": return head + box + "events: [{at: 0, \(kv)}]\n"
        case "golden": return head + "golden: {\(kv)}\n"
        case "tolerance": return head + "golden: {tolerance: {\(kv)}}\n"
        case "transform": return head + "layers: [{id: a, transform: {\(kv)}}]\n"
        case "spring", "oscillation":
            return head + box + "animations: [{layer: a, keyPath: opacity, to: 0, duration: 1, \(context): {\(kv)}}]\n"
        case "pathPrimitive": return head + "layers: [{id: a, type: shape, path: {\(kv)}}]\n"
        case "arc", "star": return head + "layers: [{id: a, type: shape, path: {\(context): {\(kv)}}}]\n"
        case "svgPath": return head + "layers: [{id: a, type: shape, path: {svg: a.svg, \(kv)}}]\n"
        case "cellContents":
            return head + "layers: [{id: a, type: emitter, emitterCells: [{name: c, contents: {\(kv)}}]}]\n"
        default: return nil
        }
    }

    private static func unknownKeyReported(_ text: String, _ key: String) -> Bool {
        do {
            _ = try SceneLoader.load(text: text, file: "t.yaml")
            return false
        } catch let error as SceneLoadError {
            return error.problems.contains { $0.message.hasPrefix("unknown key '\(key)'") }
        } catch {
            return false
        }
    }

    @Test func everyKeyDescribedOnlyByTheSchemaIsTakenByTheLoader() throws {
        for context in Self.inlineChecked {
            let text = try #require(Self.scene(context, "zzBogus"), "no test scene for \(context)")
            // The scene reaches the mapping's key check: a bogus key is reported there.
            #expect(Self.unknownKeyReported(text, "zzBogus"), "\(context): the test scene does not reach its keys")
            for key in SceneSchema.keys(of: context) {
                #expect(!Self.unknownKeyReported(try #require(Self.scene(context, key)), key), "\(context).\(key) is not a loader key")
            }
        }
    }

    @Test func theSchemaIsDraft202012JSONWithDescriptions() throws {
        let object = try JSONSerialization.jsonObject(with: Data(SceneSchema.json().utf8)) as? [String: Any]
        #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let layer = (object?["$defs"] as? [String: Any])?["layer"] as? [String: Any]
        let opacity = (layer?["properties"] as? [String: Any])?["opacity"] as? [String: Any]
        #expect(opacity?["description"] as? String == "0 transparent … 1 opaque.")
        #expect(opacity?["default"] as? Double == 1)
        #expect(!SceneSchema.json().contains("(not yet described)"))
    }
}
