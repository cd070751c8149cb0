import KineticDynamics
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

    /// A number as the file writes it: a literal, or an expression with the place it
    /// was written (its errors found after the load are reported there).
    public enum Term: Sendable {
        case literal(Double)
        case expression(SceneExpression, SourceRange)

        /// A literal's value; NaN for an expression (not evaluated here).
        var value: Double {
            if case .literal(let v) = self { v } else { .nan }
        }
    }

    /// The shapes of bound values.
    public enum BoundValue: Sendable {
        /// A number property.
        case scalar(Term)
        /// A point (or size) property: one point-valued expression (`"@ball"`), or an
        /// expression in one or both components.
        case point(PointSource)
        /// A `{cubic: [p0, c1, c2, p1]}` path through live points.
        case cubic([PointSource])
        /// A whole transform with live components that no sub-key path takes (a
        /// `perspective`, `matrix` entries, a whole-vector `translate`, any component of
        /// `sublayerTransform` or `instanceTransform`): composed every frame as the
        /// written form is.
        case transform(TransformSource)
        /// A value rebuilt from numbers written with expressions, as the static reader
        /// builds it from literals.
        case rebuilt(Recipe)
    }

    /// How `rebuilt` makes its value.
    public enum Recipe: Sendable {
        /// `bounds: [x, y, w, h]`.
        case rect(RectTerms)
        /// `frame: [x, y, w, h]`: the position it gives a layer with this anchor point.
        case framePosition(RectTerms, anchor: Point)
        /// A list of numbers (a gradient's `locations`).
        case numbers([Term])
        /// A path primitive of section 3.1.
        case path(PathPrimitive)
    }

    /// `[x, y, w, h]`.
    public struct RectTerms: Sendable {
        public var x, y, width, height: Term
        public init(_ x: Term, _ y: Term, _ width: Term, _ height: Term) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
        var terms: [Term] { [x, y, width, height] }

        /// The rect, with `number` giving the terms' values; nil when a side is negative
        /// (or NaN), which the static reader rejects and only an expression can give.
        public func rect(number: (Term) -> Double) -> Rect? {
            let w = number(width), h = number(height)
            return w >= 0 && h >= 0 ? Rect(number(x), number(y), w, h) : nil
        }
    }

    /// The primitives of section 3.1 with terms for their numbers (the flags stay
    /// literal). The static reader reads them too, with literal terms.
    public enum PathPrimitive: Sendable {
        case rect(RectTerms), oval(RectTerms)
        case roundedRect(RectTerms, cornerRadius: Term)
        case arc(center: PointSource, radius: Term, startAngle: Term, endAngle: Term, clockwise: Bool)
        case polyline([PointSource], closed: Bool)
        case star(center: PointSource, points: Term, outerRadius: Term, innerRadius: Term)

        /// A star's count of points: a whole number from 2 to 1000; nil otherwise.
        public static func starPoints(_ v: Double) -> Int? {
            v.rounded() == v && (2...1000).contains(v) ? Int(v) : nil
        }

        /// The path, with `number` and `point` giving the terms' values. A length that is
        /// negative — a radius, a width or height — (possible only from an expression)
        /// gives NaN: no path.
        public func path(number: (Term) -> Double, point: (PointSource) -> Point) -> BezierPath {
            func length(_ t: Term) -> Double { let v = number(t); return v >= 0 ? v : .nan }
            // No path: not finite, so the binding leaves the property as it was.
            let none = BezierPath([.move(to: Point(.nan, .nan))])
            switch self {
            case .rect(let r): return r.rect(number: number).map { .rect($0) } ?? none
            case .oval(let r): return r.rect(number: number).map { .oval(in: $0) } ?? none
            case .roundedRect(let r, let radius): return r.rect(number: number).map { .roundedRect($0, cornerRadius: length(radius)) } ?? none
            case .arc(let center, let radius, let start, let end, let clockwise):
                return .arc(center: point(center), radius: length(radius), startAngle: number(start), endAngle: number(end),
                            clockwise: clockwise)
            case .polyline(let points, let closed): return .polyline(points.map(point), closed: closed)
            case .star(let center, let count, let outer, let inner):
                guard let count = Self.starPoints(number(count)) else { return none }
                return .star(center: point(center), points: count, outerRadius: length(outer), innerRadius: length(inner))
            }
        }
    }

    /// A transform's written form with terms for its numbers.
    public enum TransformSource: Sendable {
        /// `{matrix: [16 numbers]}`, row by row.
        case matrix([Term])
        /// The named form.
        case components(TransformComponents)
    }

    /// The named form's components; nil where not written (the identity's value).
    public struct TransformComponents: Sendable {
        public var scale: (x: Term, y: Term)?
        /// Radians.
        public var rotate, rotateX, rotateY: Term?
        public var translate: PointSource?
        public var translateZ: Term?
        /// The eye's distance: m34 = −1/perspective.
        public var perspective: Term?

        public init() {}

        /// The components with key paths, each bound alone when live (`LiveTarget.liveComponents`), in the
        /// order they are bound — rotate, rotateX, rotateY, scale, translate: the bindings' random() salts
        /// follow it — and where each is written (one number drives `transform.scale`; `scale: [x, y]`, each axis).
        static let keyPaths: [(keyPath: LayerKeyPath, key: String, index: Int?)] = [
            (.transformRotationZ, "rotate", nil), (.transformRotationX, "rotateX", nil), (.transformRotationY, "rotateY", nil),
            (.transformScale, "scale", nil), (.transformScaleX, "scale", 0), (.transformScaleY, "scale", 1),
            (.transformTranslationX, "translate", 0), (.transformTranslationY, "translate", 1),
            (.transformTranslationZ, "translate", 2),
        ]

        /// Every term, in the order the contract lists the components.
        var terms: [Term] {
            [perspective, rotateX, rotateY, rotate, scale?.x, scale?.y, translateZ].compactMap { $0 }
        }

        /// The components with the terms' values (`number`, `point`). As written, a
        /// distance must be positive: anything else is no transform (NaN).
        func components(number: (Term) -> Double, point: (PointSource) -> Point) -> Transform3D.Components {
            var c = Transform3D.Components()
            if let (x, y) = scale { c.sx = number(x); c.sy = number(y) }
            if let r = rotate { c.rotationZ = number(r) }
            if let r = rotateX { c.rotationX = number(r) }
            if let r = rotateY { c.rotationY = number(r) }
            if let p = translate.map(point) { c.tx = p.x; c.ty = p.y }
            if let z = translateZ { c.tz = number(z) }
            if let d = perspective.map(number) { c.m34 = d > 0 ? -1 / d : .nan }
            return c
        }
    }

    /// One point of a live cubic.
    public enum PointSource: Sendable {
        case vector(SceneExpression, SourceRange)
        case components(Term, Term)

        /// A literal point's value; NaN for an expression (not evaluated here).
        var value: Point {
            if case .components(let x, let y) = self { Point(x.value, y.value) } else { Point(.nan, .nan) }
        }
    }

    /// Every expression of the binding, in source order.
    public var expressions: [SceneExpression] { value.expressions }
}

extension ExpressionBinding.BoundValue {
    /// A point property's value from one point of either form.
    init(_ point: ExpressionBinding.PointSource) { self = .point(point) }

    /// Every expression of the value, in source order.
    public var expressions: [SceneExpression] { expressionKinds.map(\.expression) }

    /// Every expression of the value, in source order, with the kind it must give (a
    /// number for a term, a point for a whole point) and where it was written.
    public var expressionKinds: [(expression: SceneExpression, kind: SceneExpression.ValueKind, range: SourceRange)] {
        typealias Term = ExpressionBinding.Term
        typealias Kinds = [(expression: SceneExpression, kind: SceneExpression.ValueKind, range: SourceRange)]
        func of(_ t: Term) -> Kinds { if case .expression(let e, let range) = t { [(e, .scalar, range)] } else { [] } }
        func of(_ p: ExpressionBinding.PointSource) -> Kinds {
            switch p {
            case .vector(let e, let range): [(e, .vector, range)]
            case .components(let x, let y): of(x) + of(y)
            }
        }
        switch self {
        case .scalar(let t): return of(t)
        case .point(let p): return of(p)
        case .cubic(let points): return points.flatMap(of)
        case .transform(.matrix(let entries)): return entries.flatMap(of)
        case .transform(.components(let c)): return c.terms.flatMap(of) + (c.translate.map(of) ?? [])
        case .rebuilt(.rect(let r)), .rebuilt(.framePosition(let r, _)): return r.terms.flatMap(of)
        case .rebuilt(.numbers(let terms)): return terms.flatMap(of)
        case .rebuilt(.path(let primitive)):
            switch primitive {
            case .rect(let r), .oval(let r): return r.terms.flatMap(of)
            case .roundedRect(let r, let radius): return (r.terms + [radius]).flatMap(of)
            case .arc(let center, let radius, let start, let end, _): return of(center) + [radius, start, end].flatMap(of)
            case .polyline(let points, _): return points.flatMap(of)
            case .star(let center, let count, let outer, let inner): return of(center) + [count, outer, inner].flatMap(of)
            }
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
    /// Where it was written: a value it gives that its property refuses is reported there.
    public var place: SourcePlace? = nil
}

/// A value as the file writes it: a literal, or an expression (section 4) the runtime
/// evaluates where the value takes effect, with its place and `random()` salt.
public enum Term<Value: Sendable>: Sendable {
    case literal(Value)
    case expression(ExpressionValue)

    /// The expression; nil for a literal.
    public var expression: ExpressionValue? {
        if case .expression(let e) = self { e } else { nil }
    }

    /// The literal; nil for an expression.
    public var literal: Value? {
        if case .literal(let v) = self { v } else { nil }
    }
}

/// A behavior property the file sets while the simulation runs (section 6): once, by an
/// event's `set:`, or at every step, before the step, when written as an expression (as a
/// UIKit `action` block would).
public struct BehaviorSetting: Sendable {
    /// The behavior's id and the property's UIKit name (`anchorPoint`, `magnitude`, …).
    public var behavior: String
    public var property: String
    public var term: Term<BehaviorValue>
}
