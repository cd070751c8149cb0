/// A default value as the docs and the JSON schema print it.
public enum DocValue: Sendable, Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case numbers([Double])
    case strings([String])

    /// As YAML writes it, for the key reference.
    public var text: String {
        switch self {
        case .number(let v): ValueRange.format(v)
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .numbers(let v): "[" + v.map(ValueRange.format).joined(separator: ", ") + "]"
        case .strings(let s): "[" + s.joined(separator: ", ") + "]"
        }
    }
}

