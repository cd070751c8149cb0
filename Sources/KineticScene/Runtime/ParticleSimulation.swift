import KineticGeometry
import KineticLayers

/// The particle state of a scene's emitter layers across frames: a stateful companion of
/// `Timeline`. Give it each frame's presentation tree in time order; it advances every
/// emitter's `ParticleSystem` to the frame's time and puts the live particles into the
/// emitter layers (`EmitterStyle.particles`) for the renderer and `inspect`.
///
/// It works on any presentation tree (the timeline's, or one a physics stage has
/// already changed), so stages compose: `particles.frame(physics.frame(timeline…))`.
/// Asking for an earlier time than the last one restarts from 0 (a still frame or
/// `inspect` simulates from the start).
///
/// The emitter's own values (birth rates, emitter position and size, cell keys) are read
/// at every step from a tree `FrameOrder` builds of what reaches them (``EmitterInputs``),
/// so a 0.1 s burst of `emitterCells.NAME.birthRate` is timed to the step, not to the frame.
public struct ParticleSimulation: Sendable {
    /// The scene's animations with their expression values captured, as the timeline
    /// alone has them (physics does not reach the emitters' values).
    let timeline: Timeline
    public var scene: Scene { timeline.scene }
    /// Most particles alive at once in all emitters together (section 9's limit).
    public var maxParticles: Int

    private struct Emitter: Sendable {
        var address: LayerAddress { values.address }
        var system: ParticleSystem
        /// What its values are read from at each step.
        var values: EmitterInputs
        var snapshot = ParticleSnapshot()
    }
    private var emitters: [Emitter] = []

    public init(timeline: Timeline, maxParticles: Int = SceneLimits().maxParticles) {
        self.timeline = timeline
        self.maxParticles = maxParticles
        emitters = Self.emitters(of: timeline)
    }

    public init(scene: Scene, maxParticles: Int = SceneLimits().maxParticles) {
        self.init(timeline: Timeline(scene: scene), maxParticles: maxParticles)
    }

    /// Whether the scene has emitter layers at all.
    public var isEmpty: Bool { emitters.isEmpty }

    private static func emitters(of timeline: Timeline) -> [Emitter] {
        let scene = timeline.scene, animations = timeline.animations
        var found: [Emitter] = []
        func walk(_ layers: [Layer], _ prefix: [Int]) {
            for (i, layer) in layers.enumerated() {
                let address = LayerAddress(prefix + [i])
                if let style = layer.emitter {
                    let system = ParticleSystem(name: layer.key, model: style, seed: scene.settings.seed)
                    let bindings = ExpressionEvaluation.bindings(feeding: address, in: scene.bindings)
                    let specs = bindings.isEmpty ? animations.filter { targets($0, address) } : animations
                    let values = EmitterInputs(timeline: timeline, address: address, id: layer.id, animations: specs,
                                               bindings: bindings, settings: layer.id.map { timedSettings(of: $0, in: scene) } ?? [])
                    found.append(Emitter(system: system, values: values))
                }
                walk(layer.sublayers, prefix + [i])
            }
        }
        walk(scene.layers, [])
        return found
    }

    /// What the time events `set:` on layer `id` without expressions (an
    /// `emitterCells.NAME.birthRate: 500` starting a burst), with the time each takes
    /// effect; contact events depend on the physics, which particles do not see.
    private static func timedSettings(of id: String, in scene: Scene) -> [(time: Double, setting: LayerSetting)] {
        scene.events.flatMap { event -> [(time: Double, setting: LayerSetting)] in
            guard case .time(let at) = event.trigger else { return [] }
            return event.actions.flatMap { action -> [(time: Double, setting: LayerSetting)] in
                guard case .set(_, let layers) = action.kind else { return [] }
                // An expression (no value without `evaluate`) is left out.
                return layers.filter { $0.layer == .id(id) }.compactMap { $0.change.setting { _ in nil } }
                    .map { (at + action.delay, $0) }
            }
        }
    }

    private static func targets(_ spec: AnimationSpec, _ address: LayerAddress) -> Bool {
        if case .group(let children) = spec.values { return children.contains { targets($0, address) } }
        return spec.layer == address
    }

    /// The inputs that reach an emitter's values — the animations targeting it (all of
    /// them when expressions drive it), the literal values time events set on it, the
    /// bindings feeding it — from which `FrameOrder` builds them at each particle step
    /// (no events run and no physics). A class: every step's tree shares it.
    private final class EmitterInputs: Sendable {
        let timeline: Timeline
        let address: LayerAddress
        /// The emitter layer's id, which the settings name it by.
        let id: String?
        /// The animations that may change the emitter: all of them when expressions drive
        /// it, as they may read any layer.
        let animations: [AnimationSpec]
        /// The expression bindings its values need (`ExpressionEvaluation.bindings(feeding:in:)`).
        let bindings: [ExpressionBinding]
        /// The literal values time events `set:` on it, from their time on (section 7).
        let settings: [(time: Double, setting: LayerSetting)]
        /// The changes in effect from each setting's time on (times increasing), made once
        /// when there are few settings, so that a step copies none of them.
        let stages: [(from: Double, changes: LayerChanges)]?

        init(timeline: Timeline, address: LayerAddress, id: String?, animations: [AnimationSpec],
             bindings: [ExpressionBinding], settings: [(time: Double, setting: LayerSetting)]) {
            self.timeline = timeline; self.address = address; self.id = id
            self.animations = animations; self.bindings = bindings; self.settings = settings
            stages = settings.count <= 64 ? Set(settings.map(\.time)).sorted().map { from in
                (from, Self.changes(settings, id: id, at: from))
            } : nil
        }

        /// The values set on the emitter by `time`, in the order set.
        static func changes(_ settings: [(time: Double, setting: LayerSetting)], id: String?, at time: Double) -> LayerChanges {
            var changes = LayerChanges()
            if let id { for s in settings where time >= s.time { changes.values.append((id, s.setting)) } }
            return changes
        }

        /// The emitter's values at `time`: its model when nothing reaches them.
        func style(at time: Double) -> EmitterStyle {
            let model = timeline.scene.layers[address]?.emitter ?? EmitterStyle()
            guard !animations.isEmpty || !bindings.isEmpty || !settings.isEmpty else { return model }
            var tree = EmitterTree(emitter: self, time: time)
            let index = AnimationSpec.frameIndex(at: time, fps: timeline.scene.settings.fps)
            return FrameOrder.frame(&tree, at: time, index: index, through: .emitterValues).layers[address]?.emitter ?? model
        }
    }

    /// What `FrameOrder` reads for an emitter's values at one particle step.
    private struct EmitterTree: FrameSources {
        typealias Failure = Never
        let emitter: EmitterInputs
        /// The step's time: the settings that have taken effect.
        let time: Double

        var timeline: Timeline { emitter.timeline }
        var bindings: [ExpressionBinding] { emitter.bindings }
        var inputs: FrameInputs {
            let changes = emitter.stages.map { stages in stages.last { time >= $0.from }?.changes ?? LayerChanges() }
                ?? EmitterInputs.changes(emitter.settings, id: emitter.id, at: time)
            return FrameInputs(animations: emitter.animations, changes: changes)
        }
    }

    /// `frame` with its emitter layers' live particles at `frame.time`.
    /// - Throws: `ParticleLimitError` when an emitter exceeds `maxParticles`.
    public mutating func frame(_ frame: SceneFrame) throws(ParticleLimitError) -> SceneFrame {
        var out = frame
        for k in emitters.indices {
            // The emitter's own clock: its layer's time (CAMediaTiming down the tree), which
            // its `beginTime` shifts.
            let clock = timeline.scene.layers.clock(at: emitters[k].address)
            let begin = timeline.scene.layers[emitters[k].address]?.emitter?.beginTime ?? 0
            let local = clock.local(frame.time) - begin
            if !emitters[k].system.canShow(local) {
                let e = emitters[k]
                emitters[k].system = ParticleSystem(name: e.system.name, model: scene.layers[e.address]?.emitter ?? EmitterStyle(),
                                                    seed: scene.settings.seed)
            }
            var e = emitters[k]
            let values = e.values, address = e.address
            // The limit is on the total: this emitter may have what the others leave.
            let others = emitters.indices.reduce(0) { $1 == k ? $0 : $0 + emitters[$1].system.storedCount }
            do {
                try e.system.advance(to: local, limit: max(0, maxParticles - others)) {
                    values.style(at: clock.sceneTime($0 + begin) ?? frame.time)
                }
            } catch {
                var total = error
                total.count += others
                total.limit = maxParticles
                total.together = others > 0
                total.place = scene.layers[address]?.place ?? ""
                throw total
            }
            e.system.snapshot(at: local, into: &e.snapshot)
            emitters[k] = e
            let snapshot = e.snapshot
            out.layers.modify(at: e.address) { $0.emitter?.particles = snapshot }
        }
        return out
    }
}
