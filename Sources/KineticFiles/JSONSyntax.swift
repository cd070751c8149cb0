/// What JSON itself forbids, checked before a `.json` scene is read as YAML.
///
/// A JSON file is read by the YAML parser (JSON is YAML 1.2), which is more lenient:
/// it takes trailing commas and `#` comments, and refuses the surrogate-pair escapes
/// (`"\ud83d\ude00"`) that JSON writers emit for characters past U+FFFF. This pass
/// checks RFC 8259's grammar, locating the first error, and rewrites each surrogate
/// pair as YAML's `\U0001F600` (two characters shorter: a later error on that line is
/// placed two columns early).
package enum JSONSyntax {
    package struct Failure: Error, Equatable {
        package var message: String
        package var line: Int
        package var column: Int
    }

    /// The text to give the YAML parser, or where the text stops being JSON.
    package static func check(_ text: String) -> Result<String, Failure> {
        var scanner = Scanner(s: Array(text.unicodeScalars))
        do { try scanner.document() } catch { return .failure(error) }
        guard !scanner.pairs.isEmpty else { return .success(text) }
        var out = String.UnicodeScalarView()
        var from = 0
        for pair in scanner.pairs {
            // YAML's eight-digit escape: `\U0001F600`.
            let hex = String(pair.scalar, radix: 16, uppercase: true)
            out.append(contentsOf: scanner.s[from..<pair.start])
            out.append(contentsOf: ("\\U" + String(repeating: "0", count: 8 - hex.count) + hex).unicodeScalars)
            from = pair.start + 12
        }
        out.append(contentsOf: scanner.s[from...])
        return .success(String(out))
    }

    /// An iterative recursive-descent scanner (an explicit stack: nesting depth costs
    /// no call stack).
    private struct Scanner {
        let s: [Unicode.Scalar]
        var i = 0, line = 1, lineStart = 0
        var pairs: [(start: Int, scalar: UInt32)] = []

        func fail(_ message: String, at index: Int? = nil) -> Failure {
            Failure(message: "JSON syntax error: " + message, line: line, column: (index ?? i) - lineStart + 1)
        }

        /// `message`, or that a comment stands here.
        func unexpected(_ message: String) -> Failure {
            fail(current == "/" || current == "#" ? "a comment (JSON has none)" : message)
        }

        var current: Unicode.Scalar? { i < s.count ? s[i] : nil }

        mutating func skipSpace() {
            while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" {
                if c == "\n" { line += 1; lineStart = i + 1 }
                i += 1
            }
        }

        /// An open object or array, named as messages name it.
        enum Frame: String {
            case object, array
            var close: Unicode.Scalar { self == .object ? "}" : "]" }
        }

        mutating func document() throws(Failure) {
            skipSpace()
            var stack: [Frame] = []
            try value(&stack)
            while let top = stack.last {
                skipSpace()
                guard let c = current else { throw fail("the text ends inside an \(top.rawValue)") }
                if c == "," {
                    i += 1
                    skipSpace()
                    if current == "}" || current == "]" { throw fail("a trailing comma (JSON allows none)") }
                    if top == .object { try member() }
                    try value(&stack)
                } else if c == top.close {
                    i += 1
                    stack.removeLast()
                } else {
                    throw unexpected("expected ',' or '\(top.close)'")
                }
            }
            skipSpace()
            if current != nil { throw unexpected("text after the document's end") }
        }

        /// A key and its colon.
        mutating func member() throws(Failure) {
            skipSpace()
            // (A `}` here follows a comma: `document` reports that trailing comma.)
            guard current == "\"" else { throw unexpected("expected a quoted key") }
            try string()
            skipSpace()
            guard current == ":" else { throw fail("expected ':' after the key") }
            i += 1
        }

        /// One value. An object or array opens a frame the caller's loop closes, and its
        /// first value is read by this loop, not a call: depth costs no call stack.
        mutating func value(_ stack: inout [Frame]) throws(Failure) {
            while true {
                skipSpace()
                guard let c = current else { throw fail("expected a value, the text ends") }
                switch c {
                case "{", "[":
                    let frame: Frame = c == "{" ? .object : .array
                    i += 1
                    skipSpace()
                    if current == frame.close { i += 1; return }
                    stack.append(frame)
                    if frame == .object { try member() }
                    continue
                case "\"": try string()
                case "-", "0"..."9": try number()
                case "t", "f", "n":
                    let word = c == "t" ? "true" : c == "f" ? "false" : "null"
                    for expected in word.unicodeScalars {
                        guard current == expected else { throw fail("expected '\(word)'") }
                        i += 1
                    }
                default: throw unexpected("unexpected '\(c.escaped(asASCII: true))'")
                }
                return
            }
        }

        mutating func number() throws(Failure) {
            let start = i
            if current == "-" { i += 1 }
            func digits() -> Int { var n = 0; while let c = current, ("0"..."9").contains(c) { i += 1; n += 1 }; return n }
            if current == "0" { i += 1 } else if digits() == 0 { throw fail("a malformed number", at: start) }
            if current == "." { i += 1; guard digits() > 0 else { throw fail("a malformed number", at: start) } }
            if current == "e" || current == "E" {
                i += 1
                if current == "+" || current == "-" { i += 1 }
                guard digits() > 0 else { throw fail("a malformed number", at: start) }
            }
        }

        mutating func string() throws(Failure) {
            i += 1  // the opening quote
            while let c = current {
                switch c {
                case "\"": i += 1; return
                case "\\":
                    let escape = i
                    i += 1
                    guard let e = current else { throw fail("the text ends inside a string") }
                    switch e {
                    case "\"", "\\", "/", "b", "f", "n", "r", "t": i += 1
                    case "u":
                        guard let high = hex4(at: i + 1) else { throw fail("a \\u escape needs four hex digits", at: escape) }
                        i += 5
                        guard (0xD800...0xDFFF).contains(high) else { continue }
                        // A high surrogate, then a low one.
                        guard high < 0xDC00, current == "\\", i + 1 < s.count, s[i + 1] == "u",
                              let low = hex4(at: i + 2), (0xDC00...0xDFFF).contains(low) else {
                            throw fail("a lone surrogate \\u\(String(high, radix: 16)) is not a character", at: escape)
                        }
                        i += 6
                        pairs.append((escape, 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)))
                    default: throw fail("'\\\(e.escaped(asASCII: true))' is not a JSON escape", at: escape)
                    }
                case _ where c.value < 0x20: throw fail("a control character in a string (write it as an escape)")
                default: i += 1
                }
            }
            throw fail("the text ends inside a string")
        }

        /// The four hex digits at `k` (no sign: `UInt32` would read `+FFF`).
        func hex4(at k: Int) -> UInt32? {
            guard k + 4 <= s.count else { return nil }
            let digits = s[k..<(k + 4)]
            return digits.allSatisfy(\.properties.isASCIIHexDigit) ? UInt32(String(String.UnicodeScalarView(digits)), radix: 16) : nil
        }
    }
}
