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
/// at every step from the model with its animations applied, so a 0.1 s burst of
/// `emitterCells.NAME.birthRate` is timed to the step, not to the frame.
public struct ParticleSimulation: Sendable {
    public let scene: Scene
    /// Most particles alive at once in all emitters together (section 9's limit).
    public var maxParticles: Int

    private struct Emitter: Sendable {
        var address: LayerAddress
        var system: ParticleSystem
        /// The animations that may change this emitter (applied at each step): all of them
        /// when expressions drive it, as they may read any layer.
        var animations: [AnimationSpec]
        /// The expression bindings its values need at each step.
        var bindings: [ExpressionBinding]
        /// The literal values time events `set:` on it, from their time on (section 7).
        var settings: [(time: Double, setting: LayerSetting)] = []
        var snapshot = ParticleSnapshot()
    }
    private var emitters: [Emitter] = []

    public init(scene: Scene, maxParticles: Int = SceneLimits().maxParticles) {
        self.scene = scene
        self.maxParticles = maxParticles
        emitters = Self.emitters(in: scene)
    }

    /// Whether the scene has emitter layers at all.
    public var isEmpty: Bool { emitters.isEmpty }

    private static func emitters(in scene: Scene) -> [Emitter] {
        var found: [Emitter] = []
        // Expression values as the timeline evaluates them (physics does not reach them).
        let animations = Timeline.captured(scene)
        func walk(_ layers: [Layer], _ prefix: [Int]) {
            for (i, layer) in layers.enumerated() {
                let address = LayerAddress(prefix + [i])
                if let style = layer.emitter {
                    let system = ParticleSystem(name: layer.key, model: style, seed: scene.settings.seed)
                    let bindings = ExpressionEvaluation.bindings(feeding: address, in: scene.bindings)
                    let specs = bindings.isEmpty ? animations.filter { targets($0, address) } : animations
                    found.append(Emitter(address: address, system: system, animations: specs, bindings: bindings,
                                         settings: layer.id.map { timedSettings(of: $0, in: scene) } ?? []))
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
                return layers.filter { $0.layer == .id(id) && $0.expression == nil }.map { (at + action.delay, $0.setting) }
            }
        }
    }

    private static func targets(_ spec: AnimationSpec, _ address: LayerAddress) -> Bool {
        if case .group(let children) = spec.values { return children.contains { targets($0, address) } }
        return spec.layer == address
    }

    /// The emitter's presentation values at `time`: its model with the animations that
    /// target it, then the expressions driving it, applied as the timeline applies them
    /// (without physics and events).
    private func style(at address: LayerAddress, animations: [AnimationSpec], bindings: [ExpressionBinding],
                       settings: [(time: Double, setting: LayerSetting)], time: Double) -> EmitterStyle {
        guard var layer = scene.layers[address] else { return EmitterStyle() }
        guard !animations.isEmpty || !bindings.isEmpty || !settings.isEmpty else { return layer.emitter ?? EmitterStyle() }
        // The animations address layers from the root: apply them to a tree with only the
        // emitter's branch filled in.
        var layers = scene.layers
        for spec in animations { Timeline.apply(spec, at: time, to: &layers) }
        // Set values hold over the animations (as `LayerChanges` applies them).
        for s in settings where time >= s.time { layers.modify(at: address) { $0.apply(s.setting) } }
        ExpressionEvaluation.applyFeeding(bindings, of: scene, to: &layers, time: time)
        layer = layers[address] ?? layer
        return layer.emitter ?? EmitterStyle()
    }

    /// `frame` with its emitter layers' live particles at `frame.time`.
    /// - Throws: `ParticleLimitError` when an emitter exceeds `maxParticles`.
    public mutating func frame(_ frame: SceneFrame) throws(ParticleLimitError) -> SceneFrame {
        var out = frame
        for k in emitters.indices {
            // The emitter's own clock: its layer's time (CAMediaTiming down the tree), which
            // its `beginTime` shifts.
            let clock = scene.layers.clock(at: emitters[k].address)
            let begin = scene.layers[emitters[k].address]?.emitter?.beginTime ?? 0
            let local = clock.local(frame.time) - begin
            if !emitters[k].system.canShow(local) {
                let e = emitters[k]
                emitters[k].system = ParticleSystem(name: e.system.name, model: scene.layers[e.address]?.emitter ?? EmitterStyle(),
                                                    seed: scene.settings.seed)
            }
            var e = emitters[k]
            let source = self, address = e.address, animations = e.animations, bindings = e.bindings, settings = e.settings
            // The limit is on the total: this emitter may have what the others leave.
            let others = emitters.indices.reduce(0) { $1 == k ? $0 : $0 + emitters[$1].system.storedCount }
            do {
                try e.system.advance(to: local, limit: max(0, maxParticles - others)) {
                    source.style(at: address, animations: animations, bindings: bindings, settings: settings,
                                 time: clock.sceneTime($0 + begin) ?? frame.time)
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
