import KineticGeometry

/// Every mapping of the `dynamics:` block by context name, each key described once (the
/// behaviors' own tables beside their types: `GravityBehavior.properties`, …): what the
/// loader's key lists, `kinetic schema` and the agreement tests read.
public enum DynamicsTable {
    /// The behavior kinds, in the order the docs list them, with their Apple class and doc.
    public static let behaviorKinds: [(name: String, apple: String, doc: String)] = [
        ("gravity", "UIGravityBehavior", "UIGravityBehavior: constant acceleration of its items."),
        ("collision", "UICollisionBehavior", "UICollisionBehavior: items collide with each other and boundaries."),
        ("push", "UIPushBehavior", "UIPushBehavior: a continuous or instantaneous force."),
        ("attachment", "UIAttachmentBehavior", "UIAttachmentBehavior: a spring, rod or joint between items or an anchor."),
        ("snap", "UISnapBehavior", "UISnapBehavior: moves an item to a point with a damped spring."),
        ("itemBehavior", "UIDynamicItemBehavior", "UIDynamicItemBehavior: elasticity, friction, density, resistance of items."),
        ("field", "UIFieldBehavior", "UIFieldBehavior: a field acting on items in a region."),
    ]

    /// The `dynamics:` mapping itself, read by the scene loader.
    public static let dynamics: [DynamicsProperty<Void>] = [
        .described("referenceBounds", "UIDynamicAnimator.referenceView.bounds", .rect, range: DynamicsLimits.coordinate,
                   doc: "The reference view's bounds (default: the scene's)."),
        .described("stepsPerSecond", nil, .integer, range: ValueRange(1, 100_000, reason: "a step count Kinetic can afford"),
                   default: .number(240), doc: "Fixed simulation steps per second."),
        .described("debug", nil, .bool, default: .bool(false), doc: "Overlays bodies, joints, boundaries and field arrows."),
        .described("items", nil, .mappingsByLayerID("dynamicItem"), doc: "Per-item settings by layer id."),
        .described("behaviors", "UIDynamicAnimator.behaviors", .mappings("behavior"), doc: "The behaviors, as `- KIND: {…}`."),
    ]

    /// An item's settings (`dynamics.items.ID`), read by the scene loader.
    public static let dynamicItem: [DynamicsProperty<Void>] = [
        .described("collisionBoundsType", "UIDynamicItem.collisionBoundsType", .choice(["rectangle", "ellipse", "path"]),
                   default: .string("rectangle"), doc: "The item's body shape."),
        .described("collisionBoundingPath", "UIDynamicItem.collisionBoundingPath", .path,
                   doc: "A convex body in item coordinates (collisionBoundsType: path)."),
    ]

    /// The keys every behavior has, besides its kind's own.
    public static let behavior: [DynamicsProperty<Void>] = [
        .described("id", nil, .string, doc: "Name for events and `behavior:` animations."),
        .described("begin", nil, .number, range: DynamicsLimits.time, default: .number(0), doc: "Active from this time, in seconds."),
        .described("end", nil, .number, range: DynamicsLimits.time, doc: "Active until this time, in seconds."),
    ]

    /// The contexts: `dynamics`, `dynamicItem`, `behavior`, each behavior kind, `boundary`
    /// and `region`, their keys in the order the docs list them.
    public static let contexts: [String: [DynamicsProperty<Void>]] = [
        "dynamics": dynamics, "dynamicItem": dynamicItem, "behavior": behavior,
        "gravity": GravityBehavior.properties.map(\.described),
        "collision": CollisionBehavior.properties.map(\.described),
        "boundary": CollisionBoundary.properties.map(\.described),
        "push": PushBehavior.properties.map(\.described),
        "attachment": AttachmentBehavior.properties.map(\.described),
        "snap": SnapBehavior.properties.map(\.described),
        "itemBehavior": DynamicItemBehavior.properties.map(\.described),
        "field": FieldBehavior.properties.map(\.described),
        "region": FieldBehavior.Region.properties.map(\.described),
    ]

    /// The keys of one context, in doc order (empty for an unknown context).
    public static func keys(of context: String) -> [String] {
        (contexts[context] ?? []).map(\.name)
    }
}
