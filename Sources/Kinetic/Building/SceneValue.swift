import Foundation
import KineticFiles

/// A value of a scene file written in Swift: a number, a string, a flag, a list or a
/// mapping, as YAML holds them. Literals convert: `0.5`, `"red"`, `[10, 20]`.
///
/// Built scenes are written out as scene text and loaded through the one loader, so a
/// built value is checked exactly as the same value in a file is.
public indirect enum SceneValue: Sendable, Equatable {
    case number(Double)
    case integer(Int)
    case string(String)
    case bool(Bool)
    case list([SceneValue])
    /// Keys in the order given (the order they are written in).
    case mapping([(String, SceneValue)])

    public static func == (a: SceneValue, b: SceneValue) -> Bool { a.json == b.json }

    /// The value as JSON text (valid YAML), keys in their given order.
    var json: String {
        switch self {
        case .number(let v):
            // Whole numbers print without a fraction; others with Swift's shortest round-trip form.
            v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
        case .integer(let v): String(v)
        case .bool(let v): v ? "true" : "false"
        case .string(let v): JSONString.quoted(v)
        case .list(let items): "[" + items.map(\.json).joined(separator: ", ") + "]"
        case .mapping(let entries): "{" + entries.map { JSONString.quoted($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}"
        }
    }
}

extension SceneValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, SceneValue)...) { self = .mapping(elements) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: SceneValue...) { self = .list(elements) }
}
