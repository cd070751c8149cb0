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
    public var timingFunction: TimingFunction = .linear
    /// Added to the underlying value instead of replacing it (CAPropertyAnimation.additive).
    public var additive = false

    /// The value source: CABasicAnimation, CAKeyframeAnimation, or a group.
    public enum Values: Sendable {
        /// CABasicAnimation's fromValue/toValue/byValue (any may be nil).
        case basic(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        /// CAKeyframeAnimation: `values`, optional `keyTimes` and per-segment timing functions.
        case keyframes(values: [AnimatableValue], keyTimes: [Double]?, timingFunctions: [TimingFunction]?,
                       calculationMode: CalculationMode)
        /// CAAnimationGroup: children timed in the group's local time.
        case group([AnimationSpec])
    }
}
