import Foundation
import KineticAnimation
import KineticDynamics
import KineticGeometry
import KineticLayers

/// The JSON Schema (draft 2020-12) of the scene format, for editors (`kinetic schema`).
///
/// Every mapping's keys, kinds, ranges, defaults and descriptions come from the tables
/// that describe each key once (`KeyDocs` generates them): the loader's key lists are
/// those tables' names (a test holds the lists it keeps itself to them, and loads each
/// key of the mappings it checks inline to prove it takes it).
public enum SceneSchema {
    /// The schema as pretty-printed JSON with sorted keys (stable for a committed copy).
    public static func json() -> String {
        let data = (try? JSONSerialization.data(withJSONObject: document(),
                                                options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The keys of one mapping, as its table names them.
    static func keys(of context: String) -> [String] {
        KeyDocs.table[context].map { $0.keys.sorted() } ?? []
    }

    /// The properties of one mapping, each with its schema and description.
    static func properties(_ context: String, except: Set<String> = []) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys(of: context) where !except.contains(key) {
            result[key] = KeyDocs.table[context]?[key] ?? ["description": "(not yet described)"]
        }
        // Apple's names Kinetic leaves out: refused here as the loader refuses them.
        for (name, detail) in UnsupportedAppleNames.refused(in: [context]) where result[name] == nil {
            result[name] = ["not": [String: Any](), "description": UnsupportedAppleNames.message(name, detail)]
        }
        return result
    }

    static func object(_ context: String, except: Set<String> = []) -> [String: Any] {
        var o: [String: Any] = ["type": "object", "properties": properties(context, except: except),
                                "additionalProperties": false]
        if let required = SceneKeys.required[context] { o["required"] = required }
        if let forms = SceneKeys.requiredByForm[context] { o["anyOf"] = forms.map { ["required": $0] } }
        // The rules between its keys (`SceneKeys.rules`), each where its key is given.
        let rules = Dictionary(grouping: SceneKeys.rules[context] ?? [], by: \.key).mapValues { rules -> Any in
            ["allOf": rules.flatMap { rule -> [[String: Any]] in
                let needs = rule.requires.map { [["required": [$0.key], "properties": [$0.key: ["enum": $0.values]]]] }
                return rule.excludes.map { ["not": ["required": [$0]]] } + (needs ?? [])
            }]
        }
        if !rules.isEmpty { o["dependentSchemas"] = rules }
        return o
    }

    static func names<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [String] where E.RawValue == String {
        E.allCases.map(\.rawValue)
    }

    static func document() -> [String: Any] {
        // A layer: the common keys, and its type's own keys when `type` says so.
        let typeKeys: [(LayerType, String)] = [(.shape, "shape"), (.gradient, "gradient"), (.text, "text"),
                                                (.emitter, "emitter"), (.replicator, "replicator")]
        // Its rules as `object` gives them; its keys those of `allOf` too.
        var layer = object("layer")
        layer["additionalProperties"] = nil
        layer["description"] = "A layer (CALayer and its subclasses, by `type`)."
        layer["allOf"] = typeKeys.map { type, context -> [String: Any] in
            ["if": ["properties": ["type": ["const": type.rawValue]], "required": ["type"]],
             "then": ["properties": properties(context)]]
        }
        layer["unevaluatedProperties"] = false
        let behaviorKinds = DynamicsTable.behaviorKinds.map(\.name)
        let behavior: [String: Any] = [
            "type": "object",
            "description": "One UIKit Dynamics behavior, as `- KIND: {…}`.",
            "properties": Dictionary(uniqueKeysWithValues: behaviorKinds.map { kind -> (String, Any) in
                var body = object(kind)
                var props = body["properties"] as? [String: Any] ?? [:]
                props.merge(properties("behavior")) { own, _ in own }
                body["properties"] = props
                body["description"] = KeyDocs.behaviorDescriptions[kind] ?? "(not yet described)"
                return (kind, body)
            }),
            "minProperties": 1, "maxProperties": 1, "additionalProperties": false,
        ]
        // An event: when (`at` or `on`) and the actions themselves, or `do` with delays.
        var event = object("event")
        event["properties"] = properties("event").merging(properties("action")) { own, _ in own }
        var golden = object("golden")
        golden["description"] = "Golden frames checked by `kinetic golden check` (docs/golden.md)."
        let defs: [String: Any] = [
            "expression": ["type": "string", "pattern": #"^\s*="#,
                           "description": "An expression (section 4): `= …` over t, frame, functions and references ID.KEYPATH."],
            "number": ["anyOf": [["type": "number"], ["$ref": "#/$defs/expression"]], "description": "A number or an expression."],
            "angle": ["anyOf": [["type": "number"], ["type": "string", "pattern": #"^\s*[-+]?[0-9.]+([eE][-+]?[0-9]+)?\s*deg\s*$"#],
                                ["$ref": "#/$defs/expression"]],
                      "description": "Radians, or degrees written \"45deg\", or an expression."],
            "point": ["anyOf": [["type": "array", "items": ["$ref": "#/$defs/number"], "minItems": 2, "maxItems": 2],
                                ["type": "string", "pattern": #"^\s*[=@]"#]],
                      "description": "[x, y] in points, or a reference \"@ID\" / expression."],
            "size": ["type": "array", "items": ["$ref": "#/$defs/number"], "minItems": 2, "maxItems": 2,
                     "description": "[width, height] in points."],
            // The loader refuses a written negative width or height (`Field.rectTerms`).
            "rect": ["type": "array", "minItems": 4, "maxItems": 4,
                     "prefixItems": [["$ref": "#/$defs/number"], ["$ref": "#/$defs/number"],
                                     ["anyOf": [["type": "number", "minimum": 0], ["$ref": "#/$defs/expression"]]],
                                     ["anyOf": [["type": "number", "minimum": 0], ["$ref": "#/$defs/expression"]]]],
                     "description": "[x, y, width, height] in points (width and height not negative)."],
            // The forms `Field.color` reads: hexadecimal, rgb()/rgba() and the names of `ColorNames`.
            "color": ["anyOf": [["type": "string", "pattern": #"^\s*#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})\s*$"#],
                                ["type": "string", "pattern": #"^\s*rgba?\(.*\)\s*$"#],
                                ["enum": ColorNames.all.keys.sorted()]],
                      "description": "\"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\", rgba(r, g, b, a) or a UIColor name (black, clear, systemBlue, …)."],
            "path": ["anyOf": [["type": "string"], ["$ref": "#/$defs/pathPrimitive"], ["$ref": "#/$defs/svgPath"],
                               ["type": "object", "required": ["shape"],
                                "properties": ["shape": ["enum": names(NamedShape.self)]],
                                "description": "A named shape with its parameters (path.PARAM animates them)."],
                               ["type": "object", "required": ["cubic"], "additionalProperties": false,
                                "properties": ["cubic": ["type": "array", "items": ["$ref": "#/$defs/point"], "minItems": 4, "maxItems": 4]],
                                "description": "A cubic Bézier [p0, c1, c2, p1]; in a shape layer's own path its points may be references (section 3.1)."]],
                     "description": "SVG path data, a primitive, an SVG file's shapes, a named shape or a cubic Bézier (section 3.1)."],
            "filter": ["type": "object", "required": ["gaussianBlur"], "additionalProperties": false,
                       "properties": ["gaussianBlur": ["type": "number", "minimum": 0, "maximum": Field.maximumBlurRadius]],
                       "description": "{gaussianBlur: RADIUS}: a Gaussian of standard deviation RADIUS points."],
            "scene": object("scene"),
            "pathPrimitive": object("pathPrimitive"),
            "svgPath": object("svgPath"),
            "transform": object("transform"),
            "layer": layer,
            "animation": object("animation"),
            "behavior": behavior,
            "action": object("action"),
            "golden": golden,
            "event": event,
        ].merging(["gradient", "dynamics", "emitterCell", "cellContents", "spring", "oscillation", "dynamicItem",
                   "boundary", "region", "trigger", "doAction", "tolerance", "arc", "star"].map { ($0, object($0)) }) { a, _ in a }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://kinetic.invalid/kinetic.schema.json",
            "title": "Kinetic scene",
            "description": "A Kinetic scene file (YAML or JSON): layers, animations, dynamics, events. Generated by `kinetic schema`.",
            "type": "object",
            "properties": properties("top"),
            "required": ["kinetic", "scene"],
            "additionalProperties": false,
            "$defs": defs,
        ]
    }
}
