extension SceneExpression {
    /// Whether the expression yields a number or a point, given what each reference
    /// yields, or the first place where numbers and points are combined wrongly.
    ///
    /// Numbers combine with every operator and function. Points may be added to and
    /// subtracted from points, negated, multiplied by a number on either side, divided by
    /// a number, blended with `lerp(a, b, u)` (with a number `u`), and split with `.x` and
    /// `.y`; everything else wants numbers.
    ///
    /// - Parameter referenceKind: what a reference yields, or nil when it names neither a
    ///   number nor a point (reported at the reference).
    public func resultKind(referenceKind: (Reference) -> ValueKind?) throws(ExpressionError) -> ValueKind {
        var kinds: [ValueKind] = []
        for reference in references {
            guard let kind = referenceKind(reference) else {
                throw ExpressionError(offset: reference.offset,
                                      message: "'\(reference)' is neither a number nor a point")
            }
            kinds.append(kind)
        }
        return try TypeChecker(referenceKinds: kinds).kind(of: root)
    }
}

private struct TypeChecker {
    let referenceKinds: [SceneExpression.ValueKind]

    func kind(of node: Node) throws(ExpressionError) -> SceneExpression.ValueKind {
        switch node.kind {
        case .number, .time, .frame, .random:
            return .scalar
        case .reference(let index):
            return referenceKinds[index]
        case .vector(let x, let y):
            try require(.scalar, x)
            try require(.scalar, y)
            return .vector
        case .component(let operand, let axis):
            let kind = try kind(of: operand)
            guard kind == .vector else {
                throw ExpressionError(offset: node.offset, message: "'.\(axis)' needs a point, found \(kind)")
            }
            return .scalar
        case .negate(let operand):
            return try kind(of: operand)
        case .binary(let op, let lhs, let rhs):
            let l = try kind(of: lhs), r = try kind(of: rhs)
            if let result = op.resultKind(l, r) { return result }
            if op == .power {
                try require(.scalar, l == .vector ? lhs : rhs)
            }
            throw ExpressionError(offset: node.offset, message: op.mismatch(l, r))
        case .call(let function, let arguments):
            if function == .lerp {
                let blended = try kind(of: arguments[0])
                try require(blended, arguments[1])
                try require(.scalar, arguments[2])
                return blended
            }
            for argument in arguments { try require(.scalar, argument) }
            return .scalar
        }
    }

    private func require(_ expected: SceneExpression.ValueKind, _ node: Node) throws(ExpressionError) {
        let found = try kind(of: node)
        guard found == expected else {
            throw ExpressionError(offset: node.startOffset, message: "expected \(expected), found \(found)")
        }
    }
}

extension BinaryOperator {
    /// The result of `lhs op rhs`, or nil when the operator does not apply to those kinds.
    func resultKind(_ lhs: SceneExpression.ValueKind, _ rhs: SceneExpression.ValueKind) -> SceneExpression.ValueKind? {
        switch (self, lhs, rhs) {
        case (_, .scalar, .scalar): .scalar
        case (.add, .vector, .vector), (.subtract, .vector, .vector): .vector
        case (.multiply, .vector, .scalar), (.multiply, .scalar, .vector): .vector
        case (.divide, .vector, .scalar): .vector
        default: nil
        }
    }

    /// Why `lhs op rhs` is rejected.
    func mismatch(_ lhs: SceneExpression.ValueKind, _ rhs: SceneExpression.ValueKind) -> String {
        switch self {
        case .add: "cannot add \(lhs) and \(rhs)"
        case .subtract: "cannot subtract \(rhs) from \(lhs)"
        case .multiply: "cannot multiply \(lhs) by \(rhs)"
        case .divide: "cannot divide \(lhs) by \(rhs)"
        case .power: "cannot raise \(lhs) to the power of \(rhs)"
        }
    }
}

extension Node {
    /// Offset of the subtree's first character: an operator node's own offset is its
    /// operator, but "expected a number" should point where the operand starts.
    var startOffset: Int {
        switch kind {
        case .binary(_, let lhs, _): lhs.startOffset
        case .component(let operand, _): operand.startOffset
        default: offset
        }
    }
}
