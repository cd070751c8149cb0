/// A UIKit Dynamics behavior of a built scene, written `{KIND: {…}}` as in a scene file.
/// Any key the format has for the behavior is a chained setter by its name:
/// `GravityBehavior(items: ["box"]).angle(45).magnitude(5)`.
public protocol BehaviorElement: SceneElement {
    /// The behavior's key in the scene file (`gravity`, `collision`, …).
    static var kind: String { get }
}

extension BehaviorElement {
    /// The behavior as the scene file's one-key mapping.
    var behaviorValue: SceneValue { .mapping([(Self.kind, value)]) }
}

/// `UIGravityBehavior`: a constant acceleration on `items`.
public struct GravityBehavior: BehaviorElement {
    public static let kind = "gravity"
    public var settings: [(String, SceneValue)]
    public init(items: [String]) { settings = [("items", .list(items.map(SceneValue.string)))] }
}

/// `UICollisionBehavior`: `items` collide with each other and the boundaries.
public struct CollisionBehavior: BehaviorElement {
    public static let kind = "collision"
    public var settings: [(String, SceneValue)]
    public init(items: [String]) { settings = [("items", .list(items.map(SceneValue.string)))] }
}

/// `UIPushBehavior`: a force or impulse on `items`.
public struct PushBehavior: BehaviorElement {
    public static let kind = "push"
    public var settings: [(String, SceneValue)]
    public init(items: [String]) { settings = [("items", .list(items.map(SceneValue.string)))] }
}

/// `UISnapBehavior`: `item` springs to a point.
public struct SnapBehavior: BehaviorElement {
    public static let kind = "snap"
    public var settings: [(String, SceneValue)]
    public init(item: String) { settings = [("item", .string(item))] }
}

/// `UIDynamicItemBehavior`: elasticity, friction, density, resistance of `items`.
public struct DynamicItemBehavior: BehaviorElement {
    public static let kind = "itemBehavior"
    public var settings: [(String, SceneValue)]
    public init(items: [String]) { settings = [("items", .list(items.map(SceneValue.string)))] }
}
