import KineticExpressions
import Yams

/// A place in the scene file: line and column from 1 (columns in Unicode scalars, as
/// libyaml counts them).
struct Mark: Sendable, Equatable {
    let line: Int
    let column: Int
}

/// The parse pass's result: the scene file as a tree of values, each with its place in
/// the file, and every expression or reference (section 4) parsed once, here. The
/// decoders read this tree (through `Field`), never YAML.
enum SceneNode {
    case scalar(Scalar)
    case sequence(Sequence)
    case mapping(Entries)

    /// A single value: a literal as written, or an expression.
    struct Scalar {
        let string: String
        let mark: Mark?
        /// Written without quotes or block style: only such a value can be null or a number.
        let isPlain: Bool
        /// `!!str 1`: the file says it is text.
        let isTaggedString: Bool
        let value: Value

        enum Value {
            /// The text as written (a number, a color, a name…), read by the typed readers.
            case literal
            /// `= …` or `@…`, parsed: its syntax error is reported where the value is read,
            /// since a key that takes no expression reports that instead.
            case expression(Result<SceneExpression, ExpressionError>)
        }

        init(string: String, mark: Mark? = nil, isPlain: Bool = false, isTaggedString: Bool = false) {
            self.string = string
            self.mark = mark
            self.isPlain = isPlain
            self.isTaggedString = isTaggedString
            // The one prefix rule of section 4: a value is an expression when it starts (after
            // spaces) with `=`, a reference when with `@`.
            let body = string.drop { $0.isWhitespace }
            let isExpression = body.hasPrefix("=") || body.hasPrefix("@")
            value = isExpression ? .expression(Self.parseExpression(string, mark: mark)) : .literal
        }

        var expression: Result<SceneExpression, ExpressionError>? {
            if case .expression(let e) = value { e } else { nil }
        }

        /// `= …` or `@…` parsed; error offsets count from the `@`, or from after the `=`.
        private static func parseExpression(_ text: String, mark: Mark?) -> Result<SceneExpression, ExpressionError> {
            let body = text.drop { $0.isWhitespace }
            do throws(ExpressionError) {
                var e = body.hasPrefix("@") ? try SceneExpression.parsePointShorthand(text)
                    : try SceneExpression.parse(String(body.dropFirst()))
                // Its place in the file: the call site of its random() calls.
                if let mark { e.site = UInt64(truncatingIfNeeded: mark.line) << 32 | UInt64(truncatingIfNeeded: mark.column) }
                return .success(e)
            } catch {
                return .failure(error)
            }
        }
    }

    /// A list's items, or a mapping's entries in file order (the parse rejects duplicate
    /// keys), with the collection's place.
    struct Marked<Item>: RandomAccessCollection {
        var items: [Item]
        let mark: Mark?
        var startIndex: Int { items.startIndex }
        var endIndex: Int { items.endIndex }
        subscript(i: Int) -> Item { items[i] }
    }

    typealias Sequence = Marked<SceneNode>
    typealias Entries = Marked<(key: SceneNode, value: SceneNode)>

    var mark: Mark? {
        switch self {
        case .scalar(let s): s.mark
        case .sequence(let s): s.mark
        case .mapping(let m): m.mark
        }
    }

    /// Whether the value is an expression or reference (not a list holding one).
    var isExpression: Bool { scalar?.expression != nil }

    var scalar: Scalar? { if case .scalar(let s) = self { s } else { nil } }
    var sequence: Sequence? { if case .sequence(let s) = self { s } else { nil } }

    /// A plain scalar, as written on the command line (`--background`).
    init(text: String) { self = .scalar(Scalar(string: text)) }

    /// The parse pass over a composed YAML tree (aliases already resolved into copies of
    /// their anchors' nodes, after `SceneLoader.nodeBudgetOverrun` bounded their count).
    init(_ node: Yams.Node) {
        func mark(_ m: Yams.Mark?) -> Mark? { m.map { Mark(line: $0.line, column: $0.column) } }
        switch node {
        case .scalar(let s):
            self = .scalar(Scalar(string: s.string, mark: mark(s.mark), isPlain: s.style == .plain,
                                  isTaggedString: s.tag.description == Tag.Name.str.rawValue))
        case .sequence(let seq):
            self = .sequence(Sequence(items: seq.map(SceneNode.init), mark: mark(seq.mark)))
        case .mapping(let map):
            self = .mapping(Entries(items: map.map { (SceneNode($0.key), SceneNode($0.value)) }, mark: mark(map.mark)))
        case .alias(let alias):
            // Yams' composer resolves aliases: none reaches here; read as null if one did.
            self = .scalar(Scalar(string: "", mark: mark(alias.mark), isPlain: true))
        }
    }
}

extension SceneNode.Entries where Item == (key: SceneNode, value: SceneNode) {
    subscript(key: String) -> SceneNode? { items.first { $0.key.scalar?.string == key }?.value }
    var keys: [SceneNode] { items.map(\.key) }
    var values: [SceneNode] { items.map(\.value) }
}
