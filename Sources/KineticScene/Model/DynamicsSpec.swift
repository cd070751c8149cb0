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
    /// The behaviors' properties written as expressions, set at every step in order (with
    /// a direction's literal keys: `DynamicsDecoder.terms`).
    public var behaviorTerms: [BehaviorSetting] = []
    /// Where the items and behaviors were written: a runtime failure (a blow-up, an
    /// unsolvable joint) is reported there.
    public var places = DynamicsPlaces()

    public init() {}

    /// The layer ids behaviors name, in order of first mention: the dynamic items.
    public var itemIDs: [String] {
        var seen = Set<String>(), ids: [String] = []
        for id in behaviors.flatMap(\.itemIDs) where seen.insert(id).inserted { ids.append(id) }
        return ids
    }
}

/// Where each dynamic item's layer is defined, by layer id, and each behavior, by
/// behavior id (in `dynamics.behaviors`, or in the event that adds it).
public struct DynamicsPlaces: Sendable {
    public var items: [String: SourcePlace] = [:]
    public var behaviors: [String: SourcePlace] = [:]

    public init() {}

    /// Where the item or behavior `error` is about was written, and the error's message
    /// to follow that place; nil when it is about neither or was not written in the file
    /// (a scene built in code).
    public func place(of error: DynamicsError) -> (place: SourcePlace, message: String)? {
        guard let subject = error.subject(isItem: { items[$0] != nil }, isBehavior: { behaviors[$0] != nil })
        else { return nil }
        let place: SourcePlace?
        switch subject {
        case .item(let id): place = items[id]
        case .behavior(let id): place = behaviors[id]
        }
        return place.map { ($0, error.detail(about: subject)) }
    }
}

/// Where a value was written: its location and key path, as a `SceneProblem` starts.
public struct SourcePlace: Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var keyPath: String

    public init(location: SourceLocation, keyPath: String) {
        self.location = location; self.keyPath = keyPath
    }

    /// `FILE:LINE:COLUMN: KEY.PATH`, the start of a located message.
    public var description: String { "\(location.file):\(location.line):\(location.column): \(keyPath)" }
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
    /// Where the animation was written: a value it drives out of range is reported there.
    public var place: SourcePlace? = nil
}

extension BehaviorValue {
    /// A number, point or flag (a value read, an evaluated expression, an animated value)
    /// as a behavior property takes it; nil for other kinds.
    init?(_ value: AnimatableValue) {
        switch value {
        case .number(let v): self = .number(v)
        case .point(let p): self = .point(p)
        case .bool(let b): self = .bool(b)
        default: return nil
        }
    }
}
