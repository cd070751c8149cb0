import KineticExpressions
import KineticGeometry
import KineticLayers

/// A layer property driven by an expression (section 4): evaluated every frame after
/// animations and physics, in dependency order — the declarative form of the seeds'
/// CADisplayLink and `action` blocks.
public struct ExpressionBinding: Sendable {
    /// The driven layer and property.
    public var layer: LayerAddress
    public var keyPath: LayerKeyPath
    public var value: BoundValue
    /// `ID.keyPath` of the target, for messages (`ball.position`).
    public var label: String
    /// Stable across runs: keeps `random()` of different bindings apart.
    public var seedSalt: UInt64

    /// A number that is either written in the file or computed.
    public enum Term: Sendable {
        case literal(Double)
        case expression(SceneExpression)
    }

    /// The shapes of bound values.
    public enum BoundValue: Sendable {
        /// A number property.
        case scalar(Term)
        /// A point (or size) property from one point-valued expression (`"@ball"`).
        case vector(SceneExpression)
        /// A point (or size) property with an expression in one or both components.
        case components(Term, Term)
        /// A `{cubic: [p0, c1, c2, p1]}` path through live points.
        case cubic([PointSource])
    }

    /// One point of a live cubic.
    public enum PointSource: Sendable {
        case vector(SceneExpression)
        case components(Term, Term)
    }

    /// Every expression of the binding, in source order.
    public var expressions: [SceneExpression] { value.expressions }
}

extension ExpressionBinding.BoundValue {
    /// Every expression of the value, in source order.
    public var expressions: [SceneExpression] {
        typealias Term = ExpressionBinding.Term
        func of(_ t: Term) -> [SceneExpression] { if case .expression(let e) = t { [e] } else { [] } }
        func of(_ p: ExpressionBinding.PointSource) -> [SceneExpression] {
            switch p {
            case .vector(let e): [e]
            case .components(let x, let y): of(x) + of(y)
            }
        }
        switch self {
        case .scalar(let t): return of(t)
        case .vector(let e): return [e]
        case .components(let x, let y): return of(x) + of(y)
        case .cubic(let points): return points.flatMap(of)
        }
    }
}

/// A number or point written with expressions (section 4) that is evaluated when the
/// runtime needs it rather than every frame: an animation's `from`/`to`/`by`/`values`
/// (once, when the animation begins) or a behavior property (every simulation step).
public struct ExpressionValue: Sendable {
    public var value: ExpressionBinding.BoundValue
    /// Stable across runs: keeps `random()` of different values apart.
    public var seedSalt: UInt64
}

/// A behavior property written as an expression: set at every simulation step, before
/// the step, as a UIKit `action` block would (section 6).
public struct BehaviorExpression: Sendable {
    /// The behavior's id and the property's UIKit name (`anchorPoint`, `magnitude`, …).
    public var behavior: String
    public var property: String
    public var value: ExpressionValue
}
