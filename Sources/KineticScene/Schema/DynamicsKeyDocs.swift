import KineticDynamics

/// The `KeyDocs` entries of the `dynamics:` block, made from `DynamicsSchema` (the table
/// the behaviors validate against and the loader takes its keys from): JSON Schema for
/// each key's value kind and range, its doc with Apple's name, and its default.
extension KeyDocs {
    /// The dynamics contexts (`dynamics`, `dynamicItem`, `behavior`, each behavior kind,
    /// `boundary`, `region`, and `behaviorKinds`, whose keys are the kinds).
    static var dynamicsTable: [String: [String: S]] {
        var table: [String: [String: S]] = ["behaviorKinds": [:]]
        for (context, keys) in DynamicsSchema.contexts {
            table[context] = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, doc(of: $0)) })
        }
        return table
    }

    /// The behavior kinds' descriptions.
    static var behaviorDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: DynamicsSchema.behaviorKinds.map { ($0.name, $0.doc) })
    }

    private static func doc(of key: DynamicsKey) -> S {
        let text = key.doc + (key.apple.map { " (\($0))" } ?? "")
        let defaultValue: Any? = switch key.defaultValue {
        case .number(let v)?: v == v.rounded() && abs(v) < 1e15 ? Int(v) as Any : v as Any
        case .point(let x, let y)?: [x, y].map { $0 == $0.rounded() ? Int($0) as Any : $0 as Any }
        case .bool(let b)?: b
        case .string(let s)?: s
        case nil: nil
        }
        return d(schema(of: key), text, defaultValue)
    }

    private static func schema(of key: DynamicsKey) -> S {
        switch key.kind {
        case .number:
            guard let r = key.range else { return number }
            return number(min: r.lowerOpen ? nil : r.lower, max: r.upper.isFinite && r.upper < 1e300 ? r.upper : nil,
                          above: r.lowerOpen ? r.lower : nil)
        case .integer:
            return integer(min: key.range.map { Int($0.lower) }, max: key.range.map { Int($0.upper) })
        case .angle: return angle
        case .point: return point
        case .rect: return rect
        case .bool: return bool
        case .string, .item: return string
        case .items: return strings
        case .path: return path
        case .pathOrLayer: return oneOf(path, string)
        case .choice(let values): return choice(values)
        case .numbers(let n): return ["type": "array", "items": number, "minItems": n, "maxItems": n]
        case .object(let context): return ref(context)
        case .list(let context): return list(ref(context))
        case .byItem(let context): return ["type": "object", "additionalProperties": ref(context)]
        }
    }
}
