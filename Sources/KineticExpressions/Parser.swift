import KineticGeometry
/// Recursive descent over tokens lexed on demand, so that the first error by position is
/// the one reported, and so that `.` after a name is read as a path separator while `.5`
/// elsewhere is a number.
struct Parser {
    private let characters: [Character]
    private let source: String
    /// Next character to lex.
    private var position = 0
    private var token = Token(kind: .end, offset: 0, text: "")
    private var references: [SceneExpression.Reference] = []
    private var randomCallCount: UInt64 = 0
    private var usesTime = false
    /// Current recursion depth, bounded so that a hostile file cannot overflow the stack.
    private var nesting = 0
    /// Far beyond any hand-written expression; keeps parsing and evaluation recursion
    /// within a thread's stack.
    static let maximumDepth = 256

    init(_ source: String) {
        self.source = source
        characters = Array(source)
    }

    mutating func parseExpression() throws(ExpressionError) -> SceneExpression {
        try advance()
        let root = try additive()
        switch token.kind {
        case .end:
            break
        case .symbol(let c) where c == ")" || c == "]" || c == ",":
            throw ExpressionError(offset: token.offset, message: "unexpected '\(c)'")
        default:
            throw ExpressionError(offset: token.offset, message: "expected an operator, found \(token.quoted)")
        }
        return SceneExpression(source: source, root: root, references: references,
                               usesRandom: randomCallCount > 0, usesTime: usesTime)
    }

    // MARK: Grammar

    private mutating func additive() throws(ExpressionError) -> Node {
        var lhs = try term()
        while let op = binaryOperator(in: [.add, .subtract]) {
            let offset = token.offset
            try advance()
            lhs = try combined(.binary(op, lhs, try term()), at: offset)
        }
        return lhs
    }

    private mutating func term() throws(ExpressionError) -> Node {
        var lhs = try unary()
        while let op = binaryOperator(in: [.multiply, .divide]) {
            let offset = token.offset
            try advance()
            lhs = try combined(.binary(op, lhs, try unary()), at: offset)
        }
        return lhs
    }

    /// Every nested sub-expression, bracket or operand of `-` and `^` passes here.
    private mutating func unary() throws(ExpressionError) -> Node {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maximumDepth else { throw tooDeep(at: token.offset) }
        guard token.isSymbol("-") else { return try power() }
        let offset = token.offset
        try advance()
        return try combined(.negate(try unary()), at: offset)
    }

    /// The exponent is a `unary`, which itself reaches `power`: right-associative, and
    /// `2^-1` is allowed, while `-2^2` negates the power.
    private mutating func power() throws(ExpressionError) -> Node {
        let base = try postfix()
        guard token.isSymbol("^") else { return base }
        let offset = token.offset
        try advance()
        return try combined(.binary(.power, base, try unary()), at: offset)
    }

    private mutating func postfix() throws(ExpressionError) -> Node {
        var node = try primary()
        while token.isSymbol(".") {
            let offset = token.offset
            try advance()
            guard case .name(let name) = token.kind, let axis = Self.axis(name) else {
                throw ExpressionError(offset: token.offset, message: "expected 'x' or 'y' after '.'")
            }
            try advance()
            node = try combined(.component(node, axis), at: offset)
        }
        return node
    }

    private mutating func primary() throws(ExpressionError) -> Node {
        let offset = token.offset
        switch token.kind {
        case .number(let value):
            try advance()
            return Node(kind: .number(value), offset: offset)
        case .symbol("("):
            try advance()
            let inner = try additive()
            guard token.isSymbol(")") else { throw expected("')'") }
            try advance()
            return inner
        case .symbol("["):
            try advance()
            let components = try list(closedBy: "]")
            guard components.count == 2 else {
                throw ExpressionError(offset: offset, message: "a point has 2 components, found \(components.count)")
            }
            return try combined(.vector(components[0], components[1]), at: offset)
        case .pointReference(let id):
            try advance()
            let path = try dottedPath()
            // `@ID` is ID.position; `.x`/`.y` alone are its components (no layer key is x or y).
            let keyPath = path.isEmpty ? "position"
                : path.count == 1 && Self.axis(path[0]) != nil ? "position.\(path[0])"
                : path.joined(separator: ".")
            return reference(id: id, keyPath: keyPath, offset: offset + 1)
        case .name(let name):
            try advance()
            return try named(name, offset: offset)
        case .end, .symbol:
            throw expected("a number or a name")
        }
    }

    /// A function call, a reference, a variable or a constant; `name` is already consumed.
    private mutating func named(_ name: String, offset: Int) throws(ExpressionError) -> Node {
        if token.isSymbol("(") {
            guard let function = Function(rawValue: name) else {
                throw ExpressionError(offset: offset, message: "unknown function '\(name)'"
                    + NameSuggestion.hint(for: name, in: Function.allCases.map(\.rawValue)))
            }
            try advance()
            let arguments = try list(closedBy: ")")
            guard function.arity.accepts(arguments.count) else {
                throw ExpressionError(offset: offset,
                    message: "\(name) \(function.arity.phrase), found \(arguments.count)")
            }
            if function == .random {
                defer { randomCallCount += 1 }
                return Node(kind: .random(callSite: randomCallCount), offset: offset)
            }
            return try combined(.call(function, arguments), at: offset)
        }
        if token.isSymbol(".") {
            return reference(id: name, keyPath: try dottedPath().joined(separator: "."), offset: offset)
        }
        switch name {
        case "t":
            usesTime = true
            return Node(kind: .time, offset: offset)
        case "frame":
            usesTime = true
            return Node(kind: .frame, offset: offset)
        case "pi":
            return Node(kind: .number(.pi), offset: offset)
        default:
            if Function(rawValue: name) != nil {
                throw expected("'(' after '\(name)'")
            }
            let hint = NameSuggestion.hint(for: name, in: ["t", "frame", "pi"])
            throw ExpressionError(offset: offset, message: "unknown name '\(name)'" + (hint.isEmpty
                ? " (a reference names a property: '\(name).position.x')" : hint))
        }
    }

    /// `.name.name…` after an id; empty when no `.` follows.
    private mutating func dottedPath() throws(ExpressionError) -> [String] {
        var path: [String] = []
        while token.isSymbol(".") {
            try advance()
            guard case .name(let name) = token.kind else {
                throw ExpressionError(offset: token.offset, message: "expected a property name after '.'")
            }
            path.append(name)
            try advance()
        }
        return path
    }

    /// Comma-separated expressions up to `closer`; the opening bracket is consumed.
    private mutating func list(closedBy closer: Character) throws(ExpressionError) -> [Node] {
        var items: [Node] = []
        if token.isSymbol(closer) {
            try advance()
            return items
        }
        while true {
            items.append(try additive())
            if token.isSymbol(",") {
                try advance()
            } else if token.isSymbol(closer) {
                try advance()
                return items
            } else {
                throw expected("',' or '\(closer)'")
            }
        }
    }

    /// A node with operands, refused when the tree would be deeper than evaluation's
    /// recursion should go.
    private func combined(_ kind: Node.Kind, at offset: Int) throws(ExpressionError) -> Node {
        let node = Node(kind: kind, offset: offset)
        guard node.depth <= Self.maximumDepth else { throw tooDeep(at: offset) }
        return node
    }

    private func tooDeep(at offset: Int) -> ExpressionError {
        ExpressionError(offset: offset,
                        message: "expression is too deep (more than \(Self.maximumDepth) nested operations)")
    }

    private mutating func reference(id: String, keyPath: String, offset: Int) -> Node {
        references.append(SceneExpression.Reference(id: id, keyPath: keyPath, offset: offset))
        return Node(kind: .reference(references.count - 1), offset: offset)
    }

    private func binaryOperator(in candidates: [BinaryOperator]) -> BinaryOperator? {
        guard case .symbol(let c) = token.kind, let op = BinaryOperator(rawValue: c),
              candidates.contains(op) else { return nil }
        return op
    }

    private func expected(_ what: String) -> ExpressionError {
        ExpressionError(offset: token.offset, message: "expected \(what), found \(token.quoted)")
    }

    private static func axis(_ name: String) -> Axis? {
        switch name {
        case "x": .x
        case "y": .y
        default: nil
        }
    }

    // MARK: Lexing

    private mutating func advance() throws(ExpressionError) {
        token = try nextToken()
    }

    private mutating func nextToken() throws(ExpressionError) -> Token {
        let afterPrevious = position
        while position < characters.count, characters[position].isWhitespace { position += 1 }
        let start = position
        // The end stands just after the last character, not after trailing spaces: in a
        // file, there is the character the expression stops short of.
        guard let c = character(at: start) else { return Token(kind: .end, offset: afterPrevious, text: "") }

        let valueEnded: Bool = switch token.kind {
        case .number, .name, .pointReference, .symbol(")"), .symbol("]"): true
        default: false
        }
        if c.isASCIIDigit || (c == "." && !valueEnded && character(at: start + 1)?.isASCIIDigit == true) {
            return try number()
        }
        if c.isIdentifierStart {
            position += 1
            while character(at: position)?.isIdentifierContinuation == true { position += 1 }
            return token(.name(text(start, position)), from: start)
        }
        if c == "@" {
            position += 1
            guard character(at: position)?.isIdentifierStart == true else {
                throw ExpressionError(offset: position, message: "expected a layer id after '@'")
            }
            // Ids may contain '-' (section 3); take one only when an id character follows.
            position += 1
            while let next = character(at: position) {
                if next.isIdentifierContinuation {
                    position += 1
                } else if next == "-", character(at: position + 1)?.isIdentifierContinuation == true {
                    position += 2
                } else {
                    break
                }
            }
            return token(.pointReference(text(start + 1, position)), from: start)
        }
        if "+-*/^()[],.".contains(c) {
            position += 1
            return token(.symbol(c), from: start)
        }
        throw ExpressionError(offset: start, message: "unexpected '\(c)'")
    }

    /// `digits [. digits] [e [+-] digits]` or `. digits …`.
    private mutating func number() throws(ExpressionError) -> Token {
        let start = position
        skipDigits()
        if character(at: position) == "." {
            position += 1
            skipDigits()
        }
        if let e = character(at: position), e == "e" || e == "E" {
            let sign = character(at: position + 1)
            let digitsAt = sign == "+" || sign == "-" ? position + 2 : position + 1
            if character(at: digitsAt)?.isASCIIDigit == true {
                position = digitsAt
                skipDigits()
            }
        }
        let literal = text(start, position)
        if text(position, min(position + 3, characters.count)) == "deg",
           character(at: position + 3)?.isIdentifierContinuation != true {
            throw ExpressionError(offset: position,
                message: "degrees are not supported inside expressions (write \(literal) * pi / 180)")
        }
        guard let value = Double(literal), value.isFinite else {
            throw ExpressionError(offset: start, message: "number '\(literal)' is out of range")
        }
        return token(.number(value), from: start)
    }

    private mutating func skipDigits() {
        while character(at: position)?.isASCIIDigit == true { position += 1 }
    }

    private func character(at index: Int) -> Character? {
        index < characters.count ? characters[index] : nil
    }

    private func text(_ from: Int, _ to: Int) -> String {
        String(characters[from..<to])
    }

    private func token(_ kind: Token.Kind, from start: Int) -> Token {
        Token(kind: kind, offset: start, text: text(start, position))
    }
}

struct Token {
    enum Kind: Equatable {
        case number(Double)
        case name(String)
        /// `@ID`, the id without the `@`.
        case pointReference(String)
        case symbol(Character)
        case end
    }

    var kind: Kind
    /// Character offset of the token's first character.
    var offset: Int
    /// The source text, for messages.
    var text: String

    func isSymbol(_ c: Character) -> Bool { kind == .symbol(c) }

    /// The token in quotes for "found …" messages.
    var quoted: String { kind == .end ? "the end of the expression" : "'\(text)'" }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isIdentifierStart: Bool { isASCII && (isLetter || self == "_") }
    var isIdentifierContinuation: Bool { isASCII && (isLetter || isNumber || self == "_") }
}
