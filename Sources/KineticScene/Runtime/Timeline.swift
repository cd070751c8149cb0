import KineticGeometry
import KineticLayers
import KineticAnimation

/// The scene's animations: applied to the model tree in file order, as Core Animation's
/// render server composes the animations of a layer (each one sees the value left by
/// those before it), with their expression values evaluated when each begins. Its
/// `frame` is the scene without events or physics; `FrameOrder` knows the stages.
public struct Timeline: Sendable {
    public let scene: Scene
    /// `scene.animations` with their expression values evaluated when each begins, as the
    /// timeline alone presents the scene (a `Simulation` evaluates again those that begin
    /// once its physics runs).
    public let animations: [AnimationSpec]
    /// Whether some layer has `doubleSided: false`, or an event may set it: only then are
    /// back faces looked for.
    let hasSingleSidedLayers: Bool
    /// Whether some layer's shape is a named shape (stage 6 rebuilds those): only the
    /// loader makes one, so without any the stage is skipped, and with it a copy of every
    /// sublayer array it would have mutated.
    let hasNamedShapes: Bool

    public init(scene: Scene) {
        self.init(scene: scene, animations: Self.captured(scene))
    }

    /// Frame `index` at the scene's fps: time `index / fps`.
    public func frame(_ index: Int, fps: Double? = nil) -> SceneFrame {
        frame(at: Double(index) / (fps ?? scene.settings.fps), index: index)
    }

    /// The presentation tree at `time` seconds: the scene's animations, expressions and
    /// named shapes, replicators expanded (`FrameOrder`), without events or physics.
    public func frame(at time: Double, index: Int) -> SceneFrame {
        var tree = FrameTree(timeline: self, inputs: FrameInputs(animations: animations))
        return FrameOrder.frame(&tree, at: time, index: index, through: .presentation)
    }

    /// `scene.animations` with expression values evaluated in begin order, each reading
    /// the frame at its begin without the animations that begin then or later.
    static func captured(_ scene: Scene) -> [AnimationSpec] {
        var specs = scene.animations
        // A clock that stands past the begin has begun from the start.
        let begins = specs.map { spec in max(spec.sceneBegin(in: scene.layers), spec.timing.beginTime < 0 ? spec.timing.beginTime : 0) }
        let order = specs.indices.filter { specs[$0].needsCapture && begins[$0].isFinite }
            .sorted { (begins[$0], $0) < (begins[$1], $1) }
        guard !order.isEmpty else { return specs }
        let timeline = Timeline(scene: scene, animations: [])
        for i in order {
            let begin = begins[i]
            let index = AnimationSpec.frameIndex(at: begin, fps: scene.settings.fps)
            var tree = FrameTree(timeline: timeline, inputs: FrameInputs(
                animations: specs.indices.filter { !Instant.reached(begins[$0], begin) }.map { specs[$0] }))
            let layers = FrameOrder.frame(&tree, at: begin, index: index, through: .modelTree).layers
            specs[i] = specs[i].capturing(reading: layers, ids: scene.layerIDs, time: begin, frame: index,
                                          seed: scene.settings.seed) ?? specs[i]
        }
        return specs
    }

    private init(scene: Scene, animations: [AnimationSpec]) {
        self.scene = scene
        self.animations = animations
        func singleSided(_ layer: Layer) -> Bool {
            !layer.isDoubleSided || layer.sublayers.contains(where: singleSided) || layer.mask.map(singleSided) == true
        }
        // An event may make a layer single-sided later.
        func setsDoubleSided(_ action: EventAction) -> Bool {
            guard case .set(_, let layers) = action.kind else { return false }
            return layers.contains { if case .property(.doubleSided, _) = $0.change { true } else { false } }
        }
        hasSingleSidedLayers = scene.layers.contains(where: singleSided)
            || scene.events.contains { $0.actions.contains(where: setsDoubleSided) }
        func namedShapes(_ layer: Layer) -> Bool {
            layer.shape?.namedShape != nil || layer.sublayers.contains(where: namedShapes)
        }
        hasNamedShapes = scene.layers.contains(where: namedShapes)
    }

    /// Applies one animation (or a group) at scene time `time`, read on its layer's clock
    /// (CAMediaTiming's hierarchical time: `LayerTiming` of the layer and its ancestors).
    static func apply(_ spec: AnimationSpec, at time: Double, to layers: inout [Layer]) {
        applyLocal(spec, at: layers.clock(at: spec.layer).local(time), to: &layers)
    }

    /// Applies one animation (or a group) at `time` in its layer's (or group's) seconds. An
    /// animation whose expression values are not evaluated (not yet begun, or not finite)
    /// does nothing.
    private static func applyLocal(_ spec: AnimationSpec, at time: Double, to layers: inout [Layer]) {
        guard !spec.needsCapture, let progress = spec.timing.progress(at: time) else { return }
        switch spec.values {
        case .group(let children):
            // Children run in the group's local time, eased by the group's function.
            let local = spec.easing.fraction(progress: progress, duration: spec.timing.duration) * spec.timing.duration
            for child in children { applyLocal(child, at: local, to: &layers) }
        case .basic(let from, let to, let by):
            // The easing is applied here, unclamped: springs overshoot past 1.
            let animation = BasicAnimation(from: from?.literal, to: to?.literal, by: by?.literal)
            let fraction = spec.easing.fraction(progress: progress, duration: spec.timing.duration)
            if spec.keyPath == .contents {
                return crossFade(spec, to: &layers) { base in animation.endpoints(base: base).map { ($0.from, $0.to, fraction) } }
            }
            let cycles = spec.cumulative ? spec.timing.completedCycles(at: time) ?? 0 : 0
            set(spec, to: &layers) { base in
                animation.endpoints(base: base).flatMap { ends in
                    Interpolation.lerp(ends.from, ends.to, fraction).flatMap { accumulated($0, cycles, ends.from, ends.to) }
                }
            }
        case .motionPath(let motion, let rotationMode):
            let u = spec.easing.fraction(progress: progress, duration: spec.timing.duration)
            guard let at = motion.point(at: u) else { return }
            layers.modify(at: spec.layer) { layer in
                layer.setValue(.point(at.point), at: .position)
                if let rotationMode {
                    let angle = at.tangentAngle + (rotationMode == .autoReverse ? .pi : 0)
                    layer.setValue(.number(angle), at: .transformRotationZ)
                }
            }
        case .keyframeTerms:
            // Not evaluated yet (`needsCapture`, checked above).
            return
        case .keyframes(let keyframes):
            // The value does not depend on the underlying one: found here, so the closures
            // below capture the value, not a copy of the keyframes.
            let fraction = spec.easing.fraction(progress: progress, duration: spec.timing.duration)
            if spec.keyPath == .contents, keyframes.animation.calculationMode != .discrete {
                let blend = keyframes.blend(at: fraction)
                return crossFade(spec, to: &layers) { _ in blend }
            }
            let cycles = spec.cumulative ? spec.timing.completedCycles(at: time) ?? 0 : 0
            guard var value = keyframes.value(at: fraction) else { return }
            if cycles > 0, let start = keyframes.value(at: 0), let end = keyframes.value(at: 1) {
                guard let shifted = accumulated(value, cycles, start, end) else { return }
                value = shifted
            }
            set(spec, to: &layers) { _ in value }
        }
    }

    /// A cumulative animation's value in a later cycle: `value` + cycles × (end − start),
    /// so each cycle starts where the one before ended.
    private static func accumulated(_ value: AnimatableValue, _ cycles: Int, _ start: AnimatableValue,
                                    _ end: AnimatableValue) -> AnimatableValue? {
        guard cycles > 0 else { return value }
        guard let shifted = Interpolation.lerp(start, end, Double(cycles)),
              let offset = Interpolation.subtract(shifted, start) else { return nil }
        return Interpolation.add(value, offset)
    }

    /// A `contents` animation: Core Animation cross-fades the two images, so the layer
    /// shows the image blended towards and remembers the one fading out.
    private static func crossFade(_ spec: AnimationSpec, to layers: inout [Layer],
                                  _ blend: (AnimatableValue) -> (from: AnimatableValue, to: AnimatableValue, fraction: Double)?) {
        layers.modify(at: spec.layer) { layer in
            guard let (from, to, u) = blend(.image(layer.contents)),
                  case .image(let a) = from, case .image(let b) = to else { return }
            let fraction = min(max(u, 0), 1)
            layer.contents = fraction > 0 ? b : a
            layer.contentsCrossFade = fraction > 0 && fraction < 1 && a != b ? ContentsCrossFade(from: a, fraction: fraction) : nil
        }
    }

    /// Writes the animated value, added to the underlying one when additive.
    private static func set(_ spec: AnimationSpec, to layers: inout [Layer],
                            _ value: (AnimatableValue) -> AnimatableValue?) {
        // What the closure reads of the spec, so that it does not capture a copy of it.
        let keyPath = spec.keyPath, additive = spec.additive
        layers.modify(at: spec.layer) { layer in
            guard let base = layer.value(at: keyPath) else { return }
            if additive {
                // An additive animation's values are offsets: it animates from zero.
                guard let zero = Interpolation.subtract(base, base), let offset = value(zero),
                      let sum = Interpolation.add(base, offset) else { return }
                layer.setValue(sum, at: keyPath)
            } else if let v = value(base) {
                layer.setValue(v, at: keyPath)
            }
        }
    }
}
