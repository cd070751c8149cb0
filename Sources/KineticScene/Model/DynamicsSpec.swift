import KineticDynamics
import KineticGeometry

/// The `dynamics:` block of section 6: the physics of the scene, in KineticDynamics'
/// vocabulary. Items are the layers the behaviors name.
public struct DynamicsSpec: Sendable {
    /// nil = the scene bounds.
    public var referenceBounds: Rect?
    public var stepsPerSecond = 240
    /// Whether the debug overlay was asked for (read, not drawn yet).
    public var debug = false
    /// Per-item collision bounds (`items:`), by layer id; rectangle otherwise.
    public var collisionBounds: [String: CollisionBoundsType] = [:]
    /// Behaviors in file order; those without an `id` get their key path (`dynamics.behaviors[2]`).
    public var behaviors: [DynamicBehavior] = []
    /// The behaviors' properties written as expressions, set at every step.
    public var behaviorExpressions: [BehaviorExpression] = []

    public init() {}

    /// The layer ids behaviors name, in order of first mention: the dynamic items.
    public var itemIDs: [String] {
        var seen = Set<String>(), ids: [String] = []
        for id in behaviors.flatMap(\.itemIDs) where seen.insert(id).inserted { ids.append(id) }
        return ids
    }
}

/// An animation of a behavior's property (`behavior: ID` in `animations:`): UIKit code that
/// changes, say, an attachment's `anchorPoint` every frame of a pan gesture. Applied at
/// every simulation step.
public struct BehaviorAnimation: Sendable {
    public var behavior: String
    public var property: String
    /// The values and timing, as for a layer; its layer and key path only carry the kind
    /// of value (`position` for points, `zPosition` for numbers).
    public var spec: AnimationSpec
}

extension BehaviorValue {
    /// A number or point (an evaluated expression, an animated value) as a behavior
    /// property takes it; nil for other kinds.
    init?(_ value: AnimatableValue) {
        switch value {
        case .number(let v): self = .number(v)
        case .point(let p): self = .point(p)
        default: return nil
        }
    }
}
