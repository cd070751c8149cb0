import KineticGeometry

/// A layer key an event's `set:` can change but no animation can (section 7 sets any
/// property; section 5 animates only some): an entry of `LayerSchema` with a `copy`.
/// Its new value is read, with the checks a layer definition gets, into a layer of the
/// target's type, and copied whole from there.
public struct LayerProperty: Hashable, Sendable {
    public let key: LayerKey

    public init?(rawValue: String, schema: LayerSchema = .standard) {
        guard let spec = schema[rawValue], spec.copy != nil else { return nil }
        key = LayerKey(spec)
    }

    public var rawValue: String { key.name }

    /// `doubleSided`, which the timeline looks for (a layer may turn single-sided later).
    public static let doubleSided: LayerProperty = {
        guard let p = LayerProperty(rawValue: "doubleSided") else { preconditionFailure("LayerSchema has no doubleSided") }
        return p
    }()

    /// Every such property of the standard schema, in table order.
    public static var allCases: [LayerProperty] {
        LayerSchema.standard.entries.compactMap { $0.copy == nil ? nil : LayerProperty(rawValue: $0.name) }
    }

    /// The layer types the property applies to; nil for every type.
    public var layerTypes: Set<LayerType>? { key.spec.layerTypes }

    /// Gives `target` the property's value in `source` (a layer of a type it applies to).
    public func copy(from source: Layer, to target: inout Layer) {
        key.spec.copy?(source, &target)
    }
}

/// One change an event's `set:` makes to a layer.
public enum LayerSetting: Sendable {
    /// An animatable key path's value (the value from then on, over its animations).
    case value(LayerKeyPath, AnimatableValue)
    /// A property no animation reaches, copied from a layer read with its new value.
    case property(LayerProperty, from: Layer)
}

extension Layer {
    /// Makes the change.
    public mutating func apply(_ setting: LayerSetting) {
        switch setting {
        case .value(let keyPath, let value): setValue(value, at: keyPath)
        case .property(let property, let source): property.copy(from: source, to: &self)
        }
    }
}
