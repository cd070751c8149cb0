import Foundation
import Testing
import KineticDynamics
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// The loader (`validate`) and the JSON Schema (`kinetic schema`) judge every value alike:
/// each entry of the layer, emitter-cell and dynamics tables is written with values of its kind
/// that both must accept and values (wrong type, wrong length, out of range, unknown
/// name, unknown key) that both must refuse. The schema side is Python's `jsonschema`
/// (draft 2020-12), the validator `make test` installs and `Tests/schema/check.py` uses.
@Suite struct SchemaAgreementTests {
    /// One scene with one value written: whether the value is valid, and what it is.
    struct Case { var label: String; var json: String; var valid: Bool }

    /// Values of a property's kind as JSON: which are valid and which not. Kinds whose
    /// valid values need files (images) are walked with invalid values only.
    static func values<Object>(_ spec: PropertySpec<Object>) -> [(json: String, valid: Bool)] {
        var v: [(String, Bool)] = []
        func inRange() -> Double {
            guard let r = spec.range else { return 2 }
            if let lo = r.lowerBound { return r.excludesLowerBound ? lo + 0.5 : lo }
            return r.upperBound ?? 2
        }
        func outOfRange() -> [Double] {
            guard let r = spec.range else { return [] }
            return [r.lowerBound.map { r.excludesLowerBound ? $0 : $0 - 1 }, r.upperBound.map { $0 + 1 }].compactMap { $0 }
        }
        func f(_ x: Double) -> String { ValueRange.format(x) }
        switch spec.kind {
        case .number:
            // A quoted number is text in YAML 1.2 and JSON alike.
            v += [(f(inRange()), true), (#""abc""#, false), ("[1]", false), ("{}", false), ("\"\(f(inRange()))\"", false)]
            v += outOfRange().map { (f($0), false) }
            // A constant expression folds where expressions are allowed.
            if spec.allowsExpressions { v.append(("\"= \(f(inRange())) + 0\"", true)) }
        case .angle:
            v += [("0.5", true), (#""45deg""#, true), (#""abc""#, false), ("[1]", false), (#""0.5""#, false)]
        case .integer:
            v += [(f(inRange().rounded(.up)), true), ("1.5", false), (#""abc""#, false), ("\"\(f(inRange().rounded(.up)))\"", false)]
            v += outOfRange().map { (f($0), false) }
        case .point:
            v += [("[1, 2]", true), ("[1]", false), ("[1, 2, 3]", false), ("5", false), (#"["1", 2]"#, false)]
        case .size:
            v += [("[1, 2]", true), ("[1]", false), ("[0, 0, 1, 1]", false), ("5", false)]
            if spec.range != nil { v.append(("[-1, 1]", false)) }
        case .rect:
            v += [("[0, 0, 1, 2]", true), ("[1, 2]", false), ("[1]", false), ("[0, 0, -1, 1]", false), ("5", false)]
        case .sizeOrRect:
            v += [("[1, 2]", true), ("[0, 0, 1, 2]", true), ("[1, 2, 3]", false), ("5", false)]
            if spec.range != nil { v += [("[-1, 1]", false), ("[0, 0, 1, -1]", false)] }
        case .color:
            v += [(##""#FF000080""##, true), (#""red""#, true), (#""rgba(10, 20, 30, 0.5)""#, true),
                  (#""notacolor""#, false), (##""#12345""##, false), ("5", false), ("[1]", false),
                  ("null", spec.allowsNone)]
        case .colors:
            v += [(##"["red", "#00FF00"]"##, true), (#""red""#, false), (#"["notacolor"]"#, false)]
        case .numbers:
            v += [(#""abc""#, false), (#"["x"]"#, false)]
        case .transform:
            v += [("{\"rotate\": 1}", true), ("{\"translate\": [1, 2]}", true), ("{\"foo\": 1}", false), ("5", false)]
        case .path:
            v += [(#""M0 0 L10 10""#, true), ("{\"rect\": [0, 0, 1, 1]}", true), ("5", false), ("{\"foo\": 1}", false)]
        case .bool:
            // YAML 1.1's `yes`/`on` are text in YAML 1.2, as a quoted `"true"` is.
            v += [("true", true), ("false", true), (#""maybe""#, false), ("[true]", false), (#""true""#, false),
                  (#""yes""#, false), (#""off""#, false)]
        case .string:
            v += [("[1]", false), ("{}", false), ("null", false), ("5", false), ("true", false)]
        case .choice(let names):
            v += names.map { ("\"\($0)\"", true) } + [(#""bogus""#, false), ("[1]", false)]
        case .names(let names):
            v += [("[\"\(names[0])\"]", true), ("[]", true), (#"["bogus"]"#, false), ("5", false)]
        case .filters:
            v += [(#"[{"gaussianBlur": 2}]"#, true), (#"[{"gaussianBlur": -1}]"#, false), (#"[{"blur": 1}]"#, false),
                  ("5", false)]
        case .layers:
            v += [("[{\"id\": \"s\"}]", true), ("5", false), ("[5]", false)]
        case .layer:
            v += [("{\"bounds\": [4, 4]}", true), ("5", false)]
        case .numberMap:
            v += [("{\"p\": 1}", true), ("{\"p\": \"abc\"}", false), ("{\"p\": \"1\"}", false), ("5", false)]
        case .cells:
            v += [("[{\"name\": \"d\"}]", true), ("5", false), ("[{\"bogus\": 1}]", false)]
        case .image, .cellContents:
            v += [("5", false), ("[1]", false)]
        case .value, .values, .timingFunction, .timingFunctions, .countOrForever, .mapping, .mappings, .mappingsByLayerID,
             .layerID, .layerIDs, .fixedNumbers, .pathOrShapeLayer, .integerChoice, .list, .anyOf, .numberList, .percentage,
             .keyPathValues:
            break
        }
        return v
    }

    static let head = #""kinetic": 1, "scene": {"size": [100, 100], "duration": 1}"#

    /// Every case of the layer table: each key on the first layer type that has it.
    static func layerCases() -> [Case] {
        var cases: [Case] = []
        for spec in LayerSchema.standard.entries where spec.isFileKey && spec.name != "type" {
            let type = spec.layerTypes.map { types in LayerType.allCases.first(where: types.contains) } ?? .layer
            // An image layer needs contents; `id` is the layer's own.
            guard let type, type != .image else { continue }
            var values = values(spec)
            if spec.name == "id" { values = [(#""a""#, true), (#""1a""#, false), ("5", false)] }
            for (json, valid) in values {
                let key = spec.name == "id" ? "" : #""id": "a", "#
                cases.append(Case(label: "\(type.rawValue).\(spec.name): \(json)",
                                  json: "{\(head), \"layers\": [{\(key)\"type\": \"\(type.rawValue)\", \"\(spec.name)\": \(json)}]}",
                                  valid: valid))
            }
        }
        cases.append(Case(label: "layer.bogusKey", json: "{\(head), \"layers\": [{\"bogusKey\": 1}]}", valid: false))
        return cases
    }

    /// Every case of the emitter-cell table.
    static func cellCases() -> [Case] {
        var cases: [Case] = []
        for spec in EmitterCellSchema.entries {
            var values = values(spec)
            if spec.name == "name" { values = [(#""c""#, true), ("[1]", false)] }
            for (json, valid) in values {
                let cell = spec.name == "name" ? "" : #""name": "c", "#
                cases.append(Case(label: "emitterCell.\(spec.name): \(json)",
                                  json: "{\(head), \"layers\": [{\"type\": \"emitter\", \"emitterCells\": [{\(cell)\"\(spec.name)\": \(json)}]}]}",
                                  valid: valid))
            }
        }
        cases.append(Case(label: "emitterCell.bogusKey",
                          json: "{\(head), \"layers\": [{\"type\": \"emitter\", \"emitterCells\": [{\"bogusKey\": 1}]}]}", valid: false))
        return cases
    }

    /// The mappings of `SceneKeys` walked, each as a document around its keys: the other
    /// keys it needs (a key walked leaves its own out), and where it sits.
    static let sceneKeyMappings: [(context: String, needs: [(String, String)], wrap: @Sendable (String) -> String)] = [
        ("scene", [("size", "[100, 100]"), ("duration", "1")], { #"{"kinetic": 1, "scene": {"# + $0 + "}}" }),
        ("golden", [], { "{\(head), \"golden\": {\($0)}}" }),
        ("tolerance", [], { "{\(head), \"golden\": {\"tolerance\": {\($0)}}}" }),
        ("transform", [], { "{\(head), \"layers\": [{\"id\": \"a\", \"transform\": {\($0)}}]}" }),
        ("arc", [("center", "[5, 5]"), ("radius", "3"), ("startAngle", "0"), ("endAngle", "1")],
         { "{\(head), \"layers\": [{\"id\": \"a\", \"type\": \"shape\", \"path\": {\"arc\": {\($0)}}}]}" }),
        ("star", [("center", "[5, 5]"), ("points", "5"), ("outerRadius", "4"), ("innerRadius", "2")],
         { "{\(head), \"layers\": [{\"id\": \"a\", \"type\": \"shape\", \"path\": {\"star\": {\($0)}}}]}" }),
        ("cellContents", [("path", #"{"rect": [0, 0, 1, 1]}"#), ("size", "[1, 1]")],
         { "{\(head), \"layers\": [{\"type\": \"emitter\", \"emitterCells\": [{\"name\": \"c\", \"contents\": {\($0)}}]}]}" }),
        ("spring", [], { "{\(head), \(animated)\"spring\": {\($0)}}]}" }),
        ("oscillation", [("damping", "1"), ("velocity", "1")], { "{\(head), \(animated)\"oscillation\": {\($0)}}]}" }),
    ]

    /// A layer and the start of an animation of it with a duration, for `spring:` and
    /// `oscillation:` to close.
    static let animated = #""layers": [{"id": "a"}], "animations": [{"layer": "a", "keyPath": "position.x", "from": 0, "to": 10, "duration": 1, "#

    /// Values beside the walk's own, written by hand rather than read from the tables
    /// (which the walk reads, so it cannot catch a table the loader does not use): the
    /// loader's damping ratio is 0.01…100, and an oscillation's decay cannot be negative.
    static let documentedCases: [(context: String, key: String, json: String, valid: Bool)] = [
        ("spring", "dampingRatio", "0.001", false), ("spring", "dampingRatio", "0.5", true),
        ("spring", "dampingRatio", "100", true), ("spring", "dampingRatio", "101", false),
        ("oscillation", "damping", "-0.5", false), ("oscillation", "damping", "0", true),
    ]

    /// Every key of those mappings with the values of its kind, and an unknown key.
    static func sceneKeyCases() -> [Case] {
        var cases: [Case] = []
        for (context, needs, wrap) in sceneKeyMappings {
            func body(_ key: String?, _ json: String) -> String {
                (needs.filter { $0.0 != key }.map { "\"\($0.0)\": \($0.1)" } + (key.map { ["\"\($0)\": \(json)"] } ?? []))
                    .joined(separator: ", ")
            }
            for spec in SceneKeys.contexts[context] ?? [] {
                for (json, valid) in values(spec) {
                    cases.append(Case(label: "\(context).\(spec.name): \(json)", json: wrap(body(spec.name, json)), valid: valid))
                }
            }
            cases.append(Case(label: "\(context).bogusKey", json: wrap(body("bogusKey", "1")), valid: false))
            for c in documentedCases where c.context == context {
                cases.append(Case(label: "\(context).\(c.key): \(c.json) (documented)", json: wrap(body(c.key, c.json)), valid: c.valid))
            }
        }
        return cases
    }

    /// A valid body of each behavior kind, for its other keys to be written into.
    static let behaviorBases: [String: String] = [
        "gravity": #""items": ["a"]"#, "collision": #""items": ["a"]"#, "push": #""items": ["a"]"#,
        "attachment": #""item": "a", "attachedToAnchor": [0, 0]"#, "snap": #""item": "a", "snapPoint": [0, 0]"#,
        "itemBehavior": #""items": ["a"]"#, "field": #""kind": "radialGravity", "items": ["a"]"#,
    ]

    /// Values of a dynamics key's kind as JSON, in and out of its range: which are valid
    /// and which not. Keys of other dynamics mappings (nested lists, ids) get a valid and
    /// a wrongly typed value.
    static func values(_ key: DynamicsProperty<Void>) -> [(json: String, valid: Bool)] {
        func f(_ x: Double) -> String { ValueRange.format(x) }
        let r = key.range
        let lower = r?.lowerBound, upper = r?.upperBound
        // In range: the lower bound (above it when excluded), else 1.
        let inside = lower.map { r?.excludesLowerBound == true ? $0 + 0.5 : $0 } ?? 1
        var outside: [Double] = []
        if let lower { outside.append(r?.excludesLowerBound == true ? lower : lower - 1) }
        if let upper { outside.append(upper * 2 + 1) }
        var v: [(String, Bool)] = []
        switch key.kind {
        case .number:
            v += [(f(inside), true), (#""abc""#, false), ("[1]", false), ("\"\(f(inside))\"", false)] + outside.map { (f($0), false) }
        case .integer:
            v += [(f(inside.rounded(.up)), true), ("1.5", false), (#""abc""#, false)] + outside.map { (f($0), false) }
        case .angle:
            v += [("0.5", true), (#""45deg""#, true), (#""abc""#, false), ("[1]", false)]
        case .point:
            v += [("[1, 2]", true), ("[1]", false), ("[1, 2, 3]", false), ("5", false)]
            v += outside.flatMap { [("[\(f($0)), 0]", false), ("[0, \(f($0))]", false)] }
        case .fixedNumbers(let count):
            // Ascending, as `[min, max]` must be.
            v += [("[" + (0..<count).map { f(Double($0)) }.joined(separator: ", ") + "]", true),
                  ("[" + Array(repeating: "0", count: count - 1).joined(separator: ", ") + "]", false), ("5", false)]
            v += outside.map { ("[" + ([f($0)] + Array(repeating: f(upper ?? 0), count: count - 1)).joined(separator: ", ") + "]", false) }
        case .rect:
            v += [("[0, 0, 10, 20]", true), ("[1, 2]", false), ("[0, 0, -1, 1]", false), ("5", false)]
            v += outside.flatMap { [("[\(f($0)), 0, 10, 20]", false), ("[0, 0, 10, \(f($0))]", false)] }
            if key.name == "referenceBounds" { v += [("[0, 0, 0, 10]", false), ("[0, 0, 10, 0]", false)] }
        case .bool:
            v += [("true", true), ("false", true), (#""maybe""#, false), ("[true]", false), (#""true""#, false), (#""yes""#, false)]
        case .string:
            v += [(#""x""#, true), ("[1]", false), ("{}", false), ("null", false), ("5", false)]
        case .layerID:
            // Whether a layer has the id, the schema cannot say.
            v += [(#""b""#, true), ("[1]", false)]
        case .layerIDs:
            v += [(#"["a", "b"]"#, true), (#""a""#, false), ("[5]", false)]
        case .choice(let names):
            v += names.map { ("\"\($0)\"", true) } + [(#""bogus""#, false), ("[1]", false)]
        case .path, .pathOrShapeLayer:
            v += [(#""M0 0 L10 0 L10 10 Z""#, true), ("5", false), ("{\"foo\": 1}", false)]
        case .mapping:
            v += [("{}", true), ("5", false), ("{\"bogusKey\": 1}", false)]
        case .mappings:
            v += [("[]", true), ("5", false), ("[5]", false)]
        case .mappingsByLayerID:
            v += [("{\"a\": {}}", true), ("5", false), ("{\"a\": 5}", false)]
        default:
            break
        }
        return v
    }

    /// What a dynamics key needs written beside it, by context and key, where the loader
    /// checks a key against others (by hand, or by a rule of `SceneKeys.rules` that the
    /// schema says too): a sliding attachment's axis, a path body's type, a line's other
    /// end, `end` after `begin`, one other end of an attachment.
    static func companions(_ context: String, _ key: String, _ json: String) -> (base: String, value: String)? {
        switch (context, key) {
        case ("attachment", "kind") where json == #""sliding""#:
            return (behaviorBases[context] ?? "", #""sliding", "axisOfTranslation": [1, 0]"#)
        case ("attachment", "attachedTo"): return (#""item": "a""#, json)
        // The anchor's other spellings, one at a time.
        case ("attachment", "anchorPoint"), ("attachment", "attachmentAnchor"): return (#""item": "a""#, json)
        case ("dynamicItem", "collisionBoundsType") where json == #""path""#:
            return ("", #""path", "collisionBoundingPath": "M0 0 L10 0 L10 10 Z""#)
        case ("dynamicItem", "collisionBoundingPath"): return (#""collisionBoundsType": "path""#, json)
        case ("boundary", "from"): return (#""identifier": "w", "to": [10, 0]"#, json)
        case ("boundary", "to"): return (#""identifier": "w", "from": [0, 0]"#, json)
        case ("boundary", "path"): return (#""identifier": "w""#, json)
        case ("boundary", "identifier"): return (#""from": [0, 0], "to": [10, 0]"#, json)
        case ("boundary", _): return (#""identifier": "w", "from": [0, 0], "to": [10, 0]"#, json)
        // `end` after `begin` (0): in range is after it.
        case ("behavior", "end") where json == "0": return nil
        default: return (behaviorBases[context] ?? "", json)
        }
    }

    /// Every key of every dynamics table (`DynamicsTable`: the block, items, the keys
    /// every behavior has, each behavior kind, boundaries, regions) with valid and invalid
    /// values, and an unknown key in each mapping.
    static func dynamicsCases() -> [Case] {
        var cases: [Case] = []
        let layers = #""layers": [{"id": "a", "position": [50, 50], "bounds": [10, 10]}, "#
            + #"{"id": "b", "position": [80, 50], "bounds": [10, 10]}]"#
        func behavior(_ kind: String, _ body: String) -> String { #"{"behaviors": [{""# + kind + "\": {\(body)}}]}" }
        /// The `dynamics:` mapping with `body` written in the mapping of `context`.
        func dynamics(_ context: String, _ body: String) -> String {
            switch context {
            case "dynamics": "{\(body)}"
            case "dynamicItem": #"{"items": {"a": {"# + body + "}}}"
            case "behavior": behavior("gravity", #""items": ["a"], "# + body)
            case "boundary": behavior("collision", #""items": ["a"], "boundaries": [{"# + body + "}]")
            case "region": behavior("field", #""kind": "radialGravity", "items": ["a"], "region": {"# + body + "}")
            default: behavior(context, body)
            }
        }
        func scene(_ context: String, _ body: String) -> String {
            "{\(head), \(layers), \"dynamics\": \(dynamics(context, body))}"
        }
        func joined(_ base: String, _ pair: String) -> String { base.isEmpty ? pair : base + ", " + pair }
        for (context, keys) in DynamicsTable.contexts.sorted(by: { $0.key < $1.key }) {
            let ownBase = behaviorBases[context] ?? ""
            for key in keys where !ownBase.contains("\"\(key.name)\"") {
                for (json, valid) in values(key) {
                    guard let (base, value) = companions(context, key.name, json) else { continue }
                    cases.append(Case(label: "\(context).\(key.name): \(value)",
                                      json: scene(context, joined(base, "\"\(key.name)\": \(value)")), valid: valid))
                }
            }
            let base = companions(context, "", "")?.base ?? ownBase
            cases.append(Case(label: "\(context).bogusKey", json: scene(context, joined(base, #""bogusKey": 1"#)), valid: false))
        }
        return cases
    }

    /// Whether `jsonschema` accepts each document, in order.
    static func schemaVerdicts(_ documents: [String]) throws -> [Bool] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let schema = dir.appendingPathComponent("schema.json"), docs = dir.appendingPathComponent("docs.json")
        try SceneSchema.json().write(to: schema, atomically: true, encoding: .utf8)
        try ("[" + documents.joined(separator: ",\n") + "]").write(to: docs, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, jsonschema
            s = json.load(open(sys.argv[1])); jsonschema.Draft202012Validator.check_schema(s)
            v = jsonschema.Draft202012Validator(s)
            print(json.dumps([v.is_valid(d) for d in json.load(open(sys.argv[2]))]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema.path, docs.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let verdicts = try JSONSerialization.jsonObject(with: data) as? [Bool] else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey:
                "python3 with jsonschema is needed (make deps installs python3-jsonschema)"])
        }
        return verdicts
    }

    func check(_ cases: [Case]) throws {
        #expect(cases.count > 100)
        let verdicts = try Self.schemaVerdicts(cases.map(\.json))
        try #require(verdicts.count == cases.count)
        for (c, schemaAccepts) in zip(cases, verdicts) {
            let problems = loadProblems(c.json, file: "walk.json")
            let loaderAccepts = problems.isEmpty
            #expect(loaderAccepts == c.valid, "loader \(loaderAccepts ? "accepts" : "refuses") \(c.label): \(problems.map(\.description))")
            #expect(schemaAccepts == c.valid, "schema \(schemaAccepts ? "accepts" : "refuses") \(c.label)")
        }
    }

    /// What JSON cannot write: YAML 1.1's plain booleans, a plain quoted-looking number and a
    /// null text, which YAML 1.2 (an editor's reading, and the schema's) makes text or none.
    @Test func yamlOnlySpellingsAreRefusedWhereWritten() {
        let scene = "kinetic: 1\nscene: {size: [100, 100], duration: 1}\nlayers:\n  - id: a\n    type: text\n"
        let cases: [(line: String, expected: String)] = [
            ("hidden: yes", "t.yaml:6:13: layers[0].hidden: expected true or false, found 'yes' (YAML 1.2 reads it as text: write true)"),
            ("hidden: off", "t.yaml:6:13: layers[0].hidden: expected true or false, found 'off' (YAML 1.2 reads it as text: write false)"),
            ("opacity: '0.5'", "t.yaml:6:14: layers[0].opacity: expected a number, found the string '0.5' (quoted)"),
            ("string: ~", "t.yaml:6:13: layers[0].string: expected text, found null (quote it to mean the word)"),
            ("string: 42", "t.yaml:6:13: layers[0].string: expected text, found the number 42 (quote it to mean the text)"),
        ]
        for c in cases {
            #expect(loadProblems(scene + "    \(c.line)\n").map(\.description) == [c.expected])
        }
    }

    @Test func everyLayerKeyIsJudgedAlikeByTheLoaderAndTheSchema() throws { try check(Self.layerCases()) }

    @Test func everyCellKeyIsJudgedAlikeByTheLoaderAndTheSchema() throws { try check(Self.cellCases()) }

    @Test func everyDynamicsKeyIsJudgedAlikeByTheLoaderAndTheSchema() throws { try check(Self.dynamicsCases()) }

    @Test func everySceneKeyIsJudgedAlikeByTheLoaderAndTheSchema() throws { try check(Self.sceneKeyCases()) }
}
