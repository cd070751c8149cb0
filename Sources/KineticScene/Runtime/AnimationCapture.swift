import KineticAnimation
import KineticGeometry
import KineticLayers

/// Core Animation fixes an animation's from/to/by/values when it is added: expression
/// values (section 4) are evaluated once, when the animation begins, reading the
/// presentation values of that moment — what a frame then shows, without the animations
/// beginning then or later. Reading values computed before the animation runs, they can
/// form no cycle.
extension AnimationSpec {
    /// The animation with its expression values (and its children's, for a group: all
    /// at the group's begin) evaluated against `layers`, the presentation at `time`; nil
    /// when a value is not finite (the animation then has no effect).
    func capturing(reading layers: [Layer], ids: [String: LayerAddress], time: Double, frame: Int,
                   seed: UInt64) -> AnimationSpec? {
        var spec = self, finite = true
        func captured(_ term: Term<AnimatableValue>) -> Term<AnimatableValue> {
            let value = term.value(of: keyPath.valueKind) {
                $0.evaluate(reading: layers, ids: ids, time: time, frame: frame, seed: seed)
            }
            if value == nil { finite = false }
            return value.map { .literal($0) } ?? term
        }
        switch values {
        case .group(let children):
            let captured = children.compactMap { $0.capturing(reading: layers, ids: ids, time: time, frame: frame, seed: seed) }
            finite = captured.count == children.count
            spec.values = .group(captured)
        case .basic(let from, let to, let by):
            spec.values = .basic(from: from.map(captured), to: to.map(captured), by: by.map(captured))
        case .keyframeTerms(var animation, let values):
            // A value left an expression (not finite) makes the capture nil. Values of the key
            // path's kind (a number, point, size or transform) always blend, and the timing was
            // checked at load: the check cannot fail.
            animation.values = values.compactMap { captured($0).literal }
            guard let keyframes = try? KeyframeAnimation.Validated(animation) else { return nil }
            spec.values = .keyframes(keyframes)
        case .keyframes, .motionPath:
            break
        }
        return finite ? spec : nil
    }

    /// The frame a moment falls in at the scene's own fps (`frame` in expressions
    /// evaluated then): the same whatever fps a render asks for.
    static func frameIndex(at time: Double, fps: Double) -> Int {
        Int((time * fps + 1e-9).rounded(.down))
    }
}

extension Term<AnimatableValue> {
    /// The value, of `kind`: the literal, or what `evaluate` gives the expression (nil
    /// when that is not finite).
    func value(of kind: AnimatableValue.Kind, evaluate: (ExpressionValue) -> AnimatableValue?) -> AnimatableValue? {
        switch self {
        case .literal(let value): value
        case .expression(let e): evaluate(e)?.converted(to: kind)
        }
    }
}

extension LayerChange {
    /// The setting, an expression's value given by `evaluate`; nil when that is not finite.
    func setting(evaluate: (ExpressionValue) -> AnimatableValue?) -> LayerSetting? {
        switch self {
        case .value(let keyPath, let term): term.value(of: keyPath.valueKind, evaluate: evaluate).map { .value(keyPath, $0) }
        case .property(let property, let source): .property(property, from: source)
        }
    }
}
