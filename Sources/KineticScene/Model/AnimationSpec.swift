import KineticGeometry
import KineticLayers
import KineticAnimation

/// One entry of `animations:` (section 5), checked against its layer and key path, with
/// `after:` already resolved into an absolute begin time.
public struct AnimationSpec: Sendable {
    public var id: String?
    /// The animated layer (nil only inside a group that names none; the group's is used).
    public var layer: LayerAddress
    public var keyPath: LayerKeyPath
    public var values: Values
    /// CAMediaTiming in scene seconds (children of a group: in the group's local time).
    public var timing: AnimationTiming
    /// How progress becomes the blend fraction: a timing function, or a spring.
    public var easing: Easing = .timingFunction(.linear)
    /// Added to the underlying value instead of replacing it (CAPropertyAnimation.additive).
    public var additive = false
    /// Each repeat cycle starts where the one before ended: cycle k adds k × (end − start)
    /// of one cycle (CAPropertyAnimation.cumulative).
    public var cumulative = false
    /// Whether the animation (or a child of the group) still has values written as
    /// expressions (section 4). Core Animation fixes an animation's values when it is
    /// added, so they are evaluated once, when the animation begins
    /// (`capturing(reading:…)`): it must not run before.
    public var needsCapture: Bool {
        switch values {
        case .basic(let from, let to, let by): [from, to, by].contains { $0?.expression != nil }
        case .keyframeTerms: true
        case .keyframes, .motionPath: false
        case .group(let children): children.contains(where: \.needsCapture)
        }
    }

    /// The value source: CABasicAnimation, CAKeyframeAnimation, or a group. Values are
    /// terms as written: literals, or expressions evaluated when the animation begins.
    public enum Values: Sendable {
        /// CABasicAnimation's fromValue/toValue/byValue (any may be nil).
        case basic(from: Term<AnimatableValue>?, to: Term<AnimatableValue>?, by: Term<AnimatableValue>?)
        /// CAKeyframeAnimation whose values are all known: `values` (literals, or
        /// expressions evaluated when it began), the optional `keyTimes`, per-segment timing
        /// functions, mode and spline parameters. Made and checked once, so no frame
        /// rebuilds or checks it.
        case keyframes(KeyframeAnimation.Validated)
        /// CAKeyframeAnimation with values written as expressions: `values` (terms), and
        /// the keyTimes, timing functions, mode and spline parameters of `timing`, whose own
        /// `values` are empty. Evaluating the terms when it begins makes it `keyframes`.
        case keyframeTerms(timing: KeyframeAnimation, values: [Term<AnimatableValue>])
        /// CAKeyframeAnimation with a `path`: `position` moves along it (timed by its
        /// `keyTimes`, `timingFunctions` and `calculationMode`); `rotationMode` turns the
        /// layer with the tangent.
        case motionPath(PathKeyframeAnimation, rotationMode: RotationMode?)
        /// CAAnimationGroup: children timed in the group's local time.
        case group([AnimationSpec])
    }

    /// The curve from cycle progress to blend fraction.
    public enum Easing: Sendable {
        /// CAMediaTimingFunction on the cycle's progress.
        case timingFunction(TimingFunction)
        /// CASpringAnimation / UIView spring: the oscillator at the cycle's elapsed seconds.
        case spring(SpringAnimation)
        /// KYSpringLayerAnimation's generator over the progress x ∈ [0, 1].
        case oscillation(SpringAnimation.Oscillation)

        /// The blend fraction at `progress` of a cycle lasting `duration` seconds. A
        /// spring's cycle ends exactly at its end value, as UIView leaves the model value
        /// (its motion is only within 0.08 % of it at the settling duration).
        public func fraction(progress: Double, duration: Double) -> Double {
            switch self {
            case .timingFunction(let f): f(progress)
            case .spring(let s): progress >= 1 ? 1 : s.fraction(at: progress * duration)
            case .oscillation(let o): o.fraction(at: progress)
            }
        }
    }

    /// CAKeyframeAnimation.rotationMode.
    public enum RotationMode: String, Sendable, CaseIterable { case auto, autoReverse }
}

extension AnimationSpec {
    /// When the animation begins in scene seconds: its `beginTime` is on its layer's clock
    /// (`layers.clock(at:)`), which may run at another speed or stand still.
    public func sceneBegin(in layers: [Layer]) -> Double {
        layers.clock(at: layer).firstSceneTime(reaching: timing.beginTime)
    }
}
