import Foundation
import Testing
import KineticDynamics
import KineticLayers
@testable import KineticScene

/// The loader (`validate`) and the JSON Schema (`kinetic schema`) judge every value alike:
/// each entry of the layer and emitter-cell tables is written with values of its kind
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
        case .value, .values, .timingFunction, .timingFunctions, .countOrForever, .mapping, .mappings:
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

    /// A valid body of each behavior kind, for its other keys to be written into.
    static let behaviorBases: [String: String] = [
        "gravity": #""items": ["a"]"#, "collision": #""items": ["a"]"#, "push": #""items": ["a"]"#,
        "attachment": #""item": "a", "attachedToAnchor": [0, 0]"#, "snap": #""item": "a", "snapPoint": [0, 0]"#,
        "itemBehavior": #""items": ["a"]"#, "field": #""kind": "radialGravity", "items": ["a"]"#,
    ]

    /// Every number key of every behavior kind (the `DynamicsSchema` table) in and out of
    /// its range, every choice with its names and another, and an unknown key.
    static func behaviorCases() -> [Case] {
        var cases: [Case] = []
        let layers = #""layers": [{"id": "a", "position": [50, 50], "bounds": [10, 10]}]"#
        func scene(_ kind: String, _ body: String) -> String {
            "{\(head), \(layers), \"dynamics\": {\"behaviors\": [{\"\(kind)\": {\(body)}}]}}"
        }
        for (kind, _, _) in DynamicsSchema.behaviorKinds {
            let base = behaviorBases[kind] ?? ""
            for key in (DynamicsSchema.contexts[kind] ?? []) + (DynamicsSchema.contexts["behavior"] ?? []) {
                // What the schema cannot say is left out: the anchor's other spellings (one
                // at a time) and `end` after `begin` (written in range below).
                guard !base.contains("\"\(key.name)\""), !(kind == "attachment" && ["anchorPoint", "attachmentAnchor"].contains(key.name))
                else { continue }
                var values: [(String, Bool)] = []
                switch key.kind {
                case .number:
                    values += [(#""abc""#, false), (#""1""#, false)]
                    if let r = key.range {
                        values.append((key.name == "end" ? "1" : ValueRange.format(r.lowerOpen ? r.lower + 0.5 : r.lower), true))
                        if r.lower > -1e300 { values.append((ValueRange.format(r.lowerOpen ? r.lower : r.lower - 1), false)) }
                        if r.upper < 1e300 { values.append((ValueRange.format(r.upper * 2 + 1), false)) }
                    }
                case .choice(let names):
                    // A sliding attachment needs its axis (a key across keys, which the schema cannot say).
                    values += names.map { ($0 == "sliding" ? #""sliding", "axisOfTranslation": [1, 0]"# : "\"\($0)\"", true) }
                        + [(#""bogus""#, false)]
                case .bool:
                    values += [("true", true), (#""maybe""#, false), (#""true""#, false), (#""yes""#, false)]
                case .point:
                    values += [("[1, 2]", true), ("[1]", false)]
                default:
                    break
                }
                for (json, valid) in values {
                    cases.append(Case(label: "\(kind).\(key.name): \(json)", json: scene(kind, base + ", \"\(key.name)\": \(json)"),
                                      valid: valid))
                }
            }
            cases.append(Case(label: "\(kind) valid", json: scene(kind, base), valid: true))
            cases.append(Case(label: "\(kind).bogusKey", json: scene(kind, base + #", "bogusKey": 1"#), valid: false))
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

    @Test func everyBehaviorKeyIsJudgedAlikeByTheLoaderAndTheSchema() throws { try check(Self.behaviorCases()) }
}
