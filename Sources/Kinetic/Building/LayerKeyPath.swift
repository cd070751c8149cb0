/// A layer key path written as a Swift key path: `\.strokeEnd`, `\.transform.rotation.z`.
///
/// `BasicAnimation(\.strokeEnd, of: "ring", from: 0, to: 1, duration: 2)` reads as the
/// string form `BasicAnimation("strokeEnd", …)` does — Core Animation's own `keyPath` —
/// and means the same. Each member is a component of the dotted path; the property model
/// judges the whole path when the scene loads, as it judges a string, so a misspelt one
/// is refused there with its place ("did you mean …"), not at compile time.
@dynamicMemberLookup
public struct LayerKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The components in order: `["transform", "rotation", "z"]`.
    public let components: [String]

    /// The empty path, the root every `\.member` starts from.
    public init() { components = [] }

    private init(components: [String]) { self.components = components }

    /// This path with `member` appended.
    public subscript(dynamicMember member: String) -> LayerKeyPath {
        LayerKeyPath(components: components + [member])
    }

    /// The dotted path, as Core Animation spells it: `"transform.rotation.z"`.
    public var description: String { components.joined(separator: ".") }

    /// The dotted path a Swift key path rooted at `LayerKeyPath` names.
    static func string(_ keyPath: KeyPath<LayerKeyPath, LayerKeyPath>) -> String {
        LayerKeyPath()[keyPath: keyPath].description
    }
}

extension BasicAnimation {
    /// Animates `keyPath` (`\.strokeEnd`, `\.transform.rotation.z`) of `layer`.
    public init(_ keyPath: KeyPath<LayerKeyPath, LayerKeyPath>, of layer: String,
                from: SceneValue, to: SceneValue, duration: Double) {
        self.init(LayerKeyPath.string(keyPath), of: layer, from: from, to: to, duration: duration)
    }
}

extension KeyframeAnimation {
    /// Animates `keyPath` (`\.position`, `\.transform.scale`) of `layer` through `values`.
    public init(_ keyPath: KeyPath<LayerKeyPath, LayerKeyPath>, of layer: String,
                values: [SceneValue], duration: Double) {
        self.init(LayerKeyPath.string(keyPath), of: layer, values: values, duration: duration)
    }
}

extension SpringAnimation {
    /// A spring of `keyPath` (`\.position.y`, `\.transform.scale`) of `layer`.
    public init(_ keyPath: KeyPath<LayerKeyPath, LayerKeyPath>, of layer: String, from: SceneValue, to: SceneValue,
                dampingRatio: Double, initialVelocity: Double = 0) {
        self.init(LayerKeyPath.string(keyPath), of: layer, from: from, to: to,
                  dampingRatio: dampingRatio, initialVelocity: initialVelocity)
    }
}
