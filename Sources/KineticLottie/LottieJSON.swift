import KineticFiles

/// A JSON value written with its keys in insertion order and its numbers rounded to a
/// fixed number of decimals, so the same animation always gives the same bytes (Foundation's
/// JSONSerialization orders neither keys nor digits reliably across platforms).
public enum LottieJSON: Equatable, Sendable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case array([LottieJSON])
    case object([(String, LottieJSON)])
    case null

    public static func == (a: LottieJSON, b: LottieJSON) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.bool(x), .bool(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.null, .null): true
        default: false
        }
    }

    /// The value under `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> LottieJSON? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// The serialized text, compact (no spaces), numbers with at most 4 decimals: a
    /// thousandth of a point or percent is far below what a player can show.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .number(let v): out += Self.format(v)
        case .string(let s): JSONString.append(s, to: &out)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSONString.append(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A number rounded to 4 decimals, without trailing zeros; a non-finite one (which
    /// JSON cannot spell) as 0.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (value * 10_000).rounded()
        guard abs(scaled) < 9e15 else { return String(Int64(value.rounded())) }
        var n = Int64(scaled)
        if n == 0 { return "0" }
        let negative = n < 0
        if negative { n = -n }
        let whole = n / 10_000
        var fraction = n % 10_000
        var text = (negative ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = 4
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }
}

extension LottieJSON: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: LottieJSON...) { self = .array(elements) }

    /// An array of numbers.
    static func numbers(_ values: [Double]) -> LottieJSON { .array(values.map { .number($0) }) }
}
