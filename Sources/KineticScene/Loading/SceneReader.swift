import KineticGeometry
import KineticLayers
import KineticXML
import Foundation

/// Collects every problem found while reading one scene file, so the loader reports
/// them all instead of stopping at the first. A class because every reader of the file
/// writes to the same list.
final class Diagnostics {
    let file: String
    /// The file's lines, to place errors inside a value precisely: split at the first
    /// such error, since a file read without one never needs them.
    private lazy var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    private let text: String
    private(set) var problems: [SceneProblem] = []
    /// The appearance the file's color names resolve in (`scene.appearance`, or the
    /// `--appearance` override): read first, shared by every reader as the problems are.
    var appearance: Appearance = .light
    /// The SVG files the scene reads (paths and contents), resolved against its folder
    /// under its asset policy: set first, shared by every reader as the problems are.
    var svgFiles = SVGFiles()

    init(file: String, text: String = "") {
        self.file = file
        self.text = text
    }

    /// Reports at the character `offset` of a scalar's text (`range(of:)`).
    func report(_ message: String, offset: Int, in scalar: SceneNode.Scalar, keyPath: String) {
        report(message, at: range(of: scalar, keyPath: keyPath).place(at: offset))
    }

    /// Where a scalar's text begins, read off its line: libyaml's mark can stand on the
    /// whitespace before a value in flow context, or on its anchor (`&name`) or tag, and
    /// Yams does not always keep the quoting style, so the first character (after an
    /// opening quote) is looked up on the line itself. A value that spans lines keeps its
    /// mark.
    func range(of scalar: SceneNode.Scalar, keyPath: String) -> SourceRange {
        let mark = scalar.mark ?? Mark(line: 1, column: 1)
        var column = mark.column
        let isOneLine = scalar.mark != nil && !scalar.string.contains("\n")
        if isOneLine, lines.indices.contains(mark.line - 1) {
            let line = Array(lines[mark.line - 1].unicodeScalars)
            func skipBlanks() { while column - 1 < line.count, line[column - 1] == " " || line[column - 1] == "\t" { column += 1 } }
            skipBlanks()
            // A scalar's text never starts with `&` or `!`: these begin an anchor or a tag.
            while column - 1 < line.count, line[column - 1] == "&" || line[column - 1] == "!" {
                while column - 1 < line.count, line[column - 1] != " " && line[column - 1] != "\t" { column += 1 }
                skipBlanks()
            }
            if column - 1 < line.count, line[column - 1] == "\"" || line[column - 1] == "'" { column += 1 }
        }
        let start = SourcePlace(location: SourceLocation(file: file, line: mark.line, column: column), keyPath: keyPath)
        return SourceRange(start: start, isOneLine: isOneLine)
    }

    func report(_ message: String, at place: SourcePlace) {
        problems.append(SceneProblem(location: place.location, keyPath: place.keyPath, message: message))
    }
}

/// A YAML node together with its key path in the file: the unit every decoding
/// function takes, so every error it reports knows where it is.
struct Field {
    let node: SceneNode
    let keyPath: String
    let diagnostics: Diagnostics
    /// What becomes of the expressions its readers meet, its items' and keys' too: decided
    /// once by whoever reads the value (`reading`), applied by `ExpressionBinder.resolve`.
    private(set) var expressions = ExpressionPolicy.literals

    var mark: Mark? { node.mark }

    /// The field, its expressions read by `policy`.
    func reading(_ policy: ExpressionPolicy) -> Field {
        var f = self
        f.expressions = policy
        return f
    }

    /// The value's kind as messages name it.
    var kindName: String {
        switch node {
        case .scalar: "a single value"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    var isList: Bool { node.sequence != nil }

    /// Where this value was written, for errors found during and after the load (section
    /// 9's `FILE:LINE:COLUMN: KEY.PATH`).
    var place: SourcePlace {
        SourcePlace(location: SourceLocation(file: diagnostics.file, line: mark?.line ?? 1, column: mark?.column ?? 1),
                    keyPath: keyPath)
    }

    func report(_ message: String) { diagnostics.report(message, at: place) }

    func child(_ node: SceneNode, key: String) -> Field {
        with(node, keyPath: keyPath.isEmpty ? key : "\(keyPath).\(key)")
    }

    /// The value of `key` when the node is a mapping that has it, looked at before the
    /// mapping's keys are checked (a key that decides how the rest is read).
    func peek(_ key: String) -> Field? {
        guard case .mapping(let m) = node, let value = m[key] else { return nil }
        return child(value, key: key)
    }

    func element(_ node: SceneNode, index: Int) -> Field { with(node, keyPath: "\(keyPath)[\(index)]") }

    /// `node` at `keyPath`, read by the field's policy.
    private func with(_ node: SceneNode, keyPath: String) -> Field {
        Field(node: node, keyPath: keyPath, diagnostics: diagnostics, expressions: expressions)
    }

    /// The scalar's text, or nil (reported) when the node is not a scalar.
    var scalarText: String? {
        if case .scalar(let s) = node { return s.string }
        report("expected a single value, found \(kindName)")
        return nil
    }

    /// True when the node is YAML's null (`~`, `null`, or empty).
    var isNull: Bool {
        guard let s = node.scalar, s.isPlain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    /// The sequence's elements as fields, or nil (reported).
    var elements: [Field]? {
        guard case .sequence(let seq) = node else {
            report("expected a list, found \(kindName)")
            return nil
        }
        return seq.enumerated().map { element($1, index: $0) }
    }

    /// A mapping read against the keys it may have. Unknown keys are reported with a
    /// suggestion, or with their entry in `hints` (names from Apple's APIs, spelt otherwise
    /// here); Apple's names Kinetic leaves out (`UnsupportedAppleNames` of `contexts`) are
    /// reported as not supported; duplicate keys are reported. Returns nil (reported) when
    /// not a mapping.
    func mapping(allowed: [String], hints: [String: String] = [:], contexts: [String] = []) -> Mapping? {
        guard case .mapping(let m) = node else {
            report("expected a mapping (key: value), found \(kindName)")
            return nil
        }
        var fields: [String: Field] = [:]
        var order: [String] = []
        // Built at the first key that is not allowed, not for every mapping: a valid file has none.
        lazy var refused = contexts.isEmpty ? [:] : UnsupportedAppleNames.refused(in: contexts)
        for (k, value) in m {
            guard let key = k.scalar?.string else {
                Field(node: k, keyPath: keyPath, diagnostics: diagnostics).report("keys must be plain names")
                continue
            }
            let v = child(value, key: key)
            let problem = fields[key] != nil ? "duplicate key '\(key)'"
                : allowed.contains(key) ? nil
                : refused[key].map { UnsupportedAppleNames.message(key, $0) }
                    ?? "unknown key '\(key)'" + (hints[key].map { " (\($0))" }
                                                 ?? NameSuggestion.hint(for: key, in: allowed))
            if let problem {
                Field(node: k, keyPath: v.keyPath, diagnostics: diagnostics).report(problem)
            } else {
                fields[key] = v
                order.append(key)
            }
        }
        return Mapping(owner: self, fields: fields, order: order)
    }
}

/// A mapping's checked fields by key.
struct Mapping {
    let owner: Field
    let fields: [String: Field]
    /// Keys in file order.
    let order: [String]

    subscript(key: String) -> Field? { fields[key] }

    /// The mapping without `keys` (taken by another reader).
    func removing(_ keys: Set<String>) -> Mapping {
        Mapping(owner: owner, fields: fields.filter { !keys.contains($0.key) }, order: order.filter { !keys.contains($0) })
    }

    /// Every key that `spec` gives a schema entry of a value kind (`Field.value`: the kind
    /// and range animations and `set:` read with too) or of a kind no animation carries
    /// (`Field.fileValue`), set through the schema, in file order. `value` reads a value
    /// of its entry's kind (a reader that takes its expressions), nil when it is none.
    func readValues<Object>(into object: inout Object,
                            value: (String, Field, PropertySpec<Object>) -> AnimatableValue? = { _, f, spec in
                                f.value(of: spec.kind, problem: spec.problem)
                            },
                            _ spec: (String) -> PropertySpec<Object>?) {
        for key in order {
            guard let spec = spec(key), let f = self[key] else { continue }
            if let assign = spec.assign {
                if let v = f.fileValue(of: spec.kind) { assign(&object, v) }
            } else if let set = spec.set, spec.valueKind != nil, let v = value(key, f, spec) {
                set(&object, v)
            }
        }
    }

    /// The field, or nil with "missing required key" reported on the owner.
    func required(_ key: String) -> Field? {
        if let f = fields[key] { return f }
        owner.report("missing required key '\(key)'")
        return nil
    }
}

extension SourceMap {
    /// The parse's map of the document `root`: every node's mark, by its key path as
    /// `Field` spells it.
    init(file: String, root: SceneNode) {
        self.init(file: file)
        var stack: [(node: SceneNode, path: String)] = [(root, "")]
        while let (node, path) = stack.popLast() {
            if let mark = node.mark { record(path, line: mark.line, column: mark.column) }
            switch node {
            case .scalar: break
            case .sequence(let seq): for (i, n) in seq.enumerated().reversed() { stack.append((n, "\(path)[\(i)]")) }
            case .mapping(let map):
                for (k, v) in map.reversed() {
                    let key = k.scalar?.string ?? ""
                    stack.append((v, path.isEmpty ? key : "\(path).\(key)"))
                }
            }
        }
    }
}
