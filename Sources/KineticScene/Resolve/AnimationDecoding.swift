import KineticDynamics
import KineticGeometry
import KineticLayers
import KineticAnimation

/// Reads `animations:` (section 5) against the layers already read.
struct AnimationDecoder {
    let layers: [String: LayerEntry]
    /// Reads image assets for `contents` animations.
    var assets: LayerDecoder
    /// Records expression values (section 4) for the checks at the end of the load.
    let binder: ExpressionBinder

    static let keys = AnimationKeys.entries.map(\.name)

    /// Whether the animation has an unknown key that stands for one of `valueKeys` —
    /// Core Animation's name (`toValue`) or a misspelling: its unknown-key report already
    /// says what to write, so a "needs 'to', …" report would only repeat it.
    static func misspells(_ valueKeys: Set<String>, in field: Field) -> Bool {
        guard case .mapping(let m) = field.node else { return false }
        return m.contains { pair in
            guard let key = pair.key.scalar?.string, !keys.contains(key) else { return false }
            return (AnimationKeys.renamed[key] ?? NameSuggestion.closest(to: key, in: keys)).map(valueKeys.contains) ?? false
        }
    }

    /// Animations in file order, with `after:` resolved to absolute begin times; `layers`
    /// gives each layer's clock (its `begin`, `speed`, `timeOffset` and its ancestors').
    mutating func animations(_ field: Field, layers: [Layer] = []) -> [AnimationSpec] {
        guard let items = field.elements else { return [] }
        // Behavior animations are read once the behaviors are known.
        behaviorFields += items.filter { $0.peek("behavior") != nil }
        let parsed = items.filter { $0.peek("behavior") == nil }.compactMap { animation($0, inheritedLayer: nil) }
        return Self.resolveAfter(parsed, clock: { layers.clock(at: $0) })
    }

    /// `animations:` entries with `behavior:`, for `behaviorAnimations(known:)`.
    private(set) var behaviorFields: [Field] = []

    /// Every `path` animation read so far (events' `animate` ones included), in file
    /// order (a group's children in theirs), for `checkUnderlyingPaths`.
    private(set) var pathAnimations: [PathAnimationUse] = []

    /// Reads the behavior animations against the behaviors of `dynamics:` (by id).
    /// Values must give their start (`from` or `values`): a behavior has no presentation
    /// value to start from.
    mutating func behaviorAnimations(known: [String: DynamicBehavior]) -> [BehaviorAnimation] {
        behaviorFields.compactMap { field -> BehaviorAnimation? in
            guard let id = field.peek("behavior")?.name(in: known, "behavior id"), let behavior = known[id]
            else { return nil }
            guard let kpf = field.peek("keyPath"), let property = kpf.node.scalar?.string else {
                field.report("missing required key 'keyPath' (the behavior's property)")
                return nil
            }
            let isPoint = behavior.settableKind(of: property) == .point
            guard behavior.accepts(property, .literal(isPoint ? .point(.zero) : .number(1)), id: id, at: kpf) else { return nil }
            // A stand-in layer entry: the key path only carries the kind of value. The values
            // written are checked as a `set:` of them is, so `validate` refuses what the
            // physics would (only an overshooting timing can leave the range between them:
            // the render stops there, at this animation).
            let carrier = Carrier(keyPath: isPoint ? .position : .zPosition) { value in
                BehaviorValue(value).flatMap { behavior.problem(setting: property, to: .literal($0), id: id) }
            }
            let entry = LayerEntry(address: LayerAddress([0]), type: .layer, propertyNames: [], field: field)
            guard let (spec, _) = animation(field, inheritedLayer: (entry, id), carrier: carrier,
                                            refusingAfter: "'after' is not supported for behavior animations: use 'begin'")
            else { return nil }
            return BehaviorAnimation(behavior: id, property: property, spec: spec, place: field.place)
        }
    }

    /// What a behavior's animation animates: a layer key path of its property's kind, and
    /// the problem with a value the property cannot take.
    struct Carrier {
        let keyPath: LayerKeyPath
        let problem: (AnimatableValue) -> String?
    }

    /// One animation (or group); `after` is returned unresolved, or, where it is not
    /// supported, reported with `refusingAfter`. A group's children inherit its layer and,
    /// when they give none, its duration (as CAAnimationGroup runs them). A behavior's
    /// animation animates the `carrier` key path, of its property's kind.
    mutating func animation(_ field: Field, inheritedLayer: (LayerEntry, String)?, inheritedDuration: Double? = nil,
                            contactLayer: (LayerEntry, String)? = nil, carrier: Carrier? = nil,
                            refusingAfter: String? = nil) -> (spec: AnimationSpec, after: Field?)? {
        guard var m = field.mapping(allowed: Self.keys, hints: AnimationKeys.hints, contexts: ["animation"])?
            .checked("animation") else { return nil }
        if carrier == nil, let f = m["behavior"] {
            f.report("'behavior' animations are read with the behaviors")
            return nil
        }
        if carrier != nil { m = m.removing(["behavior", "layer"]) }
        if carrier != nil, m["from"] == nil, m["values"] == nil {
            if !Self.misspells(["from", "values"], in: field) {
                field.report("a behavior animation needs 'from' or 'values': behaviors have no presentation value")
            }
            return nil
        }

        var target = inheritedLayer
        if let f = m["layer"], let name = f.string {
            if let contactLayer, name == "$item" || name == "$other" {
                target = contactLayer
            } else {
                guard f.name(in: layers, "layer id") != nil, let entry = layers[name] else { return nil }
                target = (entry, name)
            }
        }
        // The table's defaults (fill forwards: the end value persists, as UIView.animate), then
        // each timing key given, read by its kind.
        var spec = AnimationSpec(id: nil, layer: target?.0.address ?? LayerAddress([]), keyPath: .position,
                                 values: .basic(from: nil, to: nil, by: nil), timing: AnimationKeys.defaultTiming)
        if let inheritedDuration { spec.timing.duration = inheritedDuration }
        for key in AnimationKeys.table {
            guard let store = key.store, let f = m[key.name], let v = f.timingValue(key) else { continue }
            store(&spec.timing, v)
        }

        if let f = m["timingFunction"], let tf = timingFunction(f) { spec.easing = .timingFunction(tf) }
        if let f = m["spring"] {
            guard let spring = spring(f, duration: m["duration"] != nil ? spec.timing.duration : nil) else { return nil }
            spec.easing = .spring(spring)
            // CASpringAnimation's duration defaults to its settling duration.
            if m["duration"] == nil { spec.timing.duration = spring.settlingDuration }
        }
        if let f = m["oscillation"] {
            let keys = AnimationKeys.oscillation
            guard let o = f.mapping(allowed: keys.map(\.name)), o.required("damping") != nil, let d = o.number(keys, "damping"),
                  o.required("velocity") != nil, let v = o.number(keys, "velocity") else { return nil }
            spec.easing = .oscillation(SpringAnimation.oscillation(damping: d, velocity: v))
        }

        // Each form fills in its layer, key path and values; then the id is read (where the
        // form's problems no longer stop it).
        if let g = m["group"] {
            reportMisplaced(m, in: .group)
            guard let items = g.elements else { return nil }
            let refusal = "'after' is not supported inside a group: use 'begin' (relative to the group)"
            let children = items.compactMap {
                animation($0, inheritedLayer: target, inheritedDuration: spec.timing.duration, refusingAfter: refusal)?.spec
            }
            guard let first = children.first else {
                if items.isEmpty { g.report("a group needs at least one animation") }
                return nil
            }
            (spec.layer, spec.keyPath, spec.values) = (target?.0.address ?? first.layer, first.keyPath, .group(children))
        } else {
            guard let (entry, name) = target else {
                field.report("missing required key 'layer'")
                return nil
            }
            reportMisplaced(m, in: m["path"] != nil ? .motionPath : m["values"] != nil ? .keyframes : .basic)
            if let pf = m["path"] {
                guard motionPath(pf, m, into: &spec) else { return nil }
            } else {
                guard propertyAnimation(field, m, into: &spec, entry: entry, name: name, carrier: carrier)
                else { return nil }
                if spec.keyPath == .path { recordPathAnimation(spec, m, layer: name, fromEvent: contactLayer != nil) }
            }
        }
        spec.id = m["id"]?.string
        // Expression values are evaluated when the animation (a group: the whole group)
        // begins, so there is nothing to show before it.
        if inheritedDuration == nil, spec.needsCapture, [.backwards, .both].contains(spec.timing.fillMode) {
            let mode = spec.timing.fillMode.rawValue
            (m["fillMode"] ?? field).report("fillMode '\(mode)' shows the values before the animation begins, "
                                            + "but its expressions are evaluated when it begins: use forwards or removed")
            return nil
        }
        if let refusingAfter { m["after"]?.report(refusingAfter) }
        return (spec, m["after"])
    }

    /// A property animation's key path (a behavior's: `carrier`), flags and values: `values`
    /// (CAKeyframeAnimation) or `from`, `to` and `by` (CABasicAnimation).
    private mutating func propertyAnimation(_ field: Field, _ m: Mapping, into spec: inout AnimationSpec,
                                            entry: LayerEntry, name: String, carrier: Carrier?) -> Bool {
        guard let kpField = m.required("keyPath"), let kpText = kpField.string,
              let keyPath = carrier?.keyPath ?? self.keyPath(kpText, field: kpField, entry: entry, layerName: name)
        else { return false }
        spec.keyPath = keyPath
        /// A `from`/`to`/`by`/`values` entry (`valueOrExpression`). A behavior's literal values
        /// are checked by its `carrier`, but `by`: a step, not a value.
        func value(_ f: Field, isStep: Bool = false) -> Term<AnimatableValue>? {
            guard let term = valueOrExpression(f, for: keyPath, in: entry.bounds) else { return nil }
            if !isStep, let v = term.literal, let problem = carrier?.problem(v) { f.report(problem); return nil }
            return term
        }
        // Paths, booleans and images have no sum (`Interpolation.add`): an additive or
        // cumulative animation of them would do nothing.
        for key in AnimationKeys.table {
            guard let flag = key.flag, let f = m[key.name], let v = f.bool else { continue }
            if v, !keyPath.valueKind.adds {
                f.report("'\(key.name)' cannot be used with \(keyPath.valueKind.rawValue) values: they do not add")
                return false
            }
            spec[keyPath: flag] = v
        }

        if let vf = m["values"] {
            guard let items = vf.elements else { return false }
            guard let values = items.readingAll({ value($0) }), let (mode, keyTimes, functions) = keyframeTiming(m)
            else { return false }
            // Each needs calculationMode cubic or cubicPaced (`SceneKeys.rules`).
            let spline = AnimationKeys.splineKeys.map { m[$0].map { $0.numbers() } }
            if spline.contains(where: { $0 == .some(nil) }) { return false }
            var animation = KeyframeAnimation(values: values.compactMap(\.literal), keyTimes: keyTimes,
                                              timingFunctions: functions, calculationMode: mode, tensionValues: spline[0] ?? nil,
                                              continuityValues: spline[1] ?? nil, biasValues: spline[2] ?? nil)
            // An expression's value is of the key path's kind (a number, point, size or transform: any two of
            // one blend) but unknown until the animation begins: only the timing is checked, `paced` measures it then.
            do {
                if animation.values.count == values.count {
                    spec.values = .keyframes(try KeyframeAnimation.Validated(animation))
                } else {
                    try animation.validateTiming(count: values.count, kind: keyPath.valueKind)
                    animation.values = []
                    spec.values = .keyframeTerms(timing: animation, values: values)
                }
            } catch {
                report(error, m, values: vf)
                return false
            }
            return true
        }
        // Each key given is read (its problems reported) before giving up.
        let read = ["from", "to", "by"].map { key in m[key].map { value($0, isStep: key == "by") } }
        if read.contains(where: { if case .some(nil) = $0 { true } else { false } }) { return false }
        let (from, to, by) = (read[0] ?? nil, read[1] ?? nil, read[2] ?? nil)
        if from != nil, to != nil, by != nil {
            m["by"]?.report("'from', 'to' and 'by' together: give at most two")
            return false
        }
        if from == nil, to == nil, by == nil {
            if !Self.misspells(["to", "by", "from", "values"], in: field) {
                field.report("an animation needs 'to', 'by', 'from' or 'values'")
            }
            return false
        }
        if case .path(let a)? = from?.literal, case .path(let b)? = to?.literal, a.structure != b.structure {
            m["to"]?.report("'from' (\(Self.describe(a.structure))) and 'to' (\(Self.describe(b.structure))) have different "
                            + "structures: paths of different structure cannot animate into each other")
            return false
        }
        if by != nil, !keyPath.valueKind.adds {
            m["by"]?.report("'by' cannot be used with \(keyPath.valueKind.rawValue) values")
            return false
        }
        spec.values = .basic(from: from, to: to, by: by)
        return true
    }

    /// `path:` (CAKeyframeAnimation.path): the layer's position follows the path; key path
    /// `position` (the default and the only one allowed). `keyTimes` (one per vertex: the
    /// path's start and each drawn segment's end) and `timingFunctions` (one per drawn
    /// segment) are checked as for `values`, against the path's vertices.
    private func motionPath(_ pf: Field, _ m: Mapping, into spec: inout AnimationSpec) -> Bool {
        if let kp = m["keyPath"], kp.string != "position" { kp.report("a keyframe path animates 'position'") }
        // Read every key before giving up, so all of their problems are reported.
        let path = pf.path
        let rotation = m["rotationMode"].map { $0.choice(AnimationSpec.RotationMode.self) }
        if rotation == .some(nil) { return false }
        let keyframes = keyframeTiming(m)
        if let f = m["calculationMode"], f.node.scalar?.string == "cubic" {
            f.report("along a path, calculationMode is linear, discrete or paced")
        }
        guard let path else { return false }
        guard path.length > 0 else { pf.report("the path has no length to move along"); return false }
        guard let (mode, keyTimes, functions) = keyframes else { return false }
        let motion = PathKeyframeAnimation(path: path, keyTimes: keyTimes, timingFunctions: functions, calculationMode: mode)
        do { try motion.validate() } catch {
            report(error, m, values: pf, path: (motion.segments.count, mode == .discrete))
            return false
        }
        spec.values = .motionPath(motion, rotationMode: rotation ?? nil)
        return true
    }

    /// `calculationMode` (linear when not given), `keyTimes` and `timingFunctions` (each nil
    /// when not given), as keyframes of values and of a path take them; nil when one is
    /// invalid (each reported).
    private func keyframeTiming(_ m: Mapping) -> (mode: KeyframeAnimation.CalculationMode,
                                                  keyTimes: [Double]?, functions: [TimingFunction]?)? {
        let mode = m["calculationMode"].map { $0.choice(KeyframeAnimation.CalculationMode.self) } ?? .linear
        let keyTimes = m["keyTimes"].map { $0.numbers() }
        let functions = m["timingFunctions"].map { $0.elements?.readingAll(timingFunction) }
        guard let mode, keyTimes != .some(nil), functions != .some(nil) else { return nil }
        return (mode, keyTimes ?? nil, functions ?? nil)
    }

    /// Points a keyframe validation error at the key it is about; along a `path` of
    /// `segments` drawn segments, counting what it has: its vertices (the start and each
    /// drawn segment's end) and segments.
    private func report(_ error: KeyframeAnimation.ValidationError, _ m: Mapping, values: Field,
                        path: (segments: Int, discrete: Bool)? = nil) {
        let keyTimes = m["keyTimes"] ?? values
        switch error {
        case .noValues: values.report("a keyframe animation needs at least one value")
        case .mixedValueKinds(let i, let expected, let got):
            values.report("values[\(i)] is a \(got.rawValue), but values[0] is a \(expected.rawValue)")
        case .incompatibleValues(let i):
            values.report("values[\(i)] cannot blend with values[0] (paths of different structure, or lists of different lengths)")
        case .keyTimesCountMismatch(let expected, let got):
            let ends = path.map { "the path's start and each of its \($0.segments) segments' ends" }
            let what = switch (ends, path?.discrete) {
            case (let ends?, true?): "one per vertex — \(ends) — and the end of the last, or \(expected - 1) without it"
            case (let ends?, _): "one per vertex: \(ends)"
            default: "one per value"
            }
            keyTimes.report("expected \(expected) key times (\(what)), found \(got)")
        case .keyTimeOutOfRange(let i, let v): keyTimes.report("keyTimes[\(i)] = \(v) is outside 0…1")
        case .keyTimesDecreasing(let i): keyTimes.report("keyTimes[\(i)] is smaller than the one before")
        case .keyTimesMustStartAtZero(let v): keyTimes.report("key times must start at 0, found \(v)")
        case .keyTimesMustEndAtOne(let v): keyTimes.report("key times must end at 1, found \(v)")
        case .timingFunctionsCountMismatch(let expected, let got):
            let per = path == nil ? "segment" : "segment of the path"
            (m["timingFunctions"] ?? values).report("expected \(expected) timing functions (one per \(per)), found \(got)")
        case .notMeasurable(let kind):
            values.report("'paced' and 'cubicPaced' cannot measure distances between \(kind.rawValue) values")
        case .splineParameterCountMismatch(let name, let expected, let got):
            (m[name] ?? values).report("expected \(expected) \(name) (one per value), found \(got)")
        }
    }

    /// A `path` animation: the paths it sets (which later animations of the layer may
    /// start from) and the value it blends with the layer's underlying path, if any.
    struct PathAnimationUse {
        var layer: LayerAddress
        var layerName: String
        /// An event's `animate`: it runs over every animation of `animations:`.
        var fromEvent: Bool
        /// The structures of its `from`, `to` and `values`.
        var structures: [[PathElement.Kind]]
        /// `to` (or `from`) given alone: blended with the underlying path, so that path
        /// must have its structure.
        var blend: (field: Field, key: String, structure: [PathElement.Kind])?
    }

    private mutating func recordPathAnimation(_ spec: AnimationSpec, _ m: Mapping, layer name: String, fromEvent: Bool) {
        var use = PathAnimationUse(layer: spec.layer, layerName: name, fromEvent: fromEvent, structures: [], blend: nil)
        switch spec.values {
        case .keyframes(let keyframes): use.structures = keyframes.animation.values.compactMap(\.pathStructure)
        case .keyframeTerms(_, let values): use.structures = values.compactMap { $0.literal?.pathStructure }
        case .basic(let from, let to, _):
            use.structures = [from, to].compactMap { $0?.literal?.pathStructure }
            // `to` alone starts from the underlying path, `from` alone ends on it.
            let alone = from == nil ? to.map { ("to", $0) } : to == nil ? from.map { ("from", $0) } : nil
            if !spec.additive, let (key, value) = alone, let f = m[key], let structure = value.literal?.pathStructure {
                use.blend = (f, key, structure)
            }
        case .motionPath, .group: return
        }
        pathAnimations.append(use)
    }

    /// Contract 3.1: paths of different structure cannot animate into each other. A
    /// `path` animation giving only `to` (or only `from`) blends with the layer's
    /// underlying path, which is not known until it runs: the model path (`layers`), or
    /// what an earlier animation of the layer (in file order: animations added later sit
    /// on top) leaves there — any of their `from`, `to` or `values`, whatever their
    /// timing. An event's `animate` runs over all of `animations:`, so all of them (and
    /// the other events' animations) count for it. The value is reported when none of
    /// these has its structure: then it can never blend. Layers whose path an expression
    /// draws (`{cubic: …}`, in `bindings`) are not checked: the expression replaces what
    /// animations set. Call once every animation, events' included, has been read.
    func checkUnderlyingPaths(layers: [Layer], bindings: [ExpressionBinding]) {
        let drawn = Set(bindings.filter { $0.keyPath == .path }.map(\.layer))
        for (i, use) in pathAnimations.enumerated() {
            guard let blend = use.blend, !drawn.contains(use.layer),
                  let model = layers[use.layer]?.shape, model.namedShape == nil else { continue }
            let earlier = pathAnimations.enumerated().filter { j, other in
                other.layer == use.layer && j != i && (j < i || use.fromEvent)
            }.map(\.element)
            let candidates = [model.path.structure] + earlier.flatMap(\.structures)
            guard !candidates.contains(blend.structure) else { continue }
            let other = blend.key == "to" ? "from" : "to", given = "'\(blend.key)' (\(Self.describe(blend.structure)))"
            let layerPath = "the path of layer '\(use.layerName)'"
            let modelPath = "\(layerPath) (\(Self.describe(model.path.structure)))"
            let cannot = "paths of different structure cannot animate into each other"
            let problem = if model.path.isEmpty, earlier.allSatisfy(\.structures.isEmpty) {
                "\(layerPath) is empty: \(given) has no path of its structure to animate \(other)"
            } else if candidates.count == 1 {
                "\(given) and \(modelPath) have different structures: \(cannot)"
            } else {
                "\(given) has the structure of neither \(modelPath) nor any path "
                    + (use.fromEvent ? "the layer's other animations leave" : "an earlier animation leaves")
                    + " there: \(cannot)"
            }
            blend.field.report(problem + "; give '\(other)' too")
        }
    }

    /// A path's commands as SVG letters (`M L C Z`), shortened when long.
    static func describe(_ structure: [PathElement.Kind]) -> String {
        if structure.isEmpty { return "empty" }
        let letters = structure.map(\.rawValue)
        return letters.count <= 12 ? letters.joined(separator: " ")
            : letters.prefix(10).joined(separator: " ") + " … (\(letters.count) commands)"
    }

    /// `spring:` — UIView's `{dampingRatio, initialVelocity}` over the duration, or
    /// CASpringAnimation's `{mass, stiffness, damping, initialVelocity}`.
    private func spring(_ f: Field, duration: Double?) -> SpringAnimation? {
        let keys = AnimationKeys.spring
        guard let m = f.mapping(allowed: keys.map(\.name))?.checked("spring"),
              let velocity = m.number(keys, "initialVelocity") else { return nil }
        if m["dampingRatio"] != nil {
            guard let ratio = m.number(keys, "dampingRatio") else { return nil }
            guard let duration else { f.report("UIView's spring (dampingRatio) needs a 'duration'"); return nil }
            return SpringAnimation(dampingRatio: ratio, duration: duration, initialVelocity: velocity)
        }
        let mass = m.number(keys, "mass"), stiffness = m.number(keys, "stiffness"), damping = m.number(keys, "damping")
        guard let mass, let stiffness, let damping else { return nil }
        return SpringAnimation(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
    }

    /// Parses an animatable key path of the layer `entry` (an animation's `keyPath`, an
    /// event's `set:` key), reporting why it is none.
    func keyPath(_ text: String, field: Field, entry: LayerEntry, layerName: String) -> LayerKeyPath? {
        // Before the named key paths, which include `path`: animations of it would be
        // overwritten every frame by the shape rebuilt from its parameters.
        if text == "path", let shape = entry.namedShape {
            field.report("the path of '\(layerName)' is the \(shape.rawValue) shape, rebuilt from its parameters: animate path.PARAM")
            return nil
        }
        return keyPath(entry.resolve(text), text, field: field, entry: entry, layerName: layerName)
    }

    /// The key path `text` resolved to on the layer `entry`, or nil with why not reported.
    func keyPath(_ resolved: Result<LayerKeyPath, KeyPathProblem>, _ text: String, field: Field, entry: LayerEntry,
                 layerName: String) -> LayerKeyPath? {
        guard case .failure(let problem) = resolved else { return try? resolved.get() }
        switch problem {
        case .otherLayerTypes(let types):
            let owners = types.map(\.rawValue).sorted().joined(separator: " and ")
            let what = entry.type == .layer ? "a plain layer" : "a \(entry.type.rawValue) layer"
            // The emitter multiplier shares its name with the transform's scale.
            let hint = text == "scale" ? " (a layer's scale is 'transform.scale')" : ""
            field.report("'\(text)' is a key path of \(owners) layers, and '\(layerName)' is \(what)" + hint)
        case .notEmitter:
            field.report("'\(text)' applies to emitter layers; '\(layerName)' is a \(entry.type.rawValue) layer")
        case .notCellKeyPath:
            let keys = EmitterCellKey.allCases.map(\.rawValue)
            let last = String(text.split(separator: ".").last ?? "")
            field.report("'\(text)' is not an emitter cell key path: use emitterCells.NAME.KEY with KEY one of "
                         + keys.joined(separator: ", ") + NameSuggestion.hint(for: last, in: keys))
        case .unknownCell(let names):
            // CA finds cells by name.
            let known = entry.emitterCellPaths.map { $0.joined(separator: ".") }
            field.report("emitter '\(layerName)' has no cell named '\(names.joined(separator: "."))'"
                         + NameSuggestion.hint(for: names.joined(separator: "."), in: known))
        case .notNamedShape:
            field.report("'\(text)' animates a named shape's parameter, but the path of '\(layerName)' is not a named shape "
                         + "(path: {shape: NAME, …})")
        case .unknownParameter(let name, let shape):
            field.report("'\(name)' is not a parameter of the \(shape.rawValue) shape"
                         + NameSuggestion.hint(for: name, in: shape.parameters.map(\.name)))
        case .unknown where text.hasPrefix("instance"):
            field.report("not yet supported: key path '\(text)'")
        case .unknown:
            let candidates = Array(LayerKeyPath.named.keys) + Array(entry.propertyNames)
            field.report("'\(text)' is not an animatable key path of layer '\(layerName)'"
                         + NameSuggestion.hint(for: text, in: candidates))
        }
        return nil
    }

    /// The term of a value of the key path's kind (`ExpressionBinder.deferredTerm`): as written, checked
    /// against its range (the reader of the layer definition, `Field.value`), or written with expressions
    /// (section 4), which the runtime evaluates once. An SVG path goes into the layer's `bounds`.
    mutating func valueOrExpression(_ f: Field, for keyPath: LayerKeyPath, in bounds: Rect) -> Term<AnimatableValue>? {
        let kind = keyPath.valueKind
        // An image asset's name may start like an expression.
        if kind == .image { return (f.isNull ? .image(nil) : assets.asset(f).map { .image($0) }).map { .literal($0) } }
        return binder.deferredTerm(f, kind: kind) { f in
            kind == .path ? f.path(in: bounds).map { .path($0) } : f.value(of: keyPath.propertyKind, problem: keyPath.problem)
        }
    }

    /// Reports the keys of `m` that belong to forms other than `form`.
    private func reportMisplaced(_ m: Mapping, in form: AnimationKeys.Form) {
        for key in AnimationKeys.table {
            guard let forms = key.forms, !forms.contains(form), let f = m[key.name] else { continue }
            f.report(form == .group ? form.misplaced(key.name) : key.misplaced ?? form.misplaced(key.name))
        }
    }

    /// A `timingFunction`: a name or `[c1x, c1y, c2x, c2y]`.
    func timingFunction(_ f: Field) -> TimingFunction? {
        if case .sequence = f.node {
            guard let v = f.numbers(count: 4) else { return nil }
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                f.report("the control points' x values must lie in 0…1")
                return nil
            }
            return .cubicBezier(v[0], v[1], v[2], v[3])
        }
        let names = AnimationKeys.timingFunctionNames
        guard let text = f.string else { return nil }
        if let tf = names[text] { return tf }
        let hint = AnimationKeys.uiKitTimingFunctionNames[text].map { " (UIKit's \(text) is '\($0)' here)" }
            ?? NameSuggestion.hint(for: text, in: Array(names.keys))
        f.report("'\(text)' is not a timing function: use \(names.keys.sorted().joined(separator: ", ")) or [c1x, c1y, c2x, c2y]"
                 + hint)
        return nil
    }

    /// Turns `after: id` into absolute begin times (`begin` becomes a delay, in the
    /// animation's layer's seconds), reporting unknown ids and cycles. `id` stops at its
    /// end on its layer's clock, which is carried through scene time to the other's.
    static func resolveAfter(_ parsed: [(spec: AnimationSpec, after: Field?)],
                             clock: (LayerAddress) -> LayerClock = { _ in .scene }) -> [AnimationSpec] {
        var byId: [String: Int] = [:]
        for (i, p) in parsed.enumerated() { if let id = p.spec.id, byId[id] == nil { byId[id] = i } }
        var specs = parsed.map(\.spec)
        // Whether each animation resolved (false: it is dropped), and the chain being resolved.
        var resolved: [Int: Bool] = [:], visiting = Set<Int>()

        func resolve(_ i: Int, chain: [String]) -> Bool {
            if let known = resolved[i] { return known }
            guard let afterField = parsed[i].after, let name = afterField.string else { resolved[i] = true; return true }
            func broken(_ message: String? = nil) -> Bool {
                if let message { afterField.report(message) }
                resolved[i] = false
                return false
            }
            guard afterField.name(in: byId, "animation id") != nil, let j = byId[name] else { return broken() }
            if visiting.contains(j) || j == i {
                return broken("'after' chain forms a cycle: " + (chain + [name]).joined(separator: " → "))
            }
            visiting.insert(i)
            let ok = resolve(j, chain: chain + [name])
            visiting.remove(i)
            guard ok else { return broken() }
            guard specs[j].timing.endTime.isFinite else { return broken("'\(name)' repeats forever, so it never stops") }
            guard let stop = clock(specs[j].layer).sceneTime(specs[j].timing.endTime) else {
                return broken("'\(name)' never stops: its layer's time stands still (speed 0)")
            }
            specs[i].timing.beginTime += clock(specs[i].layer).local(stop)
            resolved[i] = true
            return true
        }
        for i in parsed.indices { _ = resolve(i, chain: [parsed[i].spec.id ?? "animations[\(i)]"]) }
        return specs.indices.filter { resolved[$0] == true }.map { specs[$0] }
    }
}

private extension Field {
    /// A timing key's value read by its kind, a number checked against its range.
    func timingValue(_ key: AnimationKeys.Key) -> FileValue? {
        guard [.number, .countOrForever].contains(key.spec.kind) else { return fileValue(of: key.spec.kind) }
        return number(checkedBy: key.spec, refusal: key.refusal).map { .number($0) }
    }
}

private extension AnimatableValue {
    var pathStructure: [PathElement.Kind]? { if case .path(let p) = self { p.structure } else { nil } }
}

private extension AnimatableValue.Kind {
    /// Whether values of the kind have a sum (`Interpolation.add`): paths, images and
    /// booleans do not, so `by`, `additive` and `cumulative` cannot take them.
    var adds: Bool { ![.path, .image, .bool].contains(self) }
}
