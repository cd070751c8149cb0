import Foundation
import KineticGeometry

extension SceneExpression {
    /// The expression's value at one frame.
    ///
    /// Never fails: `sqrt(-1)`, `log(0)`, `1 / 0` and the like give NaN or infinity, as
    /// IEEE arithmetic does, and so does a reference that resolves to the wrong kind. The
    /// caller checks ``Value/isFinite`` and reports a non-finite result with the
    /// expression's location (section 9: never a frame of garbage).
    ///
    /// Walks the tree built at parse time without allocating, so it is cheap to call
    /// for every frame.
    public func evaluate(_ context: EvaluationContext) -> Value {
        Evaluator(context: context, references: references, site: site).value(of: root)
    }
}

private struct Evaluator {
    let context: SceneExpression.EvaluationContext
    let references: [SceneExpression.Reference]
    let site: UInt64

    func value(of node: Node) -> SceneExpression.Value {
        switch node.kind {
        case .number(let v):
            return .scalar(v)
        case .time:
            return .scalar(context.time)
        case .frame:
            return .scalar(Double(context.frame))
        case .reference(let index):
            return context.resolve(references[index])
        case .random(let callSite):
            return .scalar(RandomHash.unitInterval(seed: context.seed, expressionID: context.expressionID,
                                                   frame: context.frame, callSite: RandomHash.mix(site) ^ callSite))
        case .vector(let x, let y):
            return .vector(Point(scalar(x), scalar(y)))
        case .component(let operand, let axis):
            guard case .vector(let p) = value(of: operand) else { return .scalar(.nan) }
            return .scalar(axis == .x ? p.x : p.y)
        case .negate(let operand):
            switch value(of: operand) {
            case .scalar(let v): return .scalar(-v)
            case .vector(let p): return .vector(-p)
            }
        case .binary(let op, let lhs, let rhs):
            return Self.apply(op, value(of: lhs), value(of: rhs))
        case .call(let function, let arguments):
            return call(function, arguments)
        }
    }

    /// A number operand; NaN if it is a point, which the type check rules out.
    private func scalar(_ node: Node) -> Double {
        value(of: node).scalar ?? .nan
    }

    private static func apply(_ op: BinaryOperator, _ lhs: SceneExpression.Value, _ rhs: SceneExpression.Value) -> SceneExpression.Value {
        switch (op, lhs, rhs) {
        case (.add, .scalar(let a), .scalar(let b)): .scalar(a + b)
        case (.add, .vector(let a), .vector(let b)): .vector(a + b)
        case (.subtract, .scalar(let a), .scalar(let b)): .scalar(a - b)
        case (.subtract, .vector(let a), .vector(let b)): .vector(a - b)
        case (.multiply, .scalar(let a), .scalar(let b)): .scalar(a * b)
        case (.multiply, .vector(let a), .scalar(let s)), (.multiply, .scalar(let s), .vector(let a)): .vector(a * s)
        case (.divide, .scalar(let a), .scalar(let b)): .scalar(a / b)
        case (.divide, .vector(let a), .scalar(let s)): .vector(a / s)
        case (.power, .scalar(let a), .scalar(let b)): .scalar(Foundation.pow(a, b))
        default: .scalar(.nan)
        }
    }

    private func call(_ function: Function, _ arguments: [Node]) -> SceneExpression.Value {
        if function == .lerp {
            let u = scalar(arguments[2])
            switch (value(of: arguments[0]), value(of: arguments[1])) {
            case (.scalar(let a), .scalar(let b)): return .scalar(a + (b - a) * u)
            case (.vector(let a), .vector(let b)): return .vector(a.lerp(to: b, u))
            default: return .scalar(.nan)
            }
        }
        return .scalar(scalarCall(function, arguments))
    }

    private func scalarCall(_ function: Function, _ arguments: [Node]) -> Double {
        let x = arguments.isEmpty ? .nan : scalar(arguments[0])
        switch function {
        case .sin: return Foundation.sin(x)
        case .cos: return Foundation.cos(x)
        case .tan: return Foundation.tan(x)
        case .asin: return Foundation.asin(x)
        case .acos: return Foundation.acos(x)
        case .atan: return Foundation.atan(x)
        case .atan2: return Foundation.atan2(x, scalar(arguments[1]))
        case .abs: return Swift.abs(x)
        case .sqrt: return x.squareRoot()
        case .pow: return Foundation.pow(x, scalar(arguments[1]))
        case .exp: return Foundation.exp(x)
        case .log: return Foundation.log(x)
        case .floor: return x.rounded(.down)
        case .ceil: return x.rounded(.up)
        // Halves away from zero, as C's round() and Double.rounded().
        case .round: return x.rounded()
        case .min, .max:
            var result = x
            // Indices, not a slice: iterating a slice allocates in unoptimized builds.
            for index in 1..<arguments.count {
                let v = scalar(arguments[index])
                if v.isNaN || result.isNaN { return .nan }
                result = function == .min ? Swift.min(result, v) : Swift.max(result, v)
            }
            return result
        case .clamp:
            let lo = scalar(arguments[1]), hi = scalar(arguments[2])
            if x.isNaN || lo.isNaN || hi.isNaN { return .nan }
            return Swift.min(Swift.max(x, lo), hi)
        case .smoothstep:
            let edge0 = x, edge1 = scalar(arguments[1]), v = scalar(arguments[2])
            // Equal edges make a step rather than 0/0.
            if edge0 == edge1 { return v < edge0 ? 0 : 1 }
            let u = Swift.min(Swift.max((v - edge0) / (edge1 - edge0), 0), 1)
            return u * u * (3 - 2 * u)
        case .lerp, .random:
            // Parsed into their own node kinds / handled above.
            return .nan
        }
    }
}

/// `random()`'s numbers: a SplitMix64 hash of the scene seed, the expression, the frame
/// and the call site, so a frame renders the same on every run and in any order, and
/// no state is carried between frames.
enum RandomHash {
    /// A number in [0, 1) with 53 random bits.
    static func unitInterval(seed: UInt64, expressionID: UInt64, frame: Int, callSite: UInt64) -> Double {
        var h = mix(seed)
        h = mix(h ^ expressionID)
        h = mix(h ^ UInt64(bitPattern: Int64(frame)))
        h = mix(h ^ callSite)
        return Double(h >> 11) * 0x1p-53
    }

    /// SplitMix64's step and output function: a bijection on 64 bits with full avalanche.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
