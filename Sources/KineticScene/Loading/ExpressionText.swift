import KineticExpressions

/// The parse pass's view of expression values (section 4): which values are written as
/// expressions or references (`"= …"`, `"@id …"`), their parse with errors at the
/// character, and what makes one live. Binding them is the resolve pass's
/// (`ExpressionBinder`).
enum ExpressionText {
    /// Whether a value is, or contains, an expression or reference.
    static func containsExpression(_ f: Field) -> Bool {
        switch f.node {
        case .scalar: return f.node.isExpression
        case .sequence(let seq): return seq.contains(where: \.isExpression)
        case .mapping(let m): return m["cubic"] != nil
        }
    }

    /// The expression `s` holds, parsed by the parse pass; its syntax error reported at
    /// its character.
    static func parse(_ f: Field, _ s: SceneNode.Scalar) -> SceneExpression? {
        switch s.expression {
        case .success(let e)?: return e
        case .failure(let error)?:
            let text = s.string
            let lead = text.prefix { $0.isWhitespace }.count
            let offset = text.dropFirst(lead).hasPrefix("@") ? error.offset : lead + 1 + error.offset
            // A contact's items are named in a `do:` list's keys; expressions read layers by id.
            let contactItem = ["$item", "$other"].first { text.contains($0) }
            let message = contactItem.map { "\($0) names a contact's layer in the keys of a `do:` list, not inside an "
                + "expression: expressions read layers by id" } ?? error.message
            Self.report(message, offset: offset, in: f, scalar: s)
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
        for s in scalars(of: f.node) {
            if case .success(let e)? = s.expression, let what = liveness(e) { return what }
        }
        return nil
    }

    /// Whether a value holds an expression or reference anywhere (in a transform's
    /// components, a point's, a matrix's entries).
    static func containsExpressionText(_ f: Field) -> Bool {
        scalars(of: f.node).contains { $0.expression != nil }
    }

    static func report(_ message: String, offset: Int, in f: Field, scalar s: SceneNode.Scalar) {
        f.diagnostics.report(message, offset: offset, in: s, keyPath: f.keyPath)
    }

    static func scalars(of node: SceneNode) -> [SceneNode.Scalar] {
        switch node {
        case .scalar(let s): [s]
        case .sequence(let seq): seq.flatMap { scalars(of: $0) }
        case .mapping(let m): m.values.flatMap { scalars(of: $0) }
        }
    }
}
