/// A string as a JSON string literal, written the one way every JSON file Kinetic writes
/// spells it (Lottie exports, state goldens, scenes built in Swift): quotes, backslashes
/// and control characters escaped, with RFC 8259's short forms where it has one
/// (`\b \f \n \r \t`) and `\u00XX` otherwise; `/` and everything from U+0020 on as is.
/// These are JSONSerialization's choices (with `.withoutEscapingSlashes`), so state
/// goldens written by it read back byte for byte.
package enum JSONString {
    /// `s` quoted.
    package static func quoted(_ s: String) -> String {
        var out = ""
        append(s, to: &out)
        return out
    }

    /// Appends `s` quoted to `out` (a writer building a large document).
    package static func append(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
