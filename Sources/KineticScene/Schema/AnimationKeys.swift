import KineticAnimation
import KineticLayers

/// The keys of an animation (section 5), written once: the loader's key list
/// (`AnimationDecoder.keys`) and the docs (`kinetic schema`, docs/keys.md) come from here.
enum AnimationKeys {
    typealias Entry = PropertySpec<AnimationSpec>

    private static func names<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [String] where E.RawValue == String {
        E.allCases.map(\.rawValue)
    }

    static let entries: [Entry] = [
        Entry("id", .string, doc: "Name for `after:` and animationStop events."),
        Entry("layer", .string, doc: "The layer animated (or $item in an event)."),
        Entry("behavior", .string, doc: "The behavior animated, instead of a layer."),
        Entry("keyPath", .string, doc: "The animated property, e.g. position.x, transform.rotation.z, path.progress."),
        Entry("from", .value, expressions: true, doc: "Start value (default: the current presentation value)."),
        Entry("to", .value, expressions: true, doc: "End value."),
        Entry("by", .value, expressions: true, doc: "Change added to the start value, instead of to."),
        Entry("values", .values, expressions: true, doc: "Keyframe values (CAKeyframeAnimation)."),
        Entry("keyTimes", .numbers, range: .unit("shares of the duration"), doc: "Keyframe times, 0…1 of the duration."),
        Entry("timingFunctions", .timingFunctions, doc: "Timing function of each keyframe interval."),
        Entry("calculationMode", .choice(names(KeyframeAnimation.CalculationMode.self)), default: .string("linear"),
              doc: "How keyframes are interpolated."),
        Entry("tensionValues", .numbers, doc: "Kochanek–Bartels tension at each value (cubic, cubicPaced; 0 = Catmull-Rom)."),
        Entry("continuityValues", .numbers, doc: "Kochanek–Bartels continuity at each value (cubic, cubicPaced; 0 = smooth)."),
        Entry("biasValues", .numbers, doc: "Kochanek–Bartels bias at each value (cubic, cubicPaced; 0 = even)."),
        Entry("path", .path, doc: "Moves position along this path (keyframe animation)."),
        Entry("rotationMode", .choice(names(AnimationSpec.RotationMode.self)), doc: "Turns the layer along the path."),
        Entry("duration", .number, range: .nonNegative("a duration"), default: .number(0.25), doc: "Seconds of one cycle."),
        Entry("begin", .number, default: .number(0), doc: "beginTime: seconds from the scene start (or after `after`)."),
        Entry("after", .string, doc: "Starts when the animation with this id stops."),
        Entry("timingFunction", .timingFunction, default: .string("linear"),
              doc: "A CAMediaTimingFunction name or cubic Bézier [c1x, c1y, c2x, c2y]."),
        Entry("repeatCount", .countOrForever, range: .nonNegative("a count"), default: .number(1),
              doc: "Cycles to play, or forever."),
        Entry("autoreverses", .bool, default: .bool(false), doc: "Plays each cycle forward then back."),
        Entry("fillMode", .choice(names(FillMode.self)), default: .string("forwards"),
              doc: "Whether the value holds before the begin or after the end."),
        Entry("additive", .bool, default: .bool(false), doc: "Adds the animated value to the model value."),
        Entry("cumulative", .bool, default: .bool(false),
              doc: "Each repeat starts where the previous ended: cycle k adds k × (end − start) (CAPropertyAnimation)."),
        Entry("spring", .mapping("spring"), doc: "A spring (UIView damping or CASpringAnimation)."),
        Entry("oscillation", .mapping("oscillation"), doc: "A damped oscillation from → to."),
        Entry("group", .mappings("animation"), doc: "Animations sharing this one's duration, begin and repeatCount."),
        Entry("speed", .number, range: .nonNegative("playing backwards is not supported; 0 holds"), default: .number(1),
              doc: "Rate of the animation's time relative to its layer's (CAMediaTiming)."),
        Entry("timeOffset", .number, default: .number(0), doc: "Added to the animation's active time (CAMediaTiming)."),
        Entry("repeatDuration", .countOrForever, range: .nonNegative("a duration"),
              doc: "Seconds to repeat for, instead of repeatCount."),
    ]
}
