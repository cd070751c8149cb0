/// The parsed tree: what ``SceneExpression`` evaluates each frame. Every node keeps the offset
/// of the character that type errors about it point at.
struct Node: Hashable, Sendable {
    let kind: Kind
    let offset: Int
    /// Levels of nodes from here down, 1 for a leaf: bounds evaluation's recursion.
    let depth: Int

    init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
        depth = 1 + kind.operands.reduce(0) { Swift.max($0, $1.depth) }
    }

    indirect enum Kind: Hashable, Sendable {
        case number(Double)
        case time
        case frame
        /// Index into ``SceneExpression/references``.
        case reference(Int)
        /// `random()`; the call site is its index among the expression's random() calls.
        case random(callSite: UInt64)
        case vector(Node, Node)
        case component(Node, Axis)
        case negate(Node)
        case binary(BinaryOperator, Node, Node)
        case call(Function, [Node])

        var operands: [Node] {
            switch self {
            case .number, .time, .frame, .reference, .random: []
            case .vector(let a, let b), .binary(_, let a, let b): [a, b]
            case .component(let a, _), .negate(let a): [a]
            case .call(_, let arguments): arguments
            }
        }
    }
}

enum Axis: Hashable, Sendable {
    case x, y
}

enum BinaryOperator: Character, Hashable, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "^"
}

/// The built-in functions, by their expression names. `random` is parsed into
/// ``Node/Kind/random(callSite:)`` rather than a call.
enum Function: String, CaseIterable, Hashable, Sendable {
    case sin, cos, tan, asin, acos, atan, atan2
    case abs, min, max, clamp, sqrt, pow, exp, log, floor, ceil, round
    case lerp, smoothstep, random

    /// How many arguments the function takes: a fixed count, or (min, max) at least two.
    var arity: Arity {
        switch self {
        case .random: .exactly(0)
        case .sin, .cos, .tan, .asin, .acos, .atan, .abs, .sqrt, .exp, .log, .floor, .ceil, .round:
            .exactly(1)
        case .atan2, .pow: .exactly(2)
        case .clamp, .lerp, .smoothstep: .exactly(3)
        case .min, .max: .atLeast(2)
        }
    }

    enum Arity: Hashable {
        case exactly(Int)
        case atLeast(Int)

        func accepts(_ count: Int) -> Bool {
            switch self {
            case .exactly(let n): count == n
            case .atLeast(let n): count >= n
            }
        }

        /// "takes 1 argument", "takes no arguments", "takes at least 2 arguments".
        var phrase: String {
            switch self {
            case .exactly(0): "takes no arguments"
            case .exactly(1): "takes 1 argument"
            case .exactly(let n): "takes \(n) arguments"
            case .atLeast(let n): "takes at least \(n) arguments"
            }
        }
    }
}
