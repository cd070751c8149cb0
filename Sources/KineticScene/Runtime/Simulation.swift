import Foundation
import KineticAnimation
import KineticDynamics
import KineticGeometry
import KineticLayers

/// An item's simulated state (center, angle, velocity, angular velocity), as
/// `kinetic inspect` lists it under `items`.
public typealias DynamicItemState = KineticDynamics.DynamicItemState

/// Why a scene's physics could not go on: invalid values the loader could not see
/// (exit 65), or a blow-up at `time` (exit 70). With a `place` (the item's layer, the
/// behavior or the expression in the scene file) the description starts
/// `FILE:LINE:COLUMN: KEY.PATH: `.
public struct SimulationError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// A layer or behavior value Chipmunk must not see (a zero-size item, a flat collision path).
        case invalidScene
        /// The state of `item` stopped being finite at `time`.
        case blewUp(time: Double, item: String)
        /// An expression or a `behavior:` animation gave `behavior`'s `property` a value out
        /// of its range in its behavior's table, or not finite, at `time` (exit 65, as the value
        /// written so).
        case valueOutOfRange(time: Double, behavior: String, property: String)
    }

    public var kind: Kind
    /// Where what failed was written; nil when it was not in the file.
    public var place: SourcePlace?
    public var description: String

    /// `error`, placed where `places` says its item or behavior was written.
    init(_ error: DynamicsError, in places: DynamicsPlaces) {
        if case .nonFiniteState(let time, let item) = error {
            kind = .blewUp(time: time, item: item)
        } else {
            kind = .invalidScene
        }
        let located = places.place(of: error)
        place = located?.place
        description = located.map { "\($0.place): \($0.message)" } ?? "dynamics: \(error)"
    }

    /// The value `source` (written at `place`) gave `property` of `behavior` at `time`,
    /// refused (`reason`).
    init(refusing reason: String, property: String, of behavior: String, at time: Double,
         by source: String = "the expression", place: SourcePlace?) {
        kind = .valueOutOfRange(time: time, behavior: behavior, property: property)
        self.place = place
        let message = "at t = \(time) s \(source) drives behavior '\(behavior)' out of range: \(reason)"
        description = place.map { "\($0): \(message)" } ?? "dynamics: \(message)"
    }
}

/// The events and the physics of a scene: the stateful stages 1 and 4 of `FrameOrder`.
/// Without `dynamics` a frame is `Timeline`'s; with it, a `DynamicAnimator` is stepped up
/// to each frame's time (at the fixed `stepsPerSecond`, so the result does not depend on
/// the fps or on which frames are asked for), the events running at the steps they fall
/// in, and each dynamic item's center and angle are written over the animated layer's
/// `position` and `transform.rotation.z`.
///
/// Stateful: ask for frames in increasing time. Asking for an earlier time starts the
/// simulation again from 0 (correct, only slower).
public final class Simulation: FrameSources {
    public let timeline: Timeline
    private var animator: DynamicAnimator?
    private var bindings: [Binding] = []
    /// Time events not yet run, earliest first.
    var timeEvents: [(time: Double, actions: [EventAction])] = []
    /// Actions waiting for their delay, with the contact that fired them.
    var delayed: [(time: Double, action: EventAction, contact: ContactEvent?)] = []
    /// The `dynamics.debug` overlay of the last frame.
    private(set) var debugLayers: [Layer] = []
    /// What events have done to layers: values set, animations started (with their
    /// start times), layers removed.
    var changes = LayerChanges()
    /// The actions of `on: {animationStop: ID}` handlers by animation id, in file order.
    var stopHandlers: [String: [EventAction]] = [:]
    /// `animations:` with expression values evaluated when each began: by the timeline
    /// for those beginning at 0 or before (nothing has moved yet), here for the rest.
    private var animations: [AnimationSpec] = []
    /// The behavior animations, likewise evaluated here.
    private var behaviorAnimations: [BehaviorAnimation] = []
    /// Animations whose expression values are evaluated when they begin, in queue order.
    var pendingCaptures: [(begin: Double, target: CaptureTarget)] = []
    /// Behavior properties set at every step (`DynamicsSpec.behaviorTerms`), by behavior id.
    var behaviorTerms: [String: [BehaviorSetting]] = [:]
    /// Where the live behaviors and the items were written (events' behaviors at the
    /// event's key), for the failures they cause.
    var places = DynamicsPlaces()

    enum CaptureTarget {
        /// An index in `animations`, `behaviorAnimations`, `changes.animations`.
        case animation(Int), behaviorAnimation(Int), started(Int)
    }

    /// The state of every dynamic item at the last frame computed, by layer id.
    public private(set) var itemStates: [String: DynamicItemState] = [:]

    /// Where an item's layer is and how its center relates to its `position`.
    private struct Binding {
        var id: String
        var address: LayerAddress
        /// From the anchor point (`position`) to the bounds' center, in the layer's scaled,
        /// unrotated space: center = position + rotate(offset, angle).
        var offset: Point
    }

    public init(timeline: Timeline) { self.timeline = timeline }

    /// Frame `index` at `fps` (default the scene's): time `index / fps`.
    public func frame(_ index: Int, fps: Double? = nil) throws(SimulationError) -> SceneFrame {
        try frame(at: Double(index) / (fps ?? timeline.scene.settings.fps), index: index)
    }

    /// The frame at `time`: every stage of `FrameOrder` but the particles; a frame over
    /// the limit of layer instances carries its refusal.
    public func frame(at time: Double, index: Int) throws(SimulationError) -> SceneFrame {
        var sources = self
        return try FrameOrder.frame(&sources, at: time, index: index)
    }

    /// Stage 1: the events due by `time` run at the physics steps they fall in, the
    /// animator stepped to `time` (started again from 0 for an earlier time).
    func runEvents(upTo time: Double) throws(SimulationError) {
        guard let spec = timeline.scene.physics else { return }
        if let animator, !Instant.reached(time, animator.time) { self.animator = nil }
        if animator == nil { try start(spec) }
        guard let animator else { return }
        try advance(animator, to: time)
        for b in bindings { if let s = animator.state(of: b.id) { itemStates[b.id] = s } }
        if spec.debug { debugLayers = Self.overlay(animator.debugGeometry()) }
    }

    /// Stages 2–4's inputs as the events and the physics stand: without physics, the
    /// timeline's animations alone.
    var inputs: FrameInputs {
        guard animator != nil else { return FrameInputs(animations: timeline.animations) }
        return FrameInputs(animations: animations, changes: changes, items: itemPlacements)
    }

    /// Each dynamic item's layer where the physics has the item now.
    private var itemPlacements: [ItemPlacement] {
        guard let animator else { return [] }
        return bindings.compactMap { b in
            animator.state(of: b.id).map { s in
                ItemPlacement(address: b.address, position: s.center - Self.rotate(b.offset, by: s.angle), angle: s.angle)
            }
        }
    }

    /// What a frame at `time` shows, from the physics as it stands (stages 2–7, only the
    /// animations beginning before `limit`): what expressions read between frames.
    func presentation(at time: Double, index: Int, before limit: Double = .infinity) -> SceneFrame {
        let scene = timeline.scene
        let begun = { (spec: AnimationSpec) in !Instant.reached(spec.sceneBegin(in: scene.layers), limit) }
        var tree = FrameTree(timeline: timeline, inputs: FrameInputs(
            animations: limit.isFinite ? animations.filter(begun) : animations,
            changes: changes.beginning(before: limit, layers: scene.layers), items: itemPlacements))
        return FrameOrder.frame(&tree, at: time, index: index, through: .presentation)
    }

    /// Steps to `time`, one step at a time when events are pending or listening, so each
    /// runs at its own step, in simulation order.
    private func advance(_ animator: DynamicAnimator, to time: Double) throws(SimulationError) {
        let events = timeline.scene.events
        let handlers = events.filter { if case .contact = $0.trigger { return true } else { return false } }
        let h = 1 / Double(animator.stepsPerSecond)
        while true {
            try runDue(animator, upTo: animator.time)
            captureDue(animator)
            try applyBehaviorAnimations(animator)
            try applyBehaviorTerms(animator)
            let next = animator.time + h
            guard next <= time + 1e-7 else { break }
            // Nothing to do between here and `time`: one jump (captures due later wait).
            let target = Self.step(of: time, animator)
            if timeEvents.isEmpty && delayed.isEmpty && handlers.isEmpty && behaviorAnimations.isEmpty
                && behaviorTerms.isEmpty && pendingCaptures.allSatisfy({ Self.step(of: $0.begin, animator) > target }) {
                try physics { () throws(DynamicsError) in try animator.step(to: time) }
                break
            }
            try physics { () throws(DynamicsError) in try animator.step(to: next) }
            queueHandlers(handlers, of: animator.takeContactEvents())
        }
        // No step left before `time`: this brings behaviors due at `time` live.
        try physics { () throws(DynamicsError) in try animator.step(to: time) }
    }

    /// Runs `body`, a call into the physics, with its failure placed in the scene file.
    func physics<T>(_ body: () throws(DynamicsError) -> T) throws(SimulationError) -> T {
        do { return try body() } catch { throw SimulationError(error, in: places) }
    }

    /// The step the animator counts `time` in (the last step at or before it).
    private static func step(of time: Double, _ animator: DynamicAnimator) -> Int {
        Int((time * Double(animator.stepsPerSecond) + 1e-7).rounded(.down))
    }

    /// Evaluates the expression values of the animations that begin by the current step
    /// (in begin order): each reads what a frame at its begin shows, without the
    /// animations beginning then or later — the physics as of the last step at or before it.
    private func captureDue(_ animator: DynamicAnimator) {
        let now = Self.step(of: animator.time, animator)
        let due = pendingCaptures.enumerated().filter { Self.step(of: $0.element.begin, animator) <= now }
            .sorted { ($0.element.begin, $0.offset) < ($1.element.begin, $1.offset) }.map(\.element)
        guard !due.isEmpty else { return }
        pendingCaptures.removeAll { Self.step(of: $0.begin, animator) <= now }
        let scene = timeline.scene
        for (begin, target) in due {
            let index = AnimationSpec.frameIndex(at: begin, fps: scene.settings.fps)
            let layers = presentation(at: begin, index: index, before: begin).layers
            // A value that is not finite leaves the animation without effect.
            func captured(_ spec: AnimationSpec) -> AnimationSpec {
                spec.capturing(reading: layers, ids: scene.layerIDs, time: begin, frame: index, seed: scene.settings.seed) ?? spec
            }
            switch target {
            case .animation(let i): animations[i] = captured(scene.animations[i])
            case .behaviorAnimation(let i): behaviorAnimations[i].spec = captured(behaviorAnimations[i].spec)
            case .started(let i): changes.animations[i].spec = captured(changes.animations[i].spec)
            }
        }
    }

    /// Sets every expression-bound behavior property to its value now, read from what a
    /// frame now shows (UIKit's per-step `action` blocks).
    private func applyBehaviorTerms(_ animator: DynamicAnimator) throws(SimulationError) {
        let evaluate = expressionValues(for: behaviorTerms.values.flatMap { $0.map(\.term.expression) }, at: animator.time)
        for (id, terms) in behaviorTerms.sorted(by: { $0.key < $1.key }) {
            guard let current = animator.behavior(id: id) else { continue }
            let updated = try Self.setting(terms, on: current, at: animator.time, evaluate: evaluate)
            guard updated != current else { continue }
            try physics { () throws(DynamicsError) in try animator.updateBehavior(id: id) { $0 = updated } }
        }
    }

    /// `behavior` with the properties of `terms` set, in order, to their values at `time`.
    static func setting(_ terms: [BehaviorSetting], on behavior: DynamicBehavior, at time: Double,
                        evaluate: (ExpressionValue) -> AnimatableValue?) throws(SimulationError) -> DynamicBehavior {
        var b = behavior
        for s in terms { b = try setting(s.property, of: b, to: s.term, at: time, evaluate: evaluate) }
        return b
    }

    /// `behavior` with `property` set to `term`'s value at `time` (`evaluate` gives an
    /// expression's). UIKit clamps none of these properties, and the physics must not see
    /// a value out of its range (docs/dynamics.md): such a value, or one not finite, stops
    /// the simulation at the expression's place, with the time. A value of a kind the
    /// property does not take (the loader checks the kinds) leaves it as it was.
    static func setting(_ property: String, of behavior: DynamicBehavior, to term: Term<BehaviorValue>, at time: Double,
                        evaluate: (ExpressionValue) -> AnimatableValue?) throws(SimulationError) -> DynamicBehavior {
        let value: BehaviorValue?
        switch term {
        case .literal(let v): value = v
        case .expression(let e):
            guard let v = evaluate(e) else {
                throw SimulationError(refusing: "'\(property)' must be finite, got a value that is not", property: property,
                                      of: behavior.id, at: time, place: e.place)
            }
            value = BehaviorValue(v)
        }
        guard let value else { return behavior }
        do { return try behavior.setting(property, to: value) } catch {
            guard case .outOfRange = error else { return behavior }
            throw SimulationError(refusing: "\(error)", property: property, of: behavior.id, at: time,
                                  place: term.expression?.place)
        }
    }

    /// Sets every animated behavior property to its value at the animator's time (as
    /// UIKit code setting `anchorPoint` during a pan). A value out of the property's range
    /// (an overshooting timing, a captured expression) stops the simulation at the
    /// animation, as an expression's does; a behavior not live now is left alone.
    ///
    /// An animated `anchorPoint` is given its value at the end of the coming step: the
    /// anchor body travels there during the step, so it moves at the animation's
    /// derivative (its mean over the step) and a rigid rod carries the item at the
    /// finger's speed, which the item keeps when the attachment goes.
    private func applyBehaviorAnimations(_ animator: DynamicAnimator) throws(SimulationError) {
        let stepEnd = animator.time + 1 / Double(animator.stepsPerSecond)
        for a in behaviorAnimations where !a.spec.needsCapture {
            // The animation machinery of layers, on a one-layer carrier: no second engine.
            var carrier = [Layer(place: "behavior")]
            var spec = a.spec
            spec.layer = LayerAddress([0])
            let ahead = a.property == "anchorPoint" && spec.timing.progress(at: stepEnd) != nil
            Timeline.apply(spec, at: ahead ? stepEnd : animator.time, to: &carrier)
            guard spec.timing.progress(at: animator.time) != nil,
                  let value = carrier[0].value(at: spec.keyPath).flatMap(BehaviorValue.init),
                  let current = animator.behavior(id: a.behavior) else { continue }
            let updated: DynamicBehavior
            do { updated = try current.setting(a.property, to: value) } catch {
                guard case .outOfRange = error else { continue }
                throw SimulationError(refusing: "\(error)", property: a.property, of: a.behavior, at: animator.time,
                                      by: "the animation", place: a.place)
            }
            try physics { () throws(DynamicsError) in try animator.updateBehavior(id: a.behavior) { $0 = updated } }
        }
    }

    /// Builds the animator from the layers as they are at time 0.
    private func start(_ spec: DynamicsSpec) throws(SimulationError) {
        let scene = timeline.scene
        let initial = timeline.frame(at: 0, index: 0).layers
        let addresses = scene.layerIDs
        var items: [DynamicItem] = []
        bindings = []
        var ids = spec.itemIDs
        places = spec.places
        for event in scene.events {
            for action in event.actions {
                guard case .addBehaviors(let added, _, _) = action.kind else { continue }
                for id in added.flatMap(\.itemIDs) where !ids.contains(id) { ids.append(id) }
            }
        }
        for id in ids {
            guard let address = addresses[id], let layer = initial[address] else { continue }
            let c = layer.transform.components
            let angle = c.rotationZ
            let center = layer.toSuperlayer.apply(to: Point(layer.bounds.midX, layer.bounds.midY))
            let size = Size(layer.bounds.width * abs(c.sx), layer.bounds.height * abs(c.sy))
            items.append(DynamicItem(id: id, center: center, size: size, angle: angle,
                                     collisionBoundsType: spec.collisionBounds[id] ?? .rectangle))
            bindings.append(Binding(id: id, address: address, offset: Self.rotate(center - layer.position, by: -angle)))
        }
        let bounds = spec.referenceBounds ?? Rect(origin: .zero, size: scene.settings.size)
        timeEvents = scene.events.enumerated().compactMap { k, e -> (Int, Double, [EventAction])? in
            if case .time(let t) = e.trigger { return (k, t, e.actions) } else { return nil }
        }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map { ($0.1, $0.2) }   // file order among equal times
        delayed = []
        changes = LayerChanges()
        debugLayers = []
        stopHandlers = [:]
        for event in scene.events {
            if case .animationStop(let id) = event.trigger { stopHandlers[id, default: []] += event.actions }
        }
        for spec in scene.animations + scene.behaviorAnimations.map(\.spec) { scheduleStop(of: spec) }
        animations = timeline.animations
        behaviorAnimations = scene.behaviorAnimations
        pendingCaptures = []
        for (i, a) in scene.animations.enumerated() where a.needsCapture {
            let begin = a.sceneBegin(in: scene.layers)
            if begin > 0 && begin.isFinite { pendingCaptures.append((begin, .animation(i))) }
        }
        for (i, a) in behaviorAnimations.enumerated() where a.spec.needsCapture {
            pendingCaptures.append((a.spec.timing.beginTime, .behaviorAnimation(i)))
        }
        behaviorTerms = Dictionary(grouping: spec.behaviorTerms, by: \.behavior)
        // The behaviors start with their expression values of time 0 (an attachment's
        // default length is the distance to where its anchor then is).
        let evaluate = Self.expressionValues(reading: initial, at: 0, scene: scene)
        var behaviors: [DynamicBehavior] = []
        for b in spec.behaviors { behaviors.append(try Self.setting(behaviorTerms[b.id] ?? [], on: b, at: 0, evaluate: evaluate)) }
        // Without a contact handler, Chipmunk runs without collision callbacks.
        let listens = scene.events.contains { if case .contact = $0.trigger { true } else { false } }
        animator = try physics { () throws(DynamicsError) in
            try DynamicAnimator(referenceBounds: bounds, stepsPerSecond: spec.stepsPerSecond, items: items,
                                behaviors: behaviors, seed: scene.settings.seed, reportsContacts: listens)
        }
        itemStates = [:]
    }

    private static func rotate(_ v: Point, by angle: Double) -> Point {
        Point(cos(angle) * v.x - sin(angle) * v.y, sin(angle) * v.x + cos(angle) * v.y)
    }
}
