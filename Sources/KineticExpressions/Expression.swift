import KineticGeometry

/// A parsed expression of section 4 of the scene format: the text after a value's leading
/// `=`, or a whole `@ID…` point reference.
///
/// Parse once at load time, then check it with ``resultKind(referenceKind:)`` and evaluate
/// it every frame with ``evaluate(_:)``. Evaluation walks a tree built at parse time and
/// does not allocate.
///
/// Grammar, loosest binding first:
///
///     expression := term (("+" | "-") term)*
///     term       := unary (("*" | "/") unary)*
///     unary      := "-" unary | power
///     power      := postfix ("^" unary)?            right-associative; -2^2 = -4, 2^-1 = 0.5
///     postfix    := primary ("." ("x" | "y"))*      a point's component
///     primary    := number | "(" expression ")" | "[" expression "," expression "]"
///                 | "t" | "frame" | "pi" | function "(" arguments ")"
///                 | ID ("." NAME)+                  a reference, `ball.position.x`
///                 | "@" ID ("." NAME)*              a reference, `ID.position` when no path
///
/// Numbers are decimal with an optional fraction and exponent (`2`, `.5`, `1.`, `1e-3`).
/// Identifiers are `[A-Za-z_][A-Za-z0-9_]*`; a bare `-` is always minus, so an id that
/// contains `-` can only be referenced with `@`, where the id runs on over a `-` that is
/// followed by a letter, digit or `_` (write `@a - b`, with spaces, to subtract).
/// `@ID.x` and `@ID.y` mean `ID.position.x` and `ID.position.y`, as no CALayer property
/// is named `x` or `y`.
///
/// Functions: `sin cos tan asin acos atan` (radians), `atan2(y, x)` (C's argument
/// order), `abs sqrt exp floor ceil`, `log` (natural), `round` (halves away from zero),
/// `pow(x, y)` (= `x ^ y`), `min`/`max` (two or more arguments), `clamp(x, lo, hi)`,
/// `lerp(a, b, u)` (`a + (b - a) u`, not clamped; numbers or points), `smoothstep(a, b, x)`
/// (`3u² − 2u³` of `u = (x − a)/(b − a)` clamped to 0…1; a step at `a` when `a == b`), and
/// `random()` (see ``EvaluationContext``).
///
/// Named `SceneExpression` because Foundation declares a generic `Expression`, which
/// would make the plain name ambiguous wherever both are imported.
public struct SceneExpression: Hashable, Sendable {
    /// The text that was parsed; error and reference offsets count its Characters.
    public let source: String
    /// Every reference in source order, one per occurrence, so the loader can check each
    /// id and key path where it is written and build the dependency graph.
    public let references: [Reference]
    /// Whether `random()` occurs: the value changes every frame.
    public let usesRandom: Bool
    /// Whether `t` or `frame` occurs: the value changes with time.
    public let usesTime: Bool
    /// Where the expression is written (the loader sets it from its line and column):
    /// part of its `random()` calls' call sites, so that two expressions of one value —
    /// a point's x and y — draw different numbers.
    public var site: UInt64 = 0

    let root: Node

    init(source: String, root: Node, references: [Reference], usesRandom: Bool, usesTime: Bool) {
        self.source = source
        self.root = root
        self.references = references
        self.usesRandom = usesRandom
        self.usesTime = usesTime
    }

    /// Parses the text after a value's leading `=`; surrounding whitespace is allowed.
    /// Error offsets count Characters of `source`: add the `=`'s position plus one to
    /// point into the scene file.
    ///
    /// Checks syntax, function names and argument counts. Whether numbers and points are
    /// combined correctly depends on what the references are, so that is checked by
    /// ``resultKind(referenceKind:)``.
    public static func parse(_ source: String) throws(ExpressionError) -> SceneExpression {
        var parser = Parser(source)
        return try parser.parseExpression()
    }

    /// Parses a whole point-reference string such as `"@ball"` or
    /// `"@ball.position + [0, -30]"`; offsets count from the `@`.
    public static func parsePointShorthand(_ source: String) throws(ExpressionError) -> SceneExpression {
        let start = source.firstIndex { !$0.isWhitespace }
        guard let start, source[start] == "@" else {
            let offset = start.map { source.distance(from: source.startIndex, to: $0) } ?? 0
            throw ExpressionError(offset: offset, message: "expected '@' and a layer id")
        }
        return try parse(source)
    }
}

extension SceneExpression {
    /// A reference to another layer's or item's property, `ID.KEYPATH`. The loader decides
    /// whether the id exists and the key path is valid.
    public struct Reference: Hashable, Sendable, CustomStringConvertible {
        /// The layer or dynamic-item id.
        public var id: String
        /// The dotted key path after the id, e.g. `position.x`; `position` for a bare `@ID`.
        public var keyPath: String
        /// Character offset of the id's first character in the expression's source.
        public var offset: Int

        public init(id: String, keyPath: String, offset: Int) {
            self.id = id
            self.keyPath = keyPath
            self.offset = offset
        }

        /// `id.keyPath`, as it would be written in an expression.
        public var description: String { "\(id).\(keyPath)" }
    }

    /// What an expression or a reference yields.
    public enum ValueKind: Hashable, Sendable, CustomStringConvertible {
        /// A number.
        case scalar
        /// A point or vector, `[x, y]`.
        case vector

        /// "a number" or "a point", for messages.
        public var description: String {
            switch self {
            case .scalar: "a number"
            case .vector: "a point"
            }
        }
    }

    /// The value of an expression or of a reference at one frame.
    public enum Value: Hashable, Sendable {
        case scalar(Double)
        case vector(Point)

        public var kind: ValueKind {
            switch self {
            case .scalar: .scalar
            case .vector: .vector
            }
        }

        /// The number, or nil for a point.
        public var scalar: Double? { if case .scalar(let v) = self { v } else { nil } }
        /// The point, or nil for a number.
        public var vector: Point? { if case .vector(let v) = self { v } else { nil } }

        /// False when any component is NaN or infinite, e.g. after `sqrt(-1)` or `1 / 0`.
        public var isFinite: Bool {
            switch self {
            case .scalar(let v): v.isFinite
            case .vector(let p): p.isFinite
            }
        }
    }

    /// What an expression is evaluated against at one frame.
    ///
    /// `random()` is a number in [0, 1) hashed (SplitMix64) from `seed`, `expressionID`,
    /// `frame` and the call site — the expression's `site` and the call's position among
    /// its `random()` calls: the same frame draws the same numbers on every run, and two
    /// calls differ.
    public struct EvaluationContext {
        /// Seconds from scene start, `t`.
        public var time: Double
        /// The frame index, `frame`.
        public var frame: Int
        /// The scene's `seed`.
        public var seed: UInt64
        /// Distinguishes expressions so that their `random()` calls differ. Must be stable
        /// across runs (e.g. the expression's index in document order, not a `hashValue`).
        public var expressionID: UInt64
        /// The presentation value of a reference at this frame. A value of the wrong kind
        /// (which ``SceneExpression/resultKind(referenceKind:)`` would have rejected) makes the
        /// expression's result NaN.
        public var resolve: (Reference) -> Value

        public init(time: Double, frame: Int, seed: UInt64, expressionID: UInt64,
                    resolve: @escaping (Reference) -> Value) {
            self.time = time
            self.frame = frame
            self.seed = seed
            self.expressionID = expressionID
            self.resolve = resolve
        }
    }
}

/// A problem in an expression, at the offending character.
public struct ExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Character offset into the parsed source (for `=` values, the text after the `=`).
    public var offset: Int
    /// What is wrong, e.g. `unknown function 'sinn' (did you mean 'sin'?)`.
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(offset): \(message)" }
}
