import KineticDynamics
import KineticGeometry
import KineticLayers

/// The one frame clock: the presentation tree of frame N, and of a run of frames
/// incrementally. `render` (animations, PNG frames, stills, the contact sheet), `inspect`,
/// `batch`, `golden` (frames and state), `preview` and `validate` all take their frames
/// from it; they only read input and write output.
///
/// A frame at time t is built in the order of `FrameOrder.frame` (docs/frame-order.md):
/// the events and physics (`Simulation`), the particles (`ParticleSimulation`) and a
/// refusal over the limit of layer instances are this clock's part.
///
/// Stateful (physics and particles advance with the frames): ask for frames in
/// increasing time. An earlier time starts again from 0 (correct, only slower).
public final class FrameClock: FrameSources {
    public let timeline: Timeline
    private let simulation: Simulation
    private var particles: ParticleSimulation

    public var scene: Scene { timeline.scene }

    /// The state of every dynamic item at the last frame, by layer id (`inspect`'s `items`).
    public var itemStates: [String: DynamicItemState] { simulation.itemStates }

    /// A clock over `timeline`'s scene; `maxParticles` is the total particle limit.
    public init(timeline: Timeline, maxParticles: Int = SceneLimits().maxParticles) {
        self.timeline = timeline
        simulation = Simulation(timeline: timeline)
        particles = ParticleSimulation(timeline: timeline, maxParticles: maxParticles)
    }

    /// A clock over `scene` with the limits of `limits`.
    public convenience init(scene: Scene, limits: SceneLimits = SceneLimits()) {
        self.init(timeline: Timeline(scene: scene), maxParticles: limits.maxParticles)
    }

    /// Frame `index` at `fps` (default the scene's): time `index / fps`.
    public func frame(_ index: Int, fps: Double? = nil) throws(FrameError) -> SceneFrame {
        try frame(at: Double(index) / (fps ?? scene.settings.fps), index: index)
    }

    /// The presentation tree at `time` (frame `index`, which expressions read as `frame`).
    /// - Throws: `FrameError` when the physics fails or a limit is met: nothing of such a
    ///   frame may be drawn.
    public func frame(at time: Double, index: Int) throws(FrameError) -> SceneFrame {
        var sources = self
        return try FrameOrder.frame(&sources, at: time, index: index)
    }

    /// The frames `indices` (increasing) at `fps`, computed one after the other.
    public func frames(_ indices: [Int], fps: Double? = nil) throws(FrameError) -> [SceneFrame] {
        var result: [SceneFrame] = []
        result.reserveCapacity(indices.count)
        for i in indices { result.append(try frame(i, fps: fps)) }
        return result
    }

    // MARK: Failures met while frames are computed, checked by `validate`

    /// Runs the scene's frames as a render of every frame does, without drawing them, and
    /// returns the first failure the render would meet; nil when there is none. So a
    /// scene `validate` accepts is not refused by `render` later: the physics (a value an
    /// expression or a `behavior:` animation drives out of range, an impossible joint, a
    /// blow-up), the total particle limit, and the layer instances of replicator counts
    /// that animations, expressions or events change.
    ///
    /// The same code fails the frame in `render`. Only what can fail is computed: frames
    /// are built (with physics and events) when the scene runs physics or a replicator's
    /// count may change; otherwise particles are advanced over empty frames, as they read
    /// nothing of the tree but its time.
    public static func runtimeFailure(in scene: Scene, limits: SceneLimits) -> FrameError? {
        let count = scene.frameCount, fps = scene.settings.fps
        if scene.physics != nil || mayChangeInstanceCounts(scene) {
            let clock = FrameClock(scene: scene, limits: limits)
            for i in 0..<count {
                do { _ = try clock.frame(i) } catch { return error }
            }
            return nil
        }
        var particles = ParticleSimulation(scene: scene, maxParticles: limits.maxParticles)
        guard !particles.isEmpty else { return nil }
        for i in 0..<count {
            let empty = SceneFrame(index: i, time: Double(i) / fps, size: scene.settings.size,
                                   background: scene.settings.background, layers: [])
            do { _ = try particles.frame(empty) } catch { return .particles(error) }
        }
        return nil
    }

    /// Whether some animation, expression or event may change a replicator's
    /// `instanceCount` (the loader checks the model's counts).
    private static func mayChangeInstanceCounts(_ scene: Scene) -> Bool {
        func animates(_ spec: AnimationSpec) -> Bool {
            if case .group(let children) = spec.values { return children.contains(where: animates) }
            return spec.keyPath == .instanceCount
        }
        func changes(_ action: EventAction) -> Bool {
            switch action.kind {
            case .animate(let spec, _): return animates(spec)
            case .set(_, let layers):
                return layers.contains { if case .value(.instanceCount, _) = $0.change { true } else { false } }
            default: return false
            }
        }
        return scene.animations.contains(where: animates) || scene.bindings.contains { $0.keyPath == .instanceCount }
            || scene.events.contains { $0.actions.contains(where: changes) }
    }
}

// The clock's stages of `FrameOrder`.
extension FrameClock {
    func runEvents(upTo time: Double) throws(FrameError) {
        do { try simulation.runEvents(upTo: time) } catch { throw .simulation(error) }
    }

    var inputs: FrameInputs { simulation.inputs }

    /// Nothing of a frame over the limit of layer instances may be drawn.
    func refuse(_ refusal: String) throws(FrameError) { throw .layerInstances(refusal) }

    var debugLayers: [Layer] { simulation.debugLayers }

    func addParticles(to frame: SceneFrame) throws(FrameError) -> SceneFrame {
        do { return try particles.frame(frame) } catch { throw .particles(error) }
    }
}

/// Why a frame cannot be had: the physics failed, or a limit was met while building it.
public enum FrameError: Error, CustomStringConvertible, Sendable {
    /// Invalid values the physics refuses (exit 65), or a blow-up (exit 70).
    case simulation(SimulationError)
    /// More live particles than the limit (exit 65).
    case particles(ParticleLimitError)
    /// The replicators make more layers than the limit of layer instances (exit 65).
    case layerInstances(String)

    public var description: String {
        switch self {
        case .simulation(let e): "\(e)"
        case .particles(let e): "\(e)"
        case .layerInstances(let message): message
        }
    }

    /// The problem at its place in the scene file: the emitter's layer for particles, the
    /// `layers` key for layer instances; nil for the physics (its message names the item
    /// and the time).
    public func problem(in scene: Scene) -> SceneProblem? {
        let keyPath: String
        switch self {
        case .simulation: return nil
        case .particles(let e): keyPath = e.place
        case .layerInstances: keyPath = "layers"
        }
        let location = scene.sourceMap?.location(of: keyPath) ?? SourceLocation(file: scene.file, line: 1, column: 1)
        return SceneProblem(location: location, keyPath: keyPath, message: description)
    }
}
