/// What JSON itself forbids, checked before a `.json` scene is read as YAML.
///
/// A JSON file is read by the YAML parser (JSON is YAML 1.2), which is more lenient:
/// it takes trailing commas and `#` comments, and refuses the surrogate-pair escapes
/// (`"\ud83d\ude00"`) that JSON writers emit for characters past U+FFFF. This pass
/// checks RFC 8259's grammar, locating the first error, and rewrites each surrogate
/// pair as YAML's `\U0001F600` (two characters shorter: a later error on that line is
/// placed two columns early).
enum JSONSyntax {
    struct Failure: Error, Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    /// The text to give the YAML parser, or where the text stops being JSON.
    static func check(_ text: String) -> Result<String, Failure> {
        var scanner = Scanner(Array(text.unicodeScalars))
        do {
            try scanner.document()
        } catch {
            return .failure(error)
        }
        guard !scanner.pairs.isEmpty else { return .success(text) }
        var out = String.UnicodeScalarView()
        var from = 0
        for pair in scanner.pairs {
            out.append(contentsOf: scanner.s[from..<pair.start])
            out.append(contentsOf: yamlEscape(pair.scalar).unicodeScalars)
            from = pair.start + 12
        }
        out.append(contentsOf: scanner.s[from...])
        return .success(String(out))
    }

    /// YAML's eight-digit escape of `scalar`: `\U0001F600`.
    private static func yamlEscape(_ scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        return "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// An iterative recursive-descent scanner (an explicit stack: nesting depth costs
    /// no call stack).
    private struct Scanner {
        let s: [Unicode.Scalar]
        var i = 0, line = 1, lineStart = 0
        var pairs: [(start: Int, scalar: UInt32)] = []

        init(_ s: [Unicode.Scalar]) { self.s = s }

        func fail(_ message: String, at index: Int? = nil) -> Failure {
            let at = index ?? i
            return Failure(message: "JSON syntax error: " + message, line: line, column: at - lineStart + 1)
        }

        var current: Unicode.Scalar? { i < s.count ? s[i] : nil }

        mutating func skipSpace() {
            while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" {
                if c == "\n" { line += 1; lineStart = i + 1 }
                i += 1
            }
        }

        enum Frame { case object, array }

        mutating func document() throws(Failure) {
            skipSpace()
            var stack: [Frame] = []
            try value(&stack)
            while let top = stack.last {
                skipSpace()
                guard let c = current else { throw fail("the text ends inside an \(top == .object ? "object" : "array")") }
                if c == "," {
                    i += 1
                    skipSpace()
                    if let n = current, n == "}" || n == "]" { throw fail("a trailing comma (JSON allows none)", at: i) }
                    if top == .object { try member() }
                    try value(&stack)
                } else if c == (top == .object ? "}" : "]") {
                    i += 1
                    stack.removeLast()
                } else {
                    throw fail(c == "/" || c == "#" ? "a comment (JSON has none)" : "expected ',' or '\(top == .object ? "}" : "]")'")
                }
            }
            skipSpace()
            if let c = current {
                throw fail(c == "/" || c == "#" ? "a comment (JSON has none)" : "text after the document's end")
            }
        }

        /// A key and its colon.
        mutating func member() throws(Failure) {
            skipSpace()
            guard current == "\"" else {
                throw fail(current == "}" ? "a trailing comma (JSON allows none)"
                           : current == "/" || current == "#" ? "a comment (JSON has none)" : "expected a quoted key")
            }
            try string()
            skipSpace()
            guard current == ":" else { throw fail("expected ':' after the key") }
            i += 1
        }

        /// One value; an object or array opens a frame the caller's loop closes.
        mutating func value(_ stack: inout [Frame]) throws(Failure) {
            skipSpace()
            guard let c = current else { throw fail("expected a value, the text ends") }
            switch c {
            case "{":
                i += 1
                skipSpace()
                if current == "}" { i += 1; return }
                stack.append(.object)
                try member()
                try value(&stack)
            case "[":
                i += 1
                skipSpace()
                if current == "]" { i += 1; return }
                stack.append(.array)
                try value(&stack)
            case "\"": try string()
            case "-", "0"..."9": try number()
            case "t": try word("true")
            case "f": try word("false")
            case "n": try word("null")
            case "/", "#": throw fail("a comment (JSON has none)")
            default: throw fail("unexpected '\(c.escaped(asASCII: true))'")
            }
        }

        mutating func word(_ w: String) throws(Failure) {
            for expected in w.unicodeScalars {
                guard current == expected else { throw fail("expected '\(w)'") }
                i += 1
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
                        if (0xD800...0xDBFF).contains(high) {
                            guard current == "\\", i + 1 < s.count, s[i + 1] == "u", let low = hex4(at: i + 2),
                                  (0xDC00...0xDFFF).contains(low) else {
                                throw fail("a lone surrogate \\u\(String(high, radix: 16)) is not a character", at: escape)
                            }
                            i += 6
                            pairs.append((escape, 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)))
                        } else if (0xDC00...0xDFFF).contains(high) {
                            throw fail("a lone surrogate \\u\(String(high, radix: 16)) is not a character", at: escape)
                        }
                    default: throw fail("'\\\(e.escaped(asASCII: true))' is not a JSON escape", at: escape)
                    }
                case _ where c.value < 0x20: throw fail("a control character in a string (write it as an escape)")
                default: i += 1
                }
            }
            throw fail("the text ends inside a string")
        }

        func hex4(at k: Int) -> UInt32? {
            guard k + 4 <= s.count else { return nil }
            var v: UInt32 = 0
            for c in s[k..<(k + 4)] {
                guard let d = Self.hexValue(c) else { return nil }
                v = v << 4 | d
            }
            return v
        }

        static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
            switch c {
            case "0"..."9": c.value - 48
            case "a"..."f": c.value - 87
            case "A"..."F": c.value - 55
            default: nil
            }
        }
    }
}
