import KineticGeometry

/// One property of an object (a layer, an emitter cell): everything the loader, the
/// runtime, `inspect`, `kinetic schema` and the docs know about it, written once.
public struct PropertySpec<Object>: Sendable {
    /// Apple's name, as the scene file and key paths spell it.
    public let name: String
    /// Other spellings of the same key path (`transform.rotation` for `.z`).
    public let aliases: [String]
    public let kind: PropertyKind
    /// The numbers it allows (for a list of numbers, each of them); nil for any.
    public let range: ValueRange?
    public let defaultValue: DocValue?
    /// Whether the file may write `~` (null) for it: a shape's fill and stroke colors,
    /// where null draws none.
    public let allowsNone: Bool
    /// Whether animations (and `set:` as an animatable value) reach it.
    public let isAnimatable: Bool
    /// Whether a live expression (`"= …"`) may drive it; constant ones are folded at load.
    public let allowsExpressions: Bool
    /// The layer types that have it; nil for every type.
    public let layerTypes: Set<LayerType>?
    /// A key of the object's mapping in the file; false for key paths only
    /// (`position.x`, `transform.rotation.z`).
    public let isFileKey: Bool
    /// One line for the docs.
    public let doc: String
    /// Whether CATransformLayer ignores it ("the CALayer properties that are rendered by
    /// a layer are ignored", and those of 2D image processing): the loader refuses it on
    /// a `transformLayer`.
    public private(set) var isIgnoredByTransformLayer = false
    /// Whether the object's decoder reads it itself (layout, assets, paths, nullable
    /// colors, values checked against other keys) instead of the generic value reader.
    public private(set) var isReadByItsDecoder = false
    /// Sets the property from its decoded file value: how the loader reads a key no
    /// animation reaches, by its kind (`FileValue`); nil for values (`set`) and for keys
    /// the decoder reads itself.
    public private(set) var assign: (@Sendable (inout Object, FileValue) -> Void)?
    /// Whether a state golden records it for an object: the keys state goldens were
    /// recorded with, so that a key `inspect` learns does not change every state.jsonl.
    public private(set) var isRecordedInState: @Sendable (Object) -> Bool = { _ in true }
    /// The presentation value; nil when the object has no such value.
    public let get: (@Sendable (Object) -> AnimatableValue?)?
    /// Sets the value; a value of another kind is ignored (the loader checked kinds).
    public let set: (@Sendable (inout Object, AnimatableValue) -> Void)?
    /// Copies the property from another object: what an event's `set:` of a property no
    /// animation reaches does (the new value read into a scratch object first).
    public let copy: (@Sendable (Object, inout Object) -> Void)?

    public init(_ name: String, _ kind: PropertyKind, range: ValueRange? = nil, default defaultValue: DocValue? = nil,
                animatable: Bool = false, expressions: Bool = false, types: Set<LayerType>? = nil,
                fileKey: Bool = true, aliases: [String] = [], allowsNone: Bool = false, doc: String,
                get: (@Sendable (Object) -> AnimatableValue?)? = nil,
                set: (@Sendable (inout Object, AnimatableValue) -> Void)? = nil,
                copy: (@Sendable (Object, inout Object) -> Void)? = nil) {
        self.name = name; self.kind = kind; self.range = range; self.defaultValue = defaultValue
        self.isAnimatable = animatable; self.allowsExpressions = expressions; self.layerTypes = types
        self.isFileKey = fileKey; self.aliases = aliases; self.allowsNone = allowsNone; self.doc = doc
        self.get = get; self.set = set; self.copy = copy
    }

    /// The kind of value animations carry (number for angles and integers).
    public var valueKind: AnimatableValue.Kind? { kind.valueKind }

    /// Whether the layer type has the property.
    public func applies(to type: LayerType) -> Bool { layerTypes?.contains(type) ?? true }

    /// The problem with a value of the property's kind, checked against `range` (each
    /// number of a list); nil when it is allowed.
    public func problem(with value: AnimatableValue) -> String? {
        guard let range else { return nil }
        switch value {
        case .number(let v): return range.problem(with: v, name: name)
        case .numbers(let list): return list.lazy.compactMap { range.problem(with: $0, name: self.name) }.first
        case .size(let s): return range.contains(s.width) && range.contains(s.height) ? nil : "a size must not be negative"
        // The written width and height: `Rect.width` is their magnitude, which is never negative.
        case .rect(let r):
            return range.contains(r.size.width) && range.contains(r.size.height) ? nil : "width and height must not be negative"
        default: return nil
        }
    }
}

extension PropertySpec {
    /// The entry, ignored by CATransformLayer.
    func ignoredByTransformLayer() -> PropertySpec {
        var spec = self
        spec.isIgnoredByTransformLayer = true
        return spec
    }

    /// The entry, read by its object's decoder rather than the generic value reader.
    func readByItsDecoder() -> PropertySpec {
        var spec = self
        spec.isReadByItsDecoder = true
        return spec
    }

    /// The entry, read by its kind (`FileValue`) through `assign`.
    func assigning(_ assign: @escaping @Sendable (inout Object, FileValue) -> Void) -> PropertySpec {
        var spec = self
        spec.assign = assign
        return spec
    }

    /// The entry, recorded by a state golden only for objects where `keeps` holds.
    func recordedInState(when keeps: @escaping @Sendable (Object) -> Bool) -> PropertySpec {
        var spec = self
        spec.isRecordedInState = keeps
        return spec
    }
}

extension PropertySpec {
    /// A property read and written through a key path of the object.
    static func stored(_ name: String, _ kind: PropertyKind, _ keyPath: WritableKeyPath<Object, Double> & Sendable,
                       range: ValueRange? = nil, default defaultValue: Double? = nil, animatable: Bool = true,
                       expressions: Bool = true, types: Set<LayerType>? = nil, doc: String) -> PropertySpec {
        PropertySpec(name, kind, range: range, default: defaultValue.map { .number($0) }, animatable: animatable,
                     expressions: expressions, types: types, doc: doc,
                     get: { .number($0[keyPath: keyPath]) },
                     set: { o, v in if case .number(let n) = v { o[keyPath: keyPath] = n } })
    }

    /// A property of another kind, through a key path and the value's case.
    static func stored<T: Sendable>(_ name: String, _ kind: PropertyKind, _ keyPath: WritableKeyPath<Object, T> & Sendable,
                                    wrap: @escaping @Sendable (T) -> AnimatableValue,
                                    unwrap: @escaping @Sendable (AnimatableValue) -> T?,
                                    range: ValueRange? = nil, default defaultValue: DocValue? = nil,
                                    animatable: Bool = true, expressions: Bool = false, types: Set<LayerType>? = nil,
                                    doc: String) -> PropertySpec {
        PropertySpec(name, kind, range: range, default: defaultValue, animatable: animatable,
                     expressions: expressions, types: types, doc: doc,
                     get: { wrap($0[keyPath: keyPath]) },
                     set: { o, v in if let t = unwrap(v) { o[keyPath: keyPath] = t } })
    }

    /// A property no animation reaches, read by its kind (`FileValue`) into `keyPath` and
    /// copied whole by an event's `set:`.
    private static func assigned<T: Sendable>(_ name: String, _ kind: PropertyKind, _ keyPath: WritableKeyPath<Object, T> & Sendable,
                                             default defaultValue: DocValue?, types: Set<LayerType>?, doc: String,
                                             _ decode: @escaping @Sendable (FileValue) -> T?) -> PropertySpec {
        var spec = copied(name, kind, keyPath, default: defaultValue, types: types, doc: doc)
        spec.assign = { o, v in if let t = decode(v) { o[keyPath: keyPath] = t } }
        return spec
    }

    /// A boolean property (`masksToBounds`).
    static func flag(_ name: String, _ keyPath: WritableKeyPath<Object, Bool> & Sendable, default defaultValue: Bool,
                     types: Set<LayerType>? = nil, doc: String) -> PropertySpec {
        assigned(name, .bool, keyPath, default: .bool(defaultValue), types: types, doc: doc) {
            if case .bool(let b) = $0 { b } else { nil }
        }
    }

    /// One of an enum's raw values (`cornerCurve`).
    static func option<E: CaseIterable & RawRepresentable & Sendable>(
        _ name: String, _ keyPath: WritableKeyPath<Object, E> & Sendable, default defaultValue: E,
        types: Set<LayerType>? = nil, doc: String
    ) -> PropertySpec where E.RawValue == String {
        assigned(name, .choice(E.allCases.map(\.rawValue)), keyPath, default: .string(defaultValue.rawValue), types: types,
                 doc: doc) { if case .name(let n) = $0 { E(rawValue: n) } else { nil } }
    }

    /// An optional choice, nil by default (`compositingFilter`).
    static func option<E: CaseIterable & RawRepresentable & Sendable>(
        _ name: String, _ keyPath: WritableKeyPath<Object, E?> & Sendable, types: Set<LayerType>? = nil, doc: String
    ) -> PropertySpec where E.RawValue == String {
        assigned(name, .choice(E.allCases.map(\.rawValue)), keyPath, default: nil, types: types,
                 doc: doc) { if case .name(let n) = $0 { E(rawValue: n) } else { nil } }
    }

    /// An option set as a list of Apple's names of its members (`maskedCorners`).
    static func optionSet<S: OptionSet & Sendable>(_ name: String, _ keyPath: WritableKeyPath<Object, S> & Sendable,
                                                  names: [(String, S)], default defaultValue: S,
                                                  types: Set<LayerType>? = nil, doc: String) -> PropertySpec {
        assigned(name, .names(names.map(\.0)), keyPath,
                 default: .strings(names.filter { defaultValue.isSuperset(of: $0.1) }.map(\.0)), types: types, doc: doc) { v in
            guard case .names(let written) = v else { return nil }
            return written.reduce(into: S()) { set, n in if let m = names.first(where: { $0.0 == n }) { set.formUnion(m.1) } }
        }
    }

    /// A plain number no animation reaches (`minificationFilterBias`).
    static func plainNumber(_ name: String, _ keyPath: WritableKeyPath<Object, Double> & Sendable, default defaultValue: Double,
                            types: Set<LayerType>? = nil, doc: String) -> PropertySpec {
        assigned(name, .number, keyPath, default: .number(defaultValue), types: types, doc: doc) {
            if case .number(let n) = $0 { n } else { nil }
        }
    }

    /// A list of filters (`filters`).
    static func filters(_ name: String, _ keyPath: WritableKeyPath<Object, [LayerFilter]> & Sendable, doc: String) -> PropertySpec {
        assigned(name, .filters, keyPath, default: nil, types: nil, doc: doc) { if case .filters(let f) = $0 { f } else { nil } }
    }

    /// An Apple name accepted and checked by its kind that changes nothing Kinetic draws.
    static func accepted(_ name: String, _ kind: PropertyKind, default defaultValue: DocValue, doc: String) -> PropertySpec {
        var spec = PropertySpec(name, kind, default: defaultValue, doc: doc)
        spec.assign = { _, _ in }
        return spec
    }

    /// A property no animation reaches, copied whole by an event's `set:`.
    static func copied<T: Sendable>(_ name: String, _ kind: PropertyKind, _ keyPath: WritableKeyPath<Object, T> & Sendable,
                                    default defaultValue: DocValue? = nil, types: Set<LayerType>? = nil,
                                    doc: String) -> PropertySpec {
        PropertySpec(name, kind, default: defaultValue, types: types, doc: doc,
                     copy: { source, target in target[keyPath: keyPath] = source[keyPath: keyPath] })
    }
}

/// The unwrapping of each value kind, for `PropertySpec.stored`.
extension AnimatableValue {
    public var numberValue: Double? { if case .number(let v) = self { v } else { nil } }
    public var pointValue: Point? { if case .point(let v) = self { v } else { nil } }
    public var sizeValue: Size? { if case .size(let v) = self { v } else { nil } }
    public var colorValue: Color? { if case .color(let v) = self { v } else { nil } }
    public var transformValue: Transform3D? { if case .transform(let v) = self { v } else { nil } }
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
}
