import KineticGeometry
@testable import KineticExpressions

typealias Value = SceneExpression.Value
typealias ValueKind = SceneExpression.ValueKind
typealias Reference = SceneExpression.Reference
typealias EvaluationContext = SceneExpression.EvaluationContext

/// Parses and evaluates `source` at time `t`, frame `frame`, resolving references as
/// `id.keyPath` in `references` (unknown ones resolve to NaN).
func evaluate(_ source: String, t: Double = 0, frame: Int = 0, seed: UInt64 = 1,
              expressionID: UInt64 = 0, references: [String: Value] = [:]) throws -> Value {
    let expression = try SceneExpression.parse(source)
    let context = EvaluationContext(time: t, frame: frame, seed: seed, expressionID: expressionID) {
        references[$0.description] ?? .scalar(.nan)
    }
    return expression.evaluate(context)
}

/// The number `source` evaluates to, or nil when it yields a point.
func number(_ source: String, t: Double = 0, frame: Int = 0,
            references: [String: Value] = [:]) throws -> Double? {
    try evaluate(source, t: t, frame: frame, references: references).scalar
}

func isClose(_ a: Double?, _ b: Double, tolerance: Double = 1e-12) -> Bool {
    guard let a else { return false }
    return Swift.abs(a - b) <= tolerance
}

func isClose(_ a: Point?, _ b: Point, tolerance: Double = 1e-12) -> Bool {
    guard let a else { return false }
    return Swift.abs(a.x - b.x) <= tolerance && Swift.abs(a.y - b.y) <= tolerance
}

/// The error parsing `source` throws, or nil when it parses.
func parseError(_ source: String) -> ExpressionError? {
    do {
        _ = try SceneExpression.parse(source)
        return nil
    } catch {
        return error
    }
}

/// The error type checking `source` throws, given the kinds of its references by
/// `id.keyPath` (others are neither), or nil when it checks.
func typeError(_ source: String, kinds: [String: ValueKind] = [:]) throws -> ExpressionError? {
    let expression = try SceneExpression.parse(source)
    do {
        _ = try expression.resultKind { kinds[$0.description] }
        return nil
    } catch {
        return error
    }
}

func kind(_ source: String, kinds: [String: ValueKind] = [:]) throws -> ValueKind {
    try SceneExpression.parse(source).resultKind { kinds[$0.description] }
}
