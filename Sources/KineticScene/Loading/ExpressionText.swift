import KineticExpressions

/// The expression values (section 4) the parse pass found (`SceneNode.Scalar`), as the
/// resolve pass asks about them: which values hold one, its syntax error at the
/// character, and what makes one live. Binding them is `ExpressionBinder`'s.
enum ExpressionText {
    /// Whether a value is, or lists, an expression or reference; where it `readsMapping` (a transform's named
    /// form, a `{cubic: …}`), whether it holds one anywhere. Other mappings' (a primitive's) are their readers' to take.
    static func containsExpression(_ f: Field, readsMapping: Bool = false) -> Bool {
        readsMapping ? scalars(of: f.node).contains { $0.expression != nil }
            : f.node.isExpression || f.node.sequence?.contains(where: \.isExpression) == true
    }

    /// The expression `s` holds, parsed by the parse pass; its syntax error reported at
    /// its character.
    static func parse(_ f: Field, _ s: SceneNode.Scalar) -> SceneExpression? {
        switch s.expression {
        case .success(let e)?: return e
        case .failure(let error)?:
            // A contact's items are named in a `do:` list's keys; expressions read layers by id.
            let contactItem = ["$item", "$other"].first { s.string.contains($0) }
            report(error, message: contactItem.map { "\($0) names a contact's layer in the keys of a `do:` list, not "
                + "inside an expression: expressions read layers by id" }, in: f, scalar: s)
            return nil
        case nil: return nil
        }
    }

    /// What makes an expression's value change while the scene runs (`reads 'ball.position'`,
    /// `uses random()`, `changes with t or frame`); nil when it is constant.
    static func liveness(_ e: SceneExpression) -> String? {
        if let ref = e.references.first { return "reads '\(ref)'" }
        return e.usesRandom ? "uses random()" : e.usesTime ? "changes with t or frame" : nil
    }

    /// What makes the first live expression of a value change (see `liveness`); nil when
    /// every expression in it is constant. One that does not parse counts as constant: its
    /// error is reported where it is evaluated.
    static func liveness(of f: Field) -> String? {
        scalars(of: f.node).lazy.compactMap { try? $0.expression?.get() }.compactMap { liveness($0) }.first
    }

    /// Whether `s` holds a live expression (see `liveness(of:)`: one that does not parse counts as constant).
    static func isLive(_ s: SceneNode.Scalar) -> Bool {
        (try? s.expression?.get()).map { liveness($0) != nil } ?? false
    }

    /// Reports `error` (or `message` in its place) at its character in `s`.
    static func report(_ error: ExpressionError, message: String? = nil, in f: Field, scalar s: SceneNode.Scalar) {
        let offset = start(in: s) + error.offset
        f.diagnostics.report(message ?? error.message, offset: offset, in: s, keyPath: f.keyPath)
    }

    /// The character of `s` an expression's offsets count from: a reference is parsed
    /// whole, its offsets from the text's start; an expression after its `=`.
    static func start(in s: SceneNode.Scalar) -> Int {
        let lead = s.string.prefix { $0.isWhitespace }.count
        return s.string.dropFirst(lead).hasPrefix("@") ? 0 : lead + 1
    }

    static func scalars(of node: SceneNode) -> [SceneNode.Scalar] {
        switch node {
        case .scalar(let s): [s]
        case .sequence(let seq): seq.flatMap { scalars(of: $0) }
        case .mapping(let m): m.values.flatMap { scalars(of: $0) }
        }
    }
}
