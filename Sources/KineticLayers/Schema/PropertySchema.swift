import KineticGeometry

/// The values a property takes, as the scene file writes them. The animatable ones map
/// to `AnimatableValue.Kind`; the rest are read by the loader alone (choices, lists of
/// layers, filters…) and described here for the docs and the JSON schema.
public enum PropertyKind: Sendable, Equatable {
    case number
    /// Radians, or degrees written `"45deg"`.
    case angle
    /// A whole number.
    case integer
    case point, size, rect
    /// `[w, h]` or `[x, y, w, h]` (`bounds`).
    case sizeOrRect
    case color, colors, numbers, transform, path, bool
    /// An image asset (a PNG beside the scene).
    case image
    case string
    /// One of these names.
    case choice([String])
    /// A list of these names (`maskedCorners`).
    case names([String])
    /// `[{gaussianBlur: RADIUS}]`.
    case filters
    /// An inline layer (`mask`), a list of layers (`sublayers`).
    case layer, layers
    /// `{NAME: number}` (`properties`).
    case numberMap
    /// A list of emitter cells; a cell's contents (an image or `{path, size, fillColor}`).
    case cells, cellContents
    /// An animation's value of the animated key path's kind; a list of them.
    case value, values
    /// A timing function (a name or a cubic Bézier); a list of them.
    case timingFunction, timingFunctions
    /// A number of times, or `forever`.
    case countOrForever
    /// A mapping the schema describes under this name (`spring`); a list of them.
    case mapping(String), mappings(String)

    /// The kind of value animations and `set:` carry; nil for what only the loader reads.
    public var valueKind: AnimatableValue.Kind? {
        switch self {
        case .number, .angle, .integer: .number
        case .point: .point
        case .size: .size
        case .rect, .sizeOrRect: .rect
        case .color: .color
        case .colors: .colors
        case .numbers: .numbers
        case .transform: .transform
        case .path: .path
        case .bool: .bool
        case .image: .image
        default: nil
        }
    }
}

/// The numbers a property allows, and why: the loader refuses the others with its
/// message, for a literal, an animation value and an event's `set:` alike.
public struct ValueRange: Sendable, Equatable {
    public var lowerBound: Double?
    /// Whether the lower bound itself is excluded (`> 0`).
    public var excludesLowerBound = false
    public var upperBound: Double?
    /// Why the range is what it is, for the docs.
    public var reason: String

    public init(_ lowerBound: Double?, _ upperBound: Double?, excludesLowerBound: Bool = false, reason: String) {
        self.lowerBound = lowerBound; self.upperBound = upperBound
        self.excludesLowerBound = excludesLowerBound; self.reason = reason
    }

    public static func unit(_ reason: String) -> ValueRange { ValueRange(0, 1, reason: reason) }
    public static func nonNegative(_ reason: String) -> ValueRange { ValueRange(0, nil, reason: reason) }
    public static func positive(_ reason: String, atMost upper: Double? = nil) -> ValueRange {
        ValueRange(0, upper, excludesLowerBound: true, reason: reason)
    }

    public func contains(_ v: Double) -> Bool {
        if let lowerBound, excludesLowerBound ? !(v > lowerBound) : !(v >= lowerBound) { return false }
        if let upperBound, !(v <= upperBound) { return false }
        return true
    }

    /// What is wrong with `v`, as the loader says it (`name` leads a message about the
    /// upper bound); nil when it is in range.
    public func problem(with v: Double, name: String? = nil) -> String? {
        guard !contains(v) else { return nil }
        switch (lowerBound, upperBound) {
        case (0?, nil) where !excludesLowerBound: return "must not be negative, found \(Self.format(v))"
        case (0?, _) where excludesLowerBound && v <= 0: return "must be greater than 0, found \(Self.format(v))"
        case (_?, let upper?) where !excludesLowerBound:
            return "\(Self.format(v)) is out of range \(Self.format(lowerBound ?? 0))…\(Self.format(upper))"
        case (_, let upper?): return (name.map { "\($0) " } ?? "") + "must be at most \(Self.format(upper)), found \(Self.format(v))"
        default: return "must be greater than \(Self.format(lowerBound ?? 0)), found \(Self.format(v))"
        }
    }

    /// `v` as messages print it: whole numbers without a fraction.
    public static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// The range as the docs write it (`0…1`, `≥ 0`, `> 0, ≤ 10000`).
    public var text: String {
        switch (lowerBound, upperBound) {
        case (let lo?, let hi?) where !excludesLowerBound: "\(Self.format(lo))…\(Self.format(hi))"
        case (let lo?, let hi?): "> \(Self.format(lo)), ≤ \(Self.format(hi))"
        case (let lo?, nil): excludesLowerBound ? "> \(Self.format(lo))" : "≥ \(Self.format(lo))"
        case (nil, let hi?): "≤ \(Self.format(hi))"
        case (nil, nil): "any"
        }
    }
}

/// A default value as the docs and the JSON schema print it.
public enum DocValue: Sendable, Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case numbers([Double])
    case strings([String])

    /// As YAML writes it, for the key reference.
    public var text: String {
        switch self {
        case .number(let v): ValueRange.format(v)
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .numbers(let v): "[" + v.map(ValueRange.format).joined(separator: ", ") + "]"
        case .strings(let s): "[" + s.joined(separator: ", ") + "]"
        }
    }
}

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
