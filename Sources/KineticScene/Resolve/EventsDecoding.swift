import Foundation
import KineticDynamics
import KineticGeometry
import KineticLayers
import KineticAnimation

/// Reads `events:` (section 7): `at:`, `on: {contact: …}` and `on: {animationStop: ID}`
/// triggers with removeAllBehaviors, removeBehaviors, addBehaviors, `set` of behavior
/// properties and removeLayers (with `delay` in `do:` lists), `set` of layer key paths,
/// `animate`.
struct EventsDecoder {
    let dynamics: DynamicsDecoder
    /// Reads layer values (and records the image assets they use).
    var animations: AnimationDecoder
    /// The behaviors of the `dynamics:` block, by id.
    let initialBehaviors: [String: DynamicBehavior]

    /// An event's actions, by their key, in the order an `at:` event runs them (the table
    /// names and documents them).
    static let actionKeys = SceneKeys.action.map(\.name)
    /// The keys of an event, and of a `do:` entry.
    static let eventKeys = (SceneKeys.event + SceneKeys.action).map(\.name)
    static let doActionKeys = (SceneKeys.action + [SceneKeys.delay]).map(\.name)

    /// The ids `animationStop` triggers name (their fields), checked by `checkAnimationStops`
    /// once every animation is known.
    private(set) var stopTriggers: [Field] = []
    /// The animations `animate` actions start, for `animationStop` triggers naming them.
    private(set) var startedAnimations: [AnimationSpec] = []
    /// The behaviors `set` and `removeBehaviors` may name: those of `dynamics:` and every
    /// event's `addBehaviors`.
    private(set) var known: [String: DynamicBehavior] = [:]
    /// Each `addBehaviors` action (the behaviors, their expression values and places), by
    /// its key path.
    private(set) var added: [String: EventAction.Kind] = [:]

    mutating func events(_ f: Field) -> [SceneEvent] {
        guard let list = f.elements else { return [] }
        let decoded = list.compactMap { e in
            e.mapping(allowed: Self.eventKeys).map { (field: e, m: $0.checked("event")) }
        }
        // Behaviors added anywhere can be named anywhere (set, removeBehaviors): every event's
        // are read first. A `do:` that is no list is reported once, with the event.
        known = initialBehaviors
        for event in decoded {
            let items = event.m["do"].flatMap { $0.isList ? $0.elements : nil } ?? []
            for case let af? in [event.m["addBehaviors"]] + items.map({ $0.peek("addBehaviors") }) {
                added[af.keyPath] = addBehaviors(af)
            }
        }
        return decoded.compactMap { event($0.field, $0.m) }
    }
    private mutating func addBehaviors(_ f: Field) -> EventAction.Kind {
        var behaviors: [DynamicBehavior] = [], terms: [BehaviorSetting] = [], places = DynamicsPlaces()
        for element in f.elements ?? [] {
            guard let (b, t) = dynamics.behavior(element) else { continue }
            known[b.id] = known[b.id] ?? b
            behaviors.append(b)
            terms += t
            places.behaviors[b.id] = element.place
            for id in b.itemIDs { places.items[id] = dynamics.layerIDs[id]?.field.place }
        }
        return .addBehaviors(behaviors, terms: terms, places: places)
    }

    private mutating func event(_ f: Field, _ m: Mapping) -> SceneEvent? {
        switch (m["at"], m["on"]) {
        case (let af?, nil):
            guard let time = af.nonNegativeNumber else { return nil }
            let actions = Self.actionKeys.compactMap { key in
                m[key].flatMap { action(key, $0, contact: false) }.map { EventAction($0) }
            }
            return SceneEvent(trigger: .time(time), actions: actions)
        case (nil, let of?):
            guard let on = trigger(of), let list = m.required("do")?.elements else { return nil }
            // `$item` and `$other` exist only for contacts.
            let isContact = if case .contact = on { true } else { false }
            var actions: [EventAction] = []
            for item in list {
                guard let am = item.mapping(allowed: Self.doActionKeys) else { continue }
                let keys = am.order.filter { $0 != "delay" }
                guard keys.count == 1, let key = keys.first, let field = am[key] else {
                    item.report("each `do:` entry is one action (\(Self.actionKeys.joined(separator: ", "))), with an optional delay")
                    continue
                }
                let delay = am["delay"].map { $0.nonNegativeNumber } ?? 0
                if let action = action(key, field, contact: isContact), let delay {
                    actions.append(EventAction(action, delay: delay))
                }
            }
            return SceneEvent(trigger: on, actions: actions)
        case (_?, _?):
            return nil  // Reported by its rule (`SceneKeys.rules`).
        case (nil, nil):
            f.report("an event needs `at:` (a time) or `on:` (a trigger)")
            return nil
        }
    }

    /// `on: {contact: …}` or `on: {animationStop: ID}`.
    private mutating func trigger(_ f: Field) -> SceneEvent.Trigger? {
        // The trigger's keys of the other kind are reported by their rules (`SceneKeys.rules`).
        guard let m = f.mapping(allowed: SceneKeys.trigger.map(\.name))?.checked("trigger") else { return nil }
        if let sf = m["animationStop"] {
            guard let id = sf.string else { return nil }
            stopTriggers.append(sf)
            return .animationStop(id)
        }
        guard let phase = m.required("contact")?.choice([("began", ContactEvent.Phase.began), ("ended", .ended)]) else { return nil }
        // `boundary` with `items` is reported by its rule.
        if let bf = m["boundary"] {
            return m["items"] == nil ? bf.string.map { .contact(phase, .boundary($0)) } : nil
        }
        guard let itf = m["items"] else { return .contact(phase, .any) }
        guard let list = itf.elements else { return nil }
        guard (1...2).contains(list.count) else { itf.report("list one or two items"); return nil }
        // Each id reported at its own item (one that is not text has reported itself); unknown
        // ones still let the actions be read.
        let ids = list.compactMap { item in item.string.map { (item, $0) } }
        for (item, id) in ids where dynamics.layerIDs[id] == nil {
            item.report("unknown layer id '\(id)'" + NameSuggestion.hint(for: id, in: Array(dynamics.layerIDs.keys)))
        }
        return ids.count == list.count ? .contact(phase, .items(ids.map(\.1))) : nil
    }

    /// The action of `SceneKeys.action` named `key`.
    private mutating func action(_ key: String, _ f: Field, contact: Bool) -> EventAction.Kind? {
        switch key {
        case "removeAllBehaviors":
            return f.bool == true ? .removeAllBehaviors : nil
        case "removeBehaviors":
            return f.elements?.readingAll { $0.name(in: known, "behavior id") }.map { .removeBehaviors($0) }
        case "addBehaviors":
            return added[f.keyPath]
        case "set":
            return set(f, contact: contact)
        case "removeLayers":
            return f.elements?.readingAll { item -> EventLayer? in
                guard let name = item.string, let layer = Self.eventLayer(name, at: item, contact: contact) else { return nil }
                if case .id = layer, item.name(in: dynamics.layerIDs, "layer id") == nil { return nil }
                return layer
            }.map { .removeLayers($0) }
        case "animate":
            return animate(f, contact: contact)
        default:
            return nil
        }
    }

    /// `animate: {layer: ID | $item | $other, keyPath, …}`: an animation of section 5 that
    /// starts when the event fires. Contact items may be any layer, so their key paths are
    /// checked as a plain layer's.
    private mutating func animate(_ f: Field, contact: Bool) -> EventAction.Kind? {
        let name = f.peek("layer")?.node.scalar?.string
        let eventLayer = name.flatMap { Self.eventLayer($0, at: f, contact: contact) }
        if name != nil, eventLayer == nil { return nil }
        let placeholder = LayerEntry(address: LayerAddress([]), type: .layer, propertyNames: [], field: f)
        let refusal = "'after' is not supported in events: use 'begin' as a delay"
        guard let (spec, _) = animations.animation(f, inheritedLayer: nil, contactLayer: (placeholder, "$item"),
                                                   refusingAfter: refusal), let eventLayer else { return nil }
        if case .group = spec.values { f.report("not yet supported: groups in events"); return nil }
        startedAnimations.append(spec)
        return .animate(spec, layer: eventLayer)
    }

    /// The layer `name` names in an action: `$item` and `$other` (the contact's items,
    /// nil and reported outside `on: {contact: …}` handlers) or a layer id (not checked).
    private static func eventLayer(_ name: String, at f: Field, contact: Bool) -> EventLayer? {
        guard name == "$item" || name == "$other" else { return .id(name) }
        guard contact else {
            f.report("\(name) names a contact's item: it only exists in `on: {contact: …}` handlers")
            return nil
        }
        return name == "$item" ? .item : .other
    }

    /// Reports `animationStop` triggers naming no animation, or one that never stops.
    /// `stopping` holds every animation with an id: `animations:` entries (after `after:`
    /// is resolved), behavior animations and the events' `animate` actions.
    func checkAnimationStops(stopping: [AnimationSpec]) {
        var timings: [String: [AnimationTiming]] = [:]
        for spec in stopping + startedAnimations { if let id = spec.id { timings[id, default: []].append(spec.timing) } }
        for field in stopTriggers {
            guard let id = field.name(in: timings, "animation id"), let found = timings[id] else { continue }
            if found.contains(where: { !$0.endTime.isFinite }) {
                field.report("'\(id)' repeats forever, so it never stops: animationStop would never fire")
            }
        }
    }

    private mutating func set(_ f: Field, contact: Bool) -> EventAction.Kind? {
        guard case .mapping(let raw) = f.node else { f.report("expected a mapping of ID.property: value"); return nil }
        var changes: [BehaviorSetting] = []
        var layerChanges: [(layer: EventLayer, change: LayerChange)] = []
        var ok = true
        for (k, v) in raw {
            guard let key = k.scalar?.string else { continue }
            let vf = f.child(v, key: key)
            guard let dot = key.firstIndex(of: ".") else {
                vf.report("expected ID.property (for example g.magnitude or star.opacity)"); ok = false; continue
            }
            let id = String(key[..<dot]), property = String(key[key.index(after: dot)...])
            if id == "$item" || id == "$other" || (known[id] == nil && dynamics.layerIDs[id] != nil) {
                guard let change = layerChange(id, property, vf, contact: contact) else { ok = false; continue }
                layerChanges.append(change)
                continue
            }
            guard let behavior = known[id] else {
                vf.report("unknown behavior or layer id '\(id)'"
                          + NameSuggestion.hint(for: id, in: Array(known.keys) + Array(dynamics.layerIDs.keys)))
                ok = false; continue
            }
            // The behavior's table gives the kind (an angle may be written "45deg"); a property
            // it has not is reported as `setting` names it, before its value is read. An
            // expression is evaluated when the action runs.
            guard let kind = behavior.settableKind(of: property) else {
                let error = BehaviorPropertyError.unknownProperty(property, known: behavior.settableProperties)
                vf.report("behavior '\(id)': \(error)")
                ok = false; continue
            }
            guard let term = dynamics.term(vf, kind), behavior.accepts(property, term, id: id, at: vf) else {
                ok = false; continue
            }
            changes.append(BehaviorSetting(behavior: id, property: property, term: term))
        }
        return ok ? .set(changes, layers: layerChanges) : nil
    }

    /// `LAYER.key: value`: an animatable key path's value, checked against the layer, or
    /// a property no animation reaches, read as the layer's definition would read it.
    /// Contact items may be any layer, so only the keys every layer has apply to them.
    private mutating func layerChange(_ id: String, _ text: String, _ vf: Field,
                                      contact: Bool) -> (layer: EventLayer, change: LayerChange)? {
        var keyPath = LayerKeyPath.named[text]
        var type: LayerType?
        guard let layer = Self.eventLayer(id, at: vf, contact: contact) else { return nil }
        if case .id = layer, let entry = dynamics.layerIDs[id] {
            type = entry.type
            // A custom property, a cell's key or a named shape's parameter: parsed against the
            // layer, as an animation's key path is (section 7 sets any property).
            if keyPath == nil {
                switch entry.resolve(text) {
                case .failure(.unknown): break
                case let resolved:
                    guard let kp = animations.keyPath(resolved, text, field: vf, entry: entry, layerName: id) else { return nil }
                    keyPath = kp
                }
            }
        }
        func applies(to types: Set<LayerType>?) -> Bool {
            guard let types else { return true }
            guard let type, types.contains(type) else {
                let what = type.map { "\($0 == .layer ? "plain" : $0.rawValue) layer '\(id)'" } ?? "\(id), which may be any layer"
                vf.report("'\(text)' does not apply to \(what)")
                return false
            }
            return true
        }
        if let kp = keyPath {
            let bounds = dynamics.layerIDs[id]?.bounds ?? .zero
            guard applies(to: kp.layerTypes), let read = animations.valueOrExpression(vf, for: kp, in: bounds) else { return nil }
            return (layer, .value(kp, read))
        }
        if let property = LayerProperty(rawValue: text) {
            guard applies(to: property.layerTypes),
                  let source = animations.assets.layer(type: type ?? .layer, setting: text, to: vf) else { return nil }
            return (layer, .property(property, from: source))
        }
        let names = Array(LayerKeyPath.named.keys) + LayerProperty.allCases.map(\.rawValue)
        vf.report("'\(text)' is not a key of layer '\(id)'" + NameSuggestion.hint(for: text, in: names))
        return nil
    }
}

extension DynamicBehavior {
    /// Why `property` does not take `term`, naming the behavior `id`; nil when it does. An
    /// expression's range is checked when it is evaluated (`Simulation.setting`), where its
    /// value is known: zero of the property's kind stands in for it here, to check only what
    /// the value cannot change.
    func problem(setting property: String, to term: Term<BehaviorValue>, id: String) -> String? {
        let value = term.literal ?? (settableKind(of: property) == .point ? .point(.zero) : .number(0))
        do { _ = try setting(property, to: value) } catch {
            if case .outOfRange = error, term.expression != nil { return nil }
            return "behavior '\(id)': \(error)"
        }
        return nil
    }

    /// Whether `property` takes `term` (the error reported at `f` when not).
    func accepts(_ property: String, _ term: Term<BehaviorValue>, id: String, at f: Field) -> Bool {
        guard let problem = problem(setting: property, to: term, id: id) else { return true }
        f.report(problem)
        return false
    }
}
