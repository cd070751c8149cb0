import KineticGeometry
import KineticAnimation
import KineticDynamics
import KineticLayers

/// Each key's value type, range, default and one-line description, by mapping, generated
/// from the tables that describe each key once (`LayerSchema`, `EmitterCellSchema`,
/// `AnimationKeys`, `DynamicsTable`, `SceneKeys`). Computed, not stored: `[String: Any]`
/// is not Sendable, and only `kinetic schema` reads it.
enum KeyDocs {
    typealias S = [String: Any]

    // Value types.
    static func ref(_ name: String) -> S { ["$ref": "#/$defs/\(name)"] }
    static var number: S { ref("number") }
    static var angle: S { ref("angle") }
    static var point: S { ref("point") }
    static var size: S { ref("size") }
    static var rect: S { ref("rect") }
    static var color: S { ref("color") }
    static var path: S { ref("path") }
    static var transform: S { ref("transform") }
    static var string: S { ["type": "string"] }
    static var bool: S { ["type": "boolean"] }
    static var any: S { [:] }
    static func choice(_ values: [String]) -> S { ["enum": values] }
    static func list(_ item: S) -> S { ["type": "array", "items": item] }
    static func oneOf(_ options: S...) -> S { ["anyOf": options] }

    /// `schema` with its description (none for an empty `text`: a key its mapping's
    /// definition describes) and default.
    static func d(_ schema: S, _ text: String, _ defaultValue: Any? = nil) -> S {
        var s = schema
        if !text.isEmpty { s["description"] = text }
        if let defaultValue { s["default"] = defaultValue }
        return s
    }

    /// Every mapping's keys, by context.
    static var table: [String: [String: S]] {
        let layers = LayerSchema.standard
        let groups: [(String, Set<LayerType>?)] = [("layer", nil), ("shape", [.shape]), ("gradient", [.gradient]),
                                                   ("text", [.text]), ("emitter", [.emitter]), ("replicator", [.replicator])]
        var result: [String: [String: S]] = [:]
        for (context, types) in groups {
            result[context] = docs(layers.entries.filter { $0.isFileKey && $0.layerTypes == types })
        }
        result["emitterCell"] = docs(EmitterCellSchema.entries)
        result["animation"] = docs(AnimationKeys.entries)
        for (context, entries) in DynamicsTable.contexts { result[context] = docs(entries) }
        // Their numbers may be constant expressions, folded at load.
        for (context, entries) in SceneKeys.contexts {
            result[context] = Dictionary(uniqueKeysWithValues: entries.map { e in
                (e.name, d(schema(of: e.kind, range: e.range, expressions: true), e.doc, e.defaultValue?.json))
            })
        }
        return result
    }

    /// The behavior kinds' descriptions.
    static var behaviorDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: DynamicsTable.behaviorKinds.map { ($0.name, $0.doc) })
    }

    /// The schema of each dynamics key's value, its doc with Apple's name, and its default.
    static func docs(_ entries: [DynamicsProperty<Void>]) -> [String: S] {
        Dictionary(entries.map { e in
            (e.name, d(schema(of: e.kind, range: e.range, expressions: true, requiresArea: e.name == "referenceBounds"),
                       e.doc + (e.apple.map { " (\($0))" } ?? ""), e.defaultValue?.json))
        }) { first, _ in first }
    }

    /// The schema of each entry's value, with its description and default.
    static func docs<Object>(_ entries: [PropertySpec<Object>]) -> [String: S] {
        Dictionary(entries.map { ($0.name, d(schema(of: $0), $0.doc, $0.defaultValue?.json)) }) { first, _ in first }
    }

    /// The JSON schema of a property's values.
    static func schema<Object>(of spec: PropertySpec<Object>) -> S {
        if spec.kind == .string && Object.self == Layer.self {
            // A layer's id is checked against the pattern (others' ids are any text).
            if spec.name == "id" { return ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"] }
            // A text layer's string: the length the loader takes (TextBounds; the schema
            // cannot say the combining-mark limit, which the loader alone checks).
            if spec.name == "string" { return ["type": "string", "maxLength": TextBounds.maxScalars] }
        }
        if spec.kind == .color && spec.allowsNone { return oneOf(color, ["type": "null"]) }
        return schema(of: spec.kind, range: spec.range, expressions: spec.allowsExpressions)
    }

    /// The JSON schema of a value of `kind` within `range`, which may be an expression
    /// where `expressions` says. `requiresArea`: a rect's width and height must be > 0
    /// (the dynamics' reference bounds), not only ≥ 0.
    static func schema(of kind: PropertyKind, range: ValueRange?, expressions: Bool, requiresArea: Bool = false) -> S {
        func bounded(_ type: String) -> S {
            var n: S = ["type": type]
            if let lo = range?.lowerBound { n[range?.excludesLowerBound == true ? "exclusiveMinimum" : "minimum"] = lo }
            if let hi = range?.upperBound { n["maximum"] = hi }
            return n
        }
        let numberSchema: S = range == nil ? number : expressions ? ["anyOf": [bounded("number"), ref("expression")]]
            : bounded("number")
        switch kind {
        case .number: return numberSchema
        case .angle: return angle
        case .integer: return bounded("integer")
        // A point with a range: each coordinate within it (the dynamics' coordinates).
        case .point:
            guard range != nil else { return point }
            return oneOf(["type": "array", "items": numberSchema, "minItems": 2, "maxItems": 2],
                         ["type": "string", "pattern": #"^\s*[=@]"#])
        // A size with a range: each side within it (a rect's width and height are never negative).
        case .size: return range == nil ? size : ["type": "array", "items": numberSchema, "minItems": 2, "maxItems": 2]
        case .rect:
            guard let range else { return rect }
            // Each coordinate within the range; width and height not negative (the loader
            // refuses a written negative size), or greater than 0 where an area is needed.
            var side = ValueRange(max(range.lowerBound ?? 0, 0), range.upperBound, reason: range.reason)
            side.excludesLowerBound = requiresArea
            let sideSchema = schema(of: .number, range: side, expressions: expressions)
            return ["type": "array", "minItems": 4, "maxItems": 4,
                    "prefixItems": [numberSchema, numberSchema, sideSchema, sideSchema]]
        case .sizeOrRect:
            return oneOf(range == nil ? size : ["type": "array", "items": numberSchema, "minItems": 2, "maxItems": 2], rect)
        case .color: return color
        case .colors: return list(color)
        case .numbers: return list(range == nil ? number : numberSchema)
        case .transform: return transform
        case .path: return path
        case .bool: return bool
        case .image: return string
        case .string, .layerID: return string
        case .layerIDs: return list(string)
        case .pathOrShapeLayer: return oneOf(path, string)
        case .fixedNumbers(let count): return ["type": "array", "items": numberSchema, "minItems": count, "maxItems": count]
        case .mappingsByLayerID(let name): return ["type": "object", "additionalProperties": ref(name)]
        case .choice(let names): return choice(names)
        case .names(let names): return list(choice(names))
        case .filters: return list(ref("filter"))
        case .layer: return ref("layer")
        case .layers: return list(ref("layer"))
        case .numberMap: return ["type": "object", "additionalProperties": number]
        case .cells: return list(ref("emitterCell"))
        case .cellContents: return oneOf(string, ref("cellContents"))
        case .value: return any
        case .values, .timingFunctions: return list(any)
        case .timingFunction:
            return oneOf(choice(AnimationKeys.timingFunctionNames.keys.sorted()),
                         ["type": "array", "items": ["type": "number"], "minItems": 4, "maxItems": 4])
        case .countOrForever: return oneOf(bounded("number"), choice(["forever"]))
        case .mapping(let name): return ref(name)
        case .mappings(let name): return list(ref(name))
        case .integerChoice(let values): return ["enum": values]
        case .list(let item): return list(schema(of: item, range: range, expressions: expressions))
        case .anyOf(let kinds): return ["anyOf": kinds.map { schema(of: $0, range: range, expressions: expressions) }]
        case .numberList(let counts):
            return ["type": "array", "items": numberSchema, "minItems": counts.lowerBound, "maxItems": counts.upperBound]
        case .percentage: return ["type": "string", "pattern": #"^\s*[0-9.]+\s*%$"#]
        case .keyPathValues: return ["type": "object"]
        }
    }
}

extension DocValue {
    /// As JSON.
    var json: Any {
        switch self {
        case .number(let v): v
        case .string(let s): s
        case .bool(let b): b
        case .numbers(let v): v
        case .strings(let s): s
        }
    }
}
