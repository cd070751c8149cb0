import KineticDynamics
import KineticGeometry
import KineticLayers

/// An entry of `events:` (section 7): when it fires and what it does.
public struct SceneEvent: Sendable {
    public enum Trigger: Sendable {
        /// `at: T` seconds.
        case time(Double)
        /// `on: {contact: began|ended, …}`: every contact start (or end) that matches.
        case contact(ContactEvent.Phase, ContactFilter)
        /// `on: {animationStop: ID}`: each time an animation with this id stops
        /// (animationDidStop:), from `animations:`, a behavior animation or an event's
        /// `animate`.
        case animationStop(String)
    }

    /// Which contacts an `on: {contact: …}` handler hears.
    public enum ContactFilter: Sendable {
        /// Contacts with the boundary of this identifier (nil: any boundary).
        case boundary(String?)
        /// Contacts between these items: both when two are listed, one when one is.
        case items([String])
        /// Every contact.
        case any
    }

    public var trigger: Trigger
    /// In file order; a time event's keys run in the order removeAllBehaviors,
    /// removeBehaviors, addBehaviors, set, removeLayers.
    public var actions: [EventAction]

    public init(trigger: Trigger, actions: [EventAction]) {
        self.trigger = trigger
        self.actions = actions
    }
}

/// A layer an action names: by id, or the items of the contact that fired it.
public enum EventLayer: Hashable, Sendable {
    case id(String)
    /// `$item`
    case item
    /// `$other` (an item; nothing for a boundary contact)
    case other
}

/// One thing an event does, `delay` seconds after it fires.
public struct EventAction: Sendable {
    public enum Kind: Sendable {
        case removeAllBehaviors
        case removeBehaviors([String])
        /// The behaviors, their properties set at every step (`DynamicsSpec.behaviorTerms`),
        /// and where the behaviors and their items were written (a runtime failure is
        /// reported there).
        case addBehaviors([DynamicBehavior], terms: [BehaviorSetting], places: DynamicsPlaces)
        /// `BEHAVIOR.property: value`, and `LAYER.key: value` (the layer's value from then
        /// on, over its animations). A value written with expressions (section 4) is
        /// evaluated once, when the action runs, as a property set in UIKit then.
        case set([BehaviorSetting], layers: [(layer: EventLayer, change: LayerChange)])
        /// Removed layers disappear (hidden) and leave every behavior.
        case removeLayers([EventLayer])
        /// An animation started when the event fires (its `begin` is a delay from then) on
        /// the named layer (`$item`/`$other` for a contact's items).
        case animate(AnimationSpec, layer: EventLayer)
    }

    public var kind: Kind
    public var delay: Double

    public init(_ kind: Kind, delay: Double = 0) {
        self.kind = kind
        self.delay = delay
    }
}

/// One change an event's `set:` makes to a layer: a `LayerSetting` whose value is a term.
public enum LayerChange: Sendable {
    /// An animatable key path's value (the value from then on, over its animations).
    case value(LayerKeyPath, Term<AnimatableValue>)
    /// A property no animation reaches, copied from a layer read with its new value.
    case property(LayerProperty, from: Layer)

    /// The value's expression; nil for a literal or a property.
    public var expression: ExpressionValue? {
        if case .value(_, let term) = self { term.expression } else { nil }
    }
}
