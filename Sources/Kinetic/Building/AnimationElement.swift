/// An animation of a built scene. Any key the scene format has for animations is a
/// chained setter by its name: `.timingFunction("easeInEaseOut").repeatCount("forever")`.
public protocol AnimationElement: SceneElement {}

/// `CABasicAnimation`: one key path from a value to another.
public struct BasicAnimation: AnimationElement {
    public var settings: [(String, SceneValue)]
    /// Animates `keyPath` (such as `"strokeEnd"` or `"transform.rotation.z"`) of `layer`.
    public init(_ keyPath: String, of layer: String, from: SceneValue, to: SceneValue, duration: Double) {
        settings = [("layer", .string(layer)), ("keyPath", .string(keyPath)),
                    ("from", from), ("to", to), ("duration", .number(duration))]
    }
}

/// `CAKeyframeAnimation`: one key path through values at key times.
public struct KeyframeAnimation: AnimationElement {
    public var settings: [(String, SceneValue)]
    public init(_ keyPath: String, of layer: String, values: [SceneValue], duration: Double) {
        settings = [("layer", .string(layer)), ("keyPath", .string(keyPath)),
                    ("values", .list(values)), ("duration", .number(duration))]
    }
}

/// `CASpringAnimation`: a spring from a value to another, lasting its settling duration
/// unless a `duration` is set.
public struct SpringAnimation: AnimationElement {
    public var settings: [(String, SceneValue)]
    /// `dampingRatio` 1 settles without overshoot; lower values bounce.
    public init(_ keyPath: String, of layer: String, from: SceneValue, to: SceneValue,
                dampingRatio: Double, initialVelocity: Double = 0) {
        settings = [("layer", .string(layer)), ("keyPath", .string(keyPath)), ("from", from), ("to", to),
                    ("spring", ["dampingRatio": .number(dampingRatio), "initialVelocity": .number(initialVelocity)])]
    }
}
