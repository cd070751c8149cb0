import KineticGeometry

/// An animatable key of a layer (`LayerSchema`), compared by name.
public struct LayerKey: Hashable, Sendable, CustomStringConvertible {
    public let spec: PropertySpec<Layer>

    public init(_ spec: PropertySpec<Layer>) { self.spec = spec }

    public var name: String { spec.name }
    public var description: String { spec.name }
    public static func == (a: LayerKey, b: LayerKey) -> Bool { a.spec.name == b.spec.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(spec.name) }
}

/// An animatable key path of section 5, parsed once at load time: a key of the layer
/// schema (sub-paths of `transform` read and write the transform's components, as Core
/// Animation's `transform.rotation.z` does), a custom property, a named shape's
/// parameter or an emitter cell's key. What each key is lives in `LayerSchema`.
public enum LayerKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// A key of `LayerSchema`.
    case key(LayerKey)
    /// A custom `properties` key.
    case property(String)
    /// `path.PARAM`: a parameter of a named shape, with the parameter's kind.
    case pathParameter(String, kind: AnimatableValue.Kind)
    /// `emitterCells.NAME.KEY` (`names` follows nested `emitterCells.NAME` steps).
    case emitterCell(names: [String], key: EmitterCellKey)

    /// Key paths by their scene-file spelling (custom properties excluded): the
    /// animatable keys of `LayerSchema`.
    public static let named: [String: LayerKeyPath] = named(in: .standard)

    /// The animatable key paths of a schema by name and alias.
    public static func named(in schema: LayerSchema) -> [String: LayerKeyPath] {
        var result: [String: LayerKeyPath] = [:]
        for name in schema.animatableNames {
            if let spec = schema[name] { result[name] = .key(LayerKey(spec)) }
        }
        return result
    }

    /// Parses any key path a layer may have: a schema key, `emitterCells.NAME.KEY`
    /// (custom properties and named-shape parameters need the layer, so are left out).
    public static func parsing(_ text: String) -> LayerKeyPath? {
        named[text] ?? emitterCell(parsing: text)
    }

    /// Parses `emitterCells.NAME.KEY` (or `emitterCells.A.emitterCells.B.KEY`); nil when
    /// the text is not of that form.
    public static func emitterCell(parsing text: String) -> LayerKeyPath? {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts.count % 2 == 1, let key = EmitterCellKey(rawValue: parts.removeLast()) else { return nil }
        var names: [String] = []
        while !parts.isEmpty {
            guard parts[0] == "emitterCells", !parts[1].isEmpty else { return nil }
            names.append(parts[1])
            parts.removeFirst(2)
        }
        return .emitterCell(names: names, key: key)
    }

    /// The key path as the scene file writes it.
    public var description: String {
        switch self {
        case .key(let k): k.name
        case .property(let name): name
        case .pathParameter(let name, _): "path.\(name)"
        case .emitterCell(let names, let key): names.map { "emitterCells.\($0)." }.joined() + key.rawValue
        }
    }

    /// The schema entry of a layer key.
    public var spec: PropertySpec<Layer>? { if case .key(let k) = self { k.spec } else { nil } }

    /// The kind of value the key path carries.
    public var valueKind: AnimatableValue.Kind {
        switch self {
        case .key(let k): k.spec.valueKind ?? .number
        case .property: .number
        case .pathParameter(_, let kind): kind
        case .emitterCell(_, let key): key.valueKind
        }
    }

    /// The layer types the key path applies to; nil for every type.
    public var layerTypes: Set<LayerType>? {
        switch self {
        case .key(let k): k.spec.layerTypes
        case .property: nil
        case .pathParameter: [.shape]
        case .emitterCell: [.emitter]
        }
    }

    /// The numbers the key path allows; nil for any.
    public var range: ValueRange? {
        switch self {
        case .key(let k): k.spec.range
        case .emitterCell(_, let key): key.spec.range
        case .property, .pathParameter: nil
        }
    }

    /// What is wrong with a value for the key path (out of its range); nil when nothing.
    public func problem(with value: AnimatableValue) -> String? {
        switch self {
        case .key(let k): k.spec.problem(with: value)
        case .emitterCell(_, let key): key.spec.problem(with: value)
        case .property, .pathParameter: nil
        }
    }

    /// The kind of value the scene file writes for the key path: what reads it.
    public var propertyKind: PropertyKind {
        switch self {
        case .key(let k): k.spec.kind
        case .emitterCell(_, let key): key.spec.kind
        case .property: .number
        case .pathParameter(_, let kind): kind == .point ? .point : kind == .size ? .size : .number
        }
    }

    /// Whether number values are angles (accept `"45deg"`).
    public var isAngle: Bool {
        switch self {
        case .key(let k): k.spec.kind == .angle
        case .emitterCell(_, let key): key.isAngle
        case .property, .pathParameter: false
        }
    }

    /// A key of the standard schema, for the code that names one (a trap on a misspelling
    /// here is a programming error, which every test run meets).
    static func schema(_ name: String) -> LayerKeyPath {
        guard let kp = named[name] else { preconditionFailure("'\(name)' is not an animatable key of LayerSchema") }
        return kp
    }

    // The keys the loader and the runtime name in code.
    public static let position = schema("position"), positionX = schema("position.x"), positionY = schema("position.y")
    public static let bounds = schema("bounds"), boundsSize = schema("bounds.size")
    public static let boundsWidth = schema("bounds.size.width"), boundsHeight = schema("bounds.size.height")
    public static let anchorPoint = schema("anchorPoint"), opacity = schema("opacity"), zPosition = schema("zPosition")
    public static let transform = schema("transform"), sublayerTransform = schema("sublayerTransform")
    public static let transformRotationX = schema("transform.rotation.x")
    public static let transformRotationY = schema("transform.rotation.y")
    public static let transformRotationZ = schema("transform.rotation.z")
    public static let transformScale = schema("transform.scale")
    public static let transformScaleX = schema("transform.scale.x"), transformScaleY = schema("transform.scale.y")
    public static let transformTranslationX = schema("transform.translation.x")
    public static let transformTranslationY = schema("transform.translation.y")
    public static let transformTranslationZ = schema("transform.translation.z")
    public static let path = schema("path"), locations = schema("locations"), contents = schema("contents")
    public static let instanceTransform = schema("instanceTransform"), instanceCount = schema("instanceCount")
}

extension Layer {
    /// The value at `keyPath`, or nil when the layer has no such property (a shape key
    /// on a plain layer, an undeclared custom property).
    public func value(at keyPath: LayerKeyPath) -> AnimatableValue? {
        switch keyPath {
        case .key(let k): k.spec.get?(self)
        case .property(let name): properties[name].map { .number($0) }
        case .pathParameter(let name, _): shape?.namedShape?.parameters[name]
        case .emitterCell(let names, let key): emitter?.cell(at: names)?.value(for: key)
        }
    }

    /// Sets the value at `keyPath`; a value of the wrong kind is ignored (the loader
    /// has checked kinds before any frame is computed).
    public mutating func setValue(_ value: AnimatableValue, at keyPath: LayerKeyPath) {
        switch (keyPath, value) {
        case (.key(let k), _): k.spec.set?(&self, value)
        case (.property(let name), .number(let v)): properties[name] = v
        case (.pathParameter(let name, let kind), let v) where v.kind == kind: shape?.namedShape?.parameters[name] = v
        case (.emitterCell(let names, let key), _): emitter?.modifyCell(at: names) { $0.setValue(value, for: key) }
        default: break
        }
    }

    /// CAGradientLayer's spacing when `locations` is nil.
    public static func evenLocations(_ count: Int) -> [Double] {
        count <= 1 ? [0] : (0..<count).map { Double($0) / Double(count - 1) }
    }
}
