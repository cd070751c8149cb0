/// User text as messages echo it: on one line and short.
///
/// A message is one `FILE:LINE:COL: key: message` line; a value that carries a newline,
/// U+2028 or another control character must not start a line of its own (a CI log parser
/// would read a forged location), and a multi-megabyte value must not become a
/// multi-megabyte message.
public enum EchoedText {
    /// `text` with every control character (C0, DEL, C1, U+2028, U+2029) written as an
    /// escape (`\n`, `\t`, `\u{2028}`), cut to `limit` characters with `…` marking the cut.
    public static func printable(_ text: String, limit: Int = 600) -> String {
        // The common case, a short plain message, is returned as it is.
        if text.utf8.count <= limit, !text.unicodeScalars.contains(where: isControl) { return text }
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where isControl(scalar): piece = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: piece = String(scalar)
            }
            if count + piece.count > limit {
                out += "…"
                break
            }
            out += piece
            count += piece.count
        }
        return out
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
    }
}
