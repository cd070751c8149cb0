import KineticGeometry
import KineticLayers

/// The stages of a frame, in order: ``frame(_:at:index:through:)`` is the one place that
/// knows the order (docs/frame-order.md points here). Every tree of the runtime is built
/// by it — a frame of `FrameClock`, `Simulation` or `Timeline`, a replicator's copy of
/// another time, the tree an expression reads when its animation begins — each from its
/// own ``FrameSources`` and going as far as it needs (``Extent``), down to an emitter's
/// reading of its own values at each particle step (`ParticleSimulation`).
enum FrameOrder {
    /// How far a tree is taken.
    enum Extent {
        /// Stages 2–5, the values an emitter reads at each particle step (named shapes
        /// change none of them).
        case emitterValues
        /// Stages 2–6, the model tree at a time: what a replicator's copy of another time
        /// is made of, and what an expression captured at an animation's begin reads.
        case modelTree
        /// Stages 2–7, what a frame shows before the overlay and particles: what behavior
        /// expressions and `set:` expressions read, and `Timeline`'s frame.
        case presentation
        /// Every stage.
        case frame
    }

    /// The tree at `time` (frame `index`, which expressions read as `frame`), built from
    /// `sources` stage by stage up to `extent`.
    static func frame<Sources: FrameSources>(_ sources: inout Sources, at time: Double, index: Int,
                                             through extent: Extent = .frame) throws(Sources.Failure) -> SceneFrame {
        // The scene's parts each stage reads, not the whole scene: the particles build a
        // tree at every step.
        let ids = sources.timeline.scene.layerIDs, settings = sources.timeline.scene.settings
        // 1. Events due by `time`, each at the physics step it falls in: the physics is
        //    stepped to `time` with them.
        if extent == .frame { try sources.runEvents(upTo: time) }
        let inputs = sources.inputs
        var layers = sources.timeline.scene.layers
        // 2. Animations, in file order (each sees what those before it left).
        // Each read in place: a `for spec in` copy of every spec costs more than applying many.
        for i in inputs.animations.indices { Timeline.apply(inputs.animations[i], at: time, to: &layers) }
        // 3. What the events have done: values set, then the animations they started, then
        //    the layers they removed.
        inputs.changes.setValues(in: &layers, ids: ids)
        inputs.changes.applyStartedAnimations(to: &layers, at: time, ids: ids)
        inputs.changes.hideRemovedLayers(in: &layers, ids: ids)
        // 4. Physics: each dynamic item where the animator has it.
        for item in inputs.items { item.place(in: &layers) }
        // 5. Expressions, once, in dependency order, reading what 1–4 left.
        let bindings = sources.bindings
        if !bindings.isEmpty {
            ExpressionEvaluation(bindings: bindings, layerIDs: ids, seed: settings.seed)
                .apply(to: &layers, time: time, frame: index)
        }
        // 6. Named shapes follow their parameters.
        if extent != .emitterValues && sources.timeline.hasNamedShapes {
            for i in layers.indices { layers[i].updateNamedShapes() }
        }
        var frame = SceneFrame(index: index, time: time, size: settings.size, background: settings.background, layers: layers)
        guard extent != .modelTree && extent != .emitterValues else { return frame }
        let timeline = sources.timeline, scene = timeline.scene
        // 7. Replicators expand (a copy of another time is that time's model tree, without
        //    physics, each time once), then back faces are hidden (facing depends on every
        //    transform down to the canvas, copies' placements included).
        var copies = FrameTree(timeline: timeline, inputs: FrameInputs(animations: inputs.animations, changes: inputs.changes))
        var earlier: [Double: [Layer]] = [:]
        let expanded = Replication.expand(frame.layers, at: time, limit: scene.maxLayerInstances) { t in
            if let cached = earlier[t] { return cached }
            let tree = Self.frame(&copies, at: t, index: index, through: .modelTree).layers
            earlier[t] = tree
            return tree
        }
        frame.layers = timeline.hasSingleSidedLayers ? Layer.hidingBackFaces(expanded.layers) : expanded.layers
        if expanded.exceeded {
            let refusal = "at t = \(String(format: "%.3f", time)) s the replicators make more than \(scene.maxLayerInstances) layers "
                + "(the limit of layer instances, from --max-memory)"
            frame.refusal = refusal
            try sources.refuse(refusal)
        }
        guard extent == .frame else { return frame }
        // 8. The `dynamics.debug` overlay, on top.
        frame.layers += sources.debugLayers
        // 9. Particles: every emitter advanced to `time` on its own clock.
        return try sources.addParticles(to: frame)
    }
}

/// What a tree's stages read besides the scene, as the events and the physics have left
/// it: the animations (their expression values evaluated when each began), the events'
/// layer changes and where the physics has each item.
struct FrameInputs: Sendable {
    var animations: [AnimationSpec]
    var changes = LayerChanges()
    var items: [ItemPlacement] = []
}

/// A dynamic item's layer placed where the physics has the item (stage 4).
struct ItemPlacement: Sendable {
    var address: LayerAddress
    var position: Point
    var angle: Double

    func place(in layers: inout [Layer]) {
        layers.modify(at: address) { layer in
            layer.position = position
            layer.setValue(.number(angle), at: .transformRotationZ)
        }
    }
}

/// Where ``FrameOrder`` takes each stage's work from. The stateful stages (events and
/// physics, particles) are the sources'; `FrameOrder` decides when each runs.
protocol FrameSources {
    /// What a source may fail with: `Never` for a tree of fixed inputs.
    associatedtype Failure: Error
    var timeline: Timeline { get }
    /// Stage 1: runs the events due by `time`, stepping the physics to it.
    mutating func runEvents(upTo time: Double) throws(Failure)
    /// Stages 2–4's inputs, read after stage 1.
    var inputs: FrameInputs { get }
    /// Stage 5's expression bindings, in dependency order: the scene's.
    var bindings: [ExpressionBinding] { get }
    /// Stage 7's refusal (more layers than the limit of layer instances): a source that
    /// fails frames throws it; the others leave it in the frame.
    mutating func refuse(_ refusal: String) throws(Failure)
    /// Stage 8: the `dynamics.debug` overlay.
    var debugLayers: [Layer] { get }
    /// Stage 9: `frame` with its emitters' live particles.
    mutating func addParticles(to frame: SceneFrame) throws(Failure) -> SceneFrame
}

extension FrameSources {
    mutating func runEvents(upTo time: Double) throws(Failure) {}
    mutating func refuse(_ refusal: String) throws(Failure) {}
    var bindings: [ExpressionBinding] { timeline.scene.bindings }
    var debugLayers: [Layer] { [] }
    mutating func addParticles(to frame: SceneFrame) throws(Failure) -> SceneFrame { frame }
}

/// A tree of fixed inputs: no events, no overlay, no particles.
struct FrameTree: FrameSources {
    typealias Failure = Never
    var timeline: Timeline
    var inputs: FrameInputs
}
