/// Something a built scene lists — a layer, an animation, a behavior — as the keys of
/// its mapping in the scene file. Chained setters return a changed copy: every key is a
/// setter by its own name, so the property model is the one list of names.
@dynamicMemberLookup
public protocol SceneElement: Sendable {
    /// The element's keys and values in the order they are written.
    var settings: [(String, SceneValue)] { get set }
}

extension SceneElement {
    /// A copy with `key` set to `value`; any key the scene format has for this element
    /// (docs/scene-format.md), checked when the scene is loaded.
    public func setting(_ key: String, _ value: SceneValue) -> Self {
        var copy = self
        if let i = copy.settings.firstIndex(where: { $0.0 == key }) {
            copy.settings[i].1 = value
        } else {
            copy.settings.append((key, value))
        }
        return copy
    }

    /// `layer.opacity(0.5)`, `layer.frame([0, 0, 80, 80])`: a copy with that key set.
    public subscript(dynamicMember key: String) -> (SceneValue) -> Self {
        { value in setting(key, value) }
    }

    /// `layer.opacity(alpha)`: a copy with that key set to a Swift value.
    public subscript<Value: SceneValueConvertible>(dynamicMember key: String) -> (Value) -> Self {
        { value in setting(key, value.sceneValue) }
    }

    /// The element as a scene-file mapping.
    var value: SceneValue { .mapping(settings) }
}
