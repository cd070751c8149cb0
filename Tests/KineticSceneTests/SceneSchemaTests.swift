import Foundation
import Testing
@testable import KineticScene

/// `kinetic schema` cannot drift from the loader: every key a loader list accepts is
/// described, nothing else is, and every key described only by the schema's own table is
/// one the loader takes.
@Suite struct SceneSchemaTests {
    @Test func everyListedKeyIsDescribedAndNothingElse() {
        for (context, list) in SceneSchema.loaderKeys {
            guard let list else { continue }
            let described = Set(KeyDocs.table[context]?.keys.map { $0 } ?? [])
            if context == "behaviorKinds" {
                #expect(Set(list) == Set(KeyDocs.behaviorDescriptions.keys), "behavior kinds")
                for kind in list { #expect(SceneSchema.loaderKeys[kind] != nil, "behavior \(kind) has no key table") }
                continue
            }
            #expect(Set(list).subtracting(described).isEmpty, "\(context): not described: \(Set(list).subtracting(described).sorted())")
            #expect(described.subtracting(list).isEmpty, "\(context): described but not taken: \(described.subtracting(list).sorted())")
        }
    }

    @Test func everyContextOfTheTableIsInTheSchema() {
        #expect(Set(KeyDocs.table.keys) == Set(SceneSchema.loaderKeys.keys))
    }

    /// A scene putting `KEY: VALUE` into one mapping of the given context.
    private static func scene(_ context: String, _ key: String) -> String? {
        let kv = "\(key): null"
        let box = "layers: [{id: a, frame: [0, 0, 10, 10]}, {id: b, frame: [20, 0, 10, 10]}]\n"
        let head = "kinetic: 1\nscene: {size: [100, 100], duration: 1}\n"
        switch context {
        case "gravity", "collision", "push", "attachment", "snap", "itemBehavior", "field":
            return head + box + "dynamics: {behaviors: [{\(context): {\(kv)}}]}\n"
        case "boundary": return head + box + "dynamics: {behaviors: [{collision: {items: [a], boundaries: [{\(kv)}]}}]}\n"
        case "region": return head + box + "dynamics: {behaviors: [{field: {kind: noise, items: [a], region: {\(kv)}}}]}\n"
        case "trigger": return head + box + "events: [{on: {\(kv)}, do: [{removeLayers: [a]}]}]\n"
        case "doAction": return head + box + "events: [{on: {contact: began, items: [a, b]}, do: [{\(kv)}]}]\n"
        case "event": return head + box + "events: [{\(kv)}]\n"
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
        for (context, list) in SceneSchema.loaderKeys where list == nil {
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
