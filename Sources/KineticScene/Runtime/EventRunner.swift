import KineticAnimation
import KineticDynamics
import KineticGeometry
import KineticLayers

/// The event runner: which events are due (time events, delayed actions, contact and
/// `animationStop` handlers) and what their actions do to the physics and the layers.
/// Stage 1 of `FrameOrder` runs them at the physics step each falls in (`Simulation`).
extension Simulation {
    /// The layer id an action names, given the contact that fired it.
    static func layerID(_ layer: EventLayer, _ contact: ContactEvent?) -> String? {
        switch layer {
        case .id(let name): return name
        case .item: return contact?.item
        case .other:
            if case .item(let other) = contact?.other { return other }
            return nil
        }
    }

    /// The contact as the handler sees it ($item first), or nil when it does not match.
    static func match(_ filter: SceneEvent.ContactFilter, _ c: ContactEvent) -> ContactEvent? {
        switch filter {
        case .any: return c
        case .boundary(let id):
            guard case .boundary(let b) = c.other, id == nil || id == b else { return nil }
            return c
        case .items(let ids):
            guard case .item(let other) = c.other else { return nil }
            let pair = [c.item, other]
            if ids.count == 1 {
                guard let first = ids.first, pair.contains(first) else { return nil }
                return first == c.item ? c : ContactEvent(phase: c.phase, time: c.time, item: other, other: .item(c.item))
            }
            guard Set(ids) == Set(pair) else { return nil }
            return ids[0] == c.item ? c : ContactEvent(phase: c.phase, time: c.time, item: other, other: .item(c.item))
        }
    }

    /// Queues the actions of the contact handlers that match `contacts`, at each
    /// contact's time plus the action's delay.
    func queueHandlers(_ handlers: [SceneEvent], of contacts: [ContactEvent]) {
        for contact in contacts {
            for handler in handlers {
                guard case .contact(let phase, let filter) = handler.trigger, phase == contact.phase,
                      let ordered = Self.match(filter, contact) else { continue }
                for action in handler.actions {
                    delayed.append((contact.time + action.delay, action, ordered))
                }
            }
        }
    }

    /// Runs the time events and delayed actions due at or before `now`, in time order.
    func runDue(_ animator: DynamicAnimator, upTo now: Double) throws(SimulationError) {
        while let first = timeEvents.first, Instant.reached(now, first.time) {
            timeEvents.removeFirst()
            for action in first.actions { try run(action, contact: nil, animator) }
        }
        let due = delayed.enumerated().filter { Instant.reached(now, $0.element.time) }
        guard !due.isEmpty else { return }
        delayed = delayed.enumerated().filter { !Instant.reached(now, $0.element.time) }.map(\.element)
        for (_, entry) in due.sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }) {
            try run(entry.action, contact: entry.contact, animator)
        }
    }

    func run(_ action: EventAction, contact: ContactEvent?, _ animator: DynamicAnimator) throws(SimulationError) {
        switch action.kind {
        case .removeAllBehaviors:
            animator.removeAllBehaviors()
            behaviorTerms = [:]
        case .removeBehaviors(let ids):
            for id in ids where animator.behavior(id: id) != nil {
                try physics { () throws(DynamicsError) in try animator.removeBehavior(id: id) }
            }
            for id in ids { behaviorTerms[id] = nil }
        case .addBehaviors(let behaviors, let terms, let added):
            places.items.merge(added.items) { current, _ in current }
            for b in behaviors {
                // Re-adding a live id replaces it, as adding a behavior object again would.
                if animator.behavior(id: b.id) != nil {
                    try physics { () throws(DynamicsError) in try animator.removeBehavior(id: b.id) }
                }
                places.behaviors[b.id] = added.behaviors[b.id]
                var live = b
                live.begin += animator.time
                live.end += animator.time
                let own = terms.filter { $0.behavior == b.id }
                behaviorTerms[b.id] = own.isEmpty ? nil : own
                // Built with its values now: an attachment's default length is measured then.
                let evaluate = expressionValues(for: own.map(\.term.expression), at: animator.time)
                live = try Self.setting(own, on: live, at: animator.time, evaluate: evaluate)
                try physics { () throws(DynamicsError) in try animator.addBehavior(live) }
            }
        case .set(let changes, let layerChanges):
            let evaluate = expressionValues(for: changes.map(\.term.expression) + layerChanges.map(\.change.expression),
                                            at: animator.time)
            for change in changes {
                guard let current = animator.behavior(id: change.behavior) else { continue }
                let updated: DynamicBehavior
                if case .literal(let value) = change.term {
                    // A literal is checked at load: what is refused here is of another kind.
                    guard let set = try? current.setting(change.property, to: value) else { continue }
                    updated = set
                } else {
                    updated = try Self.setting(change.property, of: current, to: change.term, at: animator.time,
                                               evaluate: evaluate)
                }
                try physics { () throws(DynamicsError) in try animator.updateBehavior(id: change.behavior) { $0 = updated } }
            }
            for (layer, change) in layerChanges {
                // A layer value that is not finite leaves the property as it was.
                guard let id = Self.layerID(layer, contact), let setting = change.setting(evaluate: evaluate) else { continue }
                self.changes.values.append((id, setting))
            }
        case .animate(let spec, let layer):
            guard let id = Self.layerID(layer, contact) else { return }
            var started = spec
            // Its begin is a delay from now, on its layer's clock.
            let address = timeline.scene.layerIDs[id]
            let clock = address.map { timeline.scene.layers.clock(at: $0) } ?? .scene
            if let address { started.layer = address }
            started.timing.beginTime += clock.local(animator.time)
            changes.animations.append((id, started))
            if started.needsCapture {
                let begin = clock.sceneTime(started.timing.beginTime) ?? animator.time
                pendingCaptures.append((begin, .started(changes.animations.count - 1)))
            }
            scheduleStop(of: started)
        case .removeLayers(let layers):
            for layer in layers {
                guard let id = Self.layerID(layer, contact) else { continue }
                changes.removed.insert(id)
                if animator.state(of: id) != nil { try physics { () throws(DynamicsError) in try animator.removeItem(id) } }
            }
        }
    }

    /// Evaluates a `set:` action's expression values as the action runs at `time`, as a
    /// property set in UIKit then: each reads what a frame at `time` shows (animations,
    /// physics, expressions, earlier events' changes), before any value of the action takes
    /// effect, and keeps its value afterwards. Values read before they take effect form no
    /// cycle. The frame is computed only when the action has expressions.
    func expressionValues(for expressions: [ExpressionValue?], at time: Double) -> (ExpressionValue) -> AnimatableValue? {
        guard expressions.contains(where: { $0 != nil }) else { return { _ in nil } }
        let index = AnimationSpec.frameIndex(at: time, fps: timeline.scene.settings.fps)
        return Self.expressionValues(reading: presentation(at: time, index: index).layers, at: time, scene: timeline.scene)
    }

    /// Evaluates expression values at `time`, reading `layers` (what a frame then shows).
    static func expressionValues(reading layers: [Layer], at time: Double,
                                 scene: Scene) -> (ExpressionValue) -> AnimatableValue? {
        let index = AnimationSpec.frameIndex(at: time, fps: scene.settings.fps)
        return { $0.evaluate(reading: layers, ids: scene.layerIDs, time: time, frame: index, seed: scene.settings.seed) }
    }

    /// Queues the `animationStop` handlers of `spec` (if it has any) for when it stops:
    /// its begin plus its active duration, as animationDidStop: fires.
    func scheduleStop(of spec: AnimationSpec) {
        guard let id = spec.id, let actions = stopHandlers[id], spec.timing.endTime.isFinite,
              let stop = timeline.scene.layers.clock(at: spec.layer).sceneTime(spec.timing.endTime) else { return }
        for action in actions { delayed.append((stop + action.delay, action, nil)) }
    }
}
