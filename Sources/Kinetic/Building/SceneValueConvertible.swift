/// A Swift value a scene file can hold, so a builder's setter takes a variable as it
/// takes a literal: `let end = 0.25; ShapeLayer("ring").strokeEnd(end)`.
public protocol SceneValueConvertible: Sendable {
    /// The value as a scene file writes it.
    var sceneValue: SceneValue { get }
}

extension SceneValue: SceneValueConvertible {
    public var sceneValue: SceneValue { self }
}

extension Double: SceneValueConvertible {
    public var sceneValue: SceneValue { .number(self) }
}

extension Int: SceneValueConvertible {
    public var sceneValue: SceneValue { .integer(self) }
}

extension String: SceneValueConvertible {
    public var sceneValue: SceneValue { .string(self) }
}

extension Bool: SceneValueConvertible {
    public var sceneValue: SceneValue { .bool(self) }
}

extension Array: SceneValueConvertible where Element: SceneValueConvertible {
    public var sceneValue: SceneValue { .list(map(\.sceneValue)) }
}

extension Dictionary: SceneValueConvertible where Key == String, Value: SceneValueConvertible {
    /// Keys in sorted order: a dictionary has none of its own.
    public var sceneValue: SceneValue { .mapping(keys.sorted().map { ($0, self[$0]?.sceneValue ?? .list([])) }) }
}
