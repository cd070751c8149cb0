import KineticAnimation
import KineticGeometry
import KineticLayers

/// The keys of an animation (section 5), written once: the loader reads the timing keys
/// by their kind into `AnimationTiming` and the flags into `AnimationSpec` from here, checks
/// which keys go with which form, and names Core Animation's spellings; the key list
/// (`AnimationDecoder.keys`) and the docs (`kinetic schema`, docs/keys.md) come from here too.
enum AnimationKeys {
    /// What an animation is, decided by the key it gives: `group`, a keyframe `path`,
    /// `values`, or none of these (`from`/`to`/`by`).
    enum Form: Sendable {
        case basic, keyframes, motionPath, group

        /// Why a key of another form is refused in this one.
        func misplaced(_ key: String) -> String {
            switch self {
            case .group: "'\(key)' belongs on the group's animations, not on the group"
            case .motionPath: "'\(key)' cannot be combined with a keyframe 'path'"
            case .keyframes: "'\(key)' cannot be combined with 'values'"
            case .basic: "'\(key)' needs 'values' or a keyframe 'path'"
            }
        }
    }

    /// One key: its schema entry (kind, range, default, docs) and what the loader does with it.
    struct Key: Sendable {
        let spec: PropertySpec<AnimationSpec>
        /// The forms it belongs to; nil for every form.
        let forms: Set<Form>?
        /// The message when it is given in another form (but a group), instead of the form's.
        let misplaced: String?
        /// Core Animation's (and UIKit's) spellings of it: unknown keys, reported with `hint`.
        let appleNames: [String]
        let hint: @Sendable (_ appleName: String) -> String
        /// The message for a value outside `range`, instead of the range's own.
        let refusal: String?
        /// Stores the value read by its kind (`Field.timingValue`) into the timing; nil for
        /// keys the decoder reads itself.
        private(set) var store: (@Sendable (inout AnimationTiming, FileValue) -> Void)?
        /// The spec's flag it sets; such a flag adds values (`Interpolation.add`), so it is
        /// refused for kinds without a sum.
        private(set) var flag: (WritableKeyPath<AnimationSpec, Bool> & Sendable)?

        var name: String { spec.name }

        init(_ name: String, _ kind: PropertyKind, range: ValueRange? = nil, default defaultValue: DocValue? = nil,
             expressions: Bool = false, forms: Set<Form>? = nil, misplaced: String? = nil, apple: [String] = [],
             hint: (@Sendable (String) -> String)? = nil, refusal: String? = nil, doc: String) {
            spec = PropertySpec(name, kind, range: range, default: defaultValue, expressions: expressions, doc: doc)
            self.forms = forms; self.misplaced = misplaced; self.refusal = refusal
            appleNames = apple
            self.hint = hint ?? { "Core Animation's \($0) is '\(name)' here" }
        }

        /// A key stored into the timing through `keyPath`.
        init<T: TimingValue>(_ name: String, _ kind: PropertyKind, _ keyPath: WritableKeyPath<AnimationTiming, T> & Sendable,
                             range: ValueRange? = nil, default defaultValue: DocValue? = nil, apple: [String] = [],
                             hint: (@Sendable (String) -> String)? = nil, refusal: String? = nil, doc: String) {
            self.init(name, kind, range: range, default: defaultValue, apple: apple, hint: hint, refusal: refusal, doc: doc)
            store = { timing, value in if let v = T(value) { timing[keyPath: keyPath] = v } }
        }

        /// A flag of the spec that adds values (`additive`, `cumulative`).
        init(_ name: String, flag: WritableKeyPath<AnimationSpec, Bool> & Sendable, apple: String, doc: String) {
            self.init(name, .bool, default: .bool(false), forms: [.basic, .keyframes], apple: [apple], doc: doc)
            self.flag = flag
        }
    }

    /// Keys of keyframes of values and of a path.
    private static let keyframed: Set<Form> = [.keyframes, .motionPath]

    static let table: [Key] = [
        Key("id", .string, doc: "Name for `after:` and animationStop events."),
        Key("layer", .string, doc: "The layer animated (or $item in an event)."),
        Key("behavior", .string, doc: "The behavior animated, instead of a layer."),
        Key("keyPath", .string, forms: [.basic, .keyframes, .motionPath],
            doc: "The animated property, e.g. position.x, transform.rotation.z, path.progress."),
        Key("from", .value, expressions: true, forms: [.basic], apple: ["fromValue"],
            doc: "Start value (default: the current presentation value)."),
        Key("to", .value, expressions: true, forms: [.basic], apple: ["toValue"], doc: "End value."),
        Key("by", .value, expressions: true, forms: [.basic], apple: ["byValue"],
            doc: "Change added to the start value, instead of to."),
        Key("values", .values, expressions: true, forms: [.keyframes], doc: "Keyframe values (CAKeyframeAnimation)."),
        Key("keyTimes", .numbers, range: .unit("shares of the duration"), forms: keyframed,
            doc: "Keyframe times, 0…1 of the duration."),
        Key("timingFunctions", .timingFunctions, forms: keyframed, doc: "Timing function of each keyframe interval."),
        Key("calculationMode", .choice(SceneSchema.names(KeyframeAnimation.CalculationMode.self)),
            default: .string("linear"), forms: keyframed, doc: "How keyframes are interpolated."),
        Key("tensionValues", .numbers, forms: [.keyframes],
            doc: "Kochanek–Bartels tension at each value (cubic, cubicPaced; 0 = Catmull-Rom)."),
        Key("continuityValues", .numbers, forms: [.keyframes],
            doc: "Kochanek–Bartels continuity at each value (cubic, cubicPaced; 0 = smooth)."),
        Key("biasValues", .numbers, forms: [.keyframes],
            doc: "Kochanek–Bartels bias at each value (cubic, cubicPaced; 0 = even)."),
        Key("path", .path, forms: [.motionPath], doc: "Moves position along this path (keyframe animation)."),
        Key("rotationMode", .choice(SceneSchema.names(AnimationSpec.RotationMode.self)), forms: [.motionPath],
            misplaced: "'rotationMode' goes with a keyframe 'path'", doc: "Turns the layer along the path."),
        Key("duration", .number, \.duration, range: .nonNegative("a duration"), default: .number(0.25),
            doc: "Seconds of one cycle."),
        Key("begin", .number, \.beginTime, default: .number(0), apple: ["beginTime"],
            doc: "beginTime: seconds from the scene start (or after `after`)."),
        Key("after", .string, doc: "Starts when the animation with this id stops."),
        Key("timingFunction", .timingFunction, default: .string("linear"), apple: ["timingFunctionName"],
            hint: { _ in "a timing function's name goes in 'timingFunction'" },
            doc: "A CAMediaTimingFunction name or cubic Bézier [c1x, c1y, c2x, c2y]."),
        Key("repeatCount", .countOrForever, \.repeatCount, range: .nonNegative("a count"), default: .number(1),
            doc: "Cycles to play, or forever."),
        Key("autoreverses", .bool, \.autoreverses, default: .bool(false), doc: "Plays each cycle forward then back."),
        Key("fillMode", .choice(SceneSchema.names(FillMode.self)), \.fillMode, default: .string("forwards"),
            apple: ["removedOnCompletion", "isRemovedOnCompletion"],
            hint: { _ in "use 'fillMode': forwards, the default, keeps the end value; removed drops it" },
            doc: "Whether the value holds before the begin or after the end."),
        Key("additive", flag: \.additive, apple: "isAdditive", doc: "Adds the animated value to the model value."),
        Key("cumulative", flag: \.cumulative, apple: "isCumulative",
            doc: "Each repeat starts where the previous ended: cycle k adds k × (end − start) (CAPropertyAnimation)."),
        Key("spring", .mapping("spring"), apple: ["mass", "stiffness", "damping", "initialVelocity"],
            hint: { "CASpringAnimation's \($0) goes in 'spring: {…}'" }, doc: "A spring (UIView damping or CASpringAnimation)."),
        Key("oscillation", .mapping("oscillation"), doc: "A damped oscillation from → to."),
        Key("group", .mappings("animation"), forms: [.group], apple: ["animations"],
            doc: "Animations sharing this one's duration, begin and repeatCount."),
        Key("speed", .number, \.speed, range: .nonNegative("playing backwards is not supported; 0 holds"), default: .number(1),
            refusal: "a negative speed (playing backwards) is not supported: use 0 or more",
            doc: "Rate of the animation's time relative to its layer's (CAMediaTiming)."),
        Key("timeOffset", .number, \.timeOffset, default: .number(0), doc: "Added to the animation's active time (CAMediaTiming)."),
        Key("repeatDuration", .countOrForever, \.repeatDuration, range: .nonNegative("a duration"),
            doc: "Seconds to repeat for, instead of repeatCount."),
    ]

    /// `spring:` — UIView's form (`dampingRatio`, over the animation's duration) or
    /// CASpringAnimation's (`mass`, `stiffness`, `damping`); `initialVelocity` in both.
    static let spring: [PropertySpec<Void>] = [
        PropertySpec("dampingRatio", .number, range: ValueRange(0.01, 100, reason: "UIView's damping ratio"),
                     doc: "UIView's damping ratio (1 = critical)."),
        PropertySpec("initialVelocity", .number, default: .number(0),
                     doc: "Initial velocity (UIView: in units of the whole change per second)."),
        PropertySpec("mass", .number, range: .positive("a mass"), default: .number(1), doc: "CASpringAnimation's mass."),
        PropertySpec("stiffness", .number, range: .positive("a stiffness"), default: .number(100),
                     doc: "CASpringAnimation's stiffness."),
        PropertySpec("damping", .number, range: .nonNegative("a damping"), default: .number(10), doc: "CASpringAnimation's damping."),
    ]

    /// `oscillation:` (KYSpringLayerAnimation's value generator); both keys are required.
    static let oscillation: [PropertySpec<Void>] = [
        PropertySpec("damping", .number, range: .nonNegative("a decay rate"),
                     doc: "Decay rate d of to − (to − from)·e^(−d·x)·cos(v·x)."),
        PropertySpec("velocity", .number, doc: "Angular speed v of the oscillation."),
    ]

    /// The names `timingFunction` takes (CAMediaTimingFunctionName's).
    static let timingFunctionNames: [String: TimingFunction] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut, "default": .default,
    ]

    /// UIKit's names (UIView.AnimationCurve, UIView.AnimationOptions) for the curves of
    /// `timingFunctionNames`: the error names the one to write.
    static let uiKitTimingFunctionNames: [String: String] = [
        "easeInOut": "easeInEaseOut", "curveEaseInOut": "easeInEaseOut", "curveEaseIn": "easeIn",
        "curveEaseOut": "easeOut", "curveLinear": "linear",
    ]

    /// CAKeyframeAnimation's Kochanek–Bartels parameters, one per value (keys of `table`).
    static let splineKeys = ["tensionValues", "continuityValues", "biasValues"]

    /// The schema entries, for the docs and the JSON Schema.
    static let entries = table.map(\.spec)

    /// The unknown-key hints for Core Animation's spellings.
    static let hints: [String: String] = table.reduce(into: [:]) { hints, key in
        for apple in key.appleNames { hints[apple] = key.hint(apple) }
    }

    /// The key a Core Animation spelling stands for.
    static let renamed: [String: String] = table.reduce(into: [:]) { renamed, key in
        for apple in key.appleNames { renamed[apple] = key.name }
    }

    /// The timing an animation has when it gives none of its keys: each key's default.
    static let defaultTiming: AnimationTiming = table.reduce(into: AnimationTiming()) { timing, key in
        guard let store = key.store, let value = key.spec.defaultValue?.fileValue else { return }
        store(&timing, value)
    }
}

/// A timing field's type, as the file value of its key's kind gives it.
protocol TimingValue: Sendable { init?(_ value: FileValue) }
extension Double: TimingValue { init?(_ value: FileValue) { guard case .number(let v) = value else { return nil }; self = v } }
extension Bool: TimingValue { init?(_ value: FileValue) { guard case .bool(let b) = value else { return nil }; self = b } }
extension FillMode: TimingValue { init?(_ value: FileValue) { guard case .name(let n) = value else { return nil }; self.init(rawValue: n) } }
extension Optional: TimingValue where Wrapped: TimingValue { init?(_ value: FileValue) { guard let w = Wrapped(value) else { return nil }; self = w } }

private extension DocValue {
    /// The default as the file would write it.
    var fileValue: FileValue? {
        switch self {
        case .number(let v): .number(v)
        case .string(let s): .name(s)
        case .bool(let b): .bool(b)
        case .numbers, .strings: nil
        }
    }
}
