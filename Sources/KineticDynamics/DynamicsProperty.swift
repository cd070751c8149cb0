import KineticGeometry

/// One key of a `dynamics:` mapping (the block, an item, a behavior, a boundary, a region):
/// everything the loader, the behaviors' checks, their setters, `kinetic schema` and the
/// docs know about it, written once. The value kinds, ranges and defaults are the layer
/// table's (`PropertyKind`, `ValueRange`, `DocValue`), so both are described alike.
public struct DynamicsProperty<Object>: Sendable {
    /// The key as written in a scene (UIKit's property name where it has one).
    public let name: String
    /// Apple's name of the property (`UIDynamicItemBehavior.density`), when it has one.
    public let apple: String?
    public let kind: PropertyKind
    /// The numbers it allows (each component of a point or list); nil for any.
    public let range: ValueRange?
    public let defaultValue: DocValue?
    /// Whether it can change while the simulation runs (events' `set:`, `behavior:`
    /// animations, expressions): UIKit's setters.
    public let isSettable: Bool
    /// One line for the docs.
    public let doc: String
    /// Whether the object's decoder reads it itself (the attachment's ends, nested
    /// mappings) rather than the loader reading it by its kind into `assign`.
    public let isReadByItsDecoder: Bool
    /// Whether the object cannot be built without it (`items`, a snap's `snapPoint`).
    public let isRequired: Bool
    /// The keys its value comes from, in the order a decoder looks for them: its name, or
    /// its spellings (the anchor's three), or also the keys it is computed from (a
    /// direction's `magnitude` and `angle`, an offset's `attachmentAnchor`).
    public let writtenAs: [String]
    /// Sets the property from a value of its kind; false for a value of another kind.
    let assign: (@Sendable (inout Object, BehaviorValue) -> Bool)?
    /// The numbers `validate` checks against `range`; nil where the object checks itself.
    let checked: (@Sendable (Object) -> [Double])?
    /// Why the object cannot take a new value (an anchor on an item–item attachment).
    let refusal: (@Sendable (Object) -> String?)?

    init(_ name: String, _ apple: String? = nil, _ kind: PropertyKind, range: ValueRange? = nil,
         default defaultValue: DocValue? = nil, settable: Bool = false, readByItsDecoder: Bool? = nil,
         required: Bool = false, writtenAs: [String]? = nil, doc: String,
         assign: (@Sendable (inout Object, BehaviorValue) -> Bool)? = nil,
         checked: (@Sendable (Object) -> [Double])? = nil, refusal: (@Sendable (Object) -> String?)? = nil) {
        self.name = name; self.apple = apple; self.kind = kind; self.range = range; self.defaultValue = defaultValue
        self.isSettable = settable; self.isReadByItsDecoder = readByItsDecoder ?? (assign == nil); self.doc = doc
        self.isRequired = required; self.writtenAs = writtenAs ?? [name]
        self.assign = assign; self.checked = checked; self.refusal = refusal
    }

    /// The entry without its accessors: what the docs and the JSON Schema read.
    public var described: DynamicsProperty<Void> {
        DynamicsProperty<Void>(name, apple, kind, range: range, default: defaultValue, settable: isSettable,
                               readByItsDecoder: isReadByItsDecoder, required: isRequired, writtenAs: writtenAs, doc: doc)
    }

    /// Sets the property from the scene file's value; false for a value of another kind.
    public func assign(_ value: BehaviorValue, to object: inout Object) -> Bool {
        assign?(&object, value) ?? false
    }

    /// Checks the property's numbers in `object` against `range`; the error's path is the name.
    func check(_ object: Object) throws(DynamicsError) {
        guard let range, let checked else { return }
        for v in checked(object) {
            if let problem = range.boundedProblem(with: v) { throw .invalidValue(path: name, reason: problem) }
        }
    }
}

extension DynamicsProperty {
    /// A key only described here: its object's decoder reads it.
    static func described(_ name: String, _ apple: String? = nil, _ kind: PropertyKind, range: ValueRange? = nil,
                          default defaultValue: DocValue? = nil, settable: Bool = false, doc: String) -> Self {
        Self(name, apple, kind, range: range, default: defaultValue, settable: settable, doc: doc)
    }

    /// A number (or an angle) through a key path; `checked` says whether `validate`
    /// checks it against `range` (not an angle, a view of a checked vector).
    static func number(_ name: String, _ apple: String?, _ keyPath: WritableKeyPath<Object, Double> & Sendable,
                       kind: PropertyKind = .number, range: ValueRange?, default defaultValue: Double? = nil,
                       settable: Bool = true, checked: Bool = true, doc: String) -> Self {
        var read: (@Sendable (Object) -> [Double])?
        if checked { read = { o in [o[keyPath: keyPath]] } }
        return Self(name, apple, kind, range: range, default: defaultValue.map { .number($0) }, settable: settable, doc: doc,
                    assign: assigning(keyPath, \.numberValue), checked: read)
    }

    /// A number that is unset (nil) until written: an item behavior's material, a rest length.
    static func number(_ name: String, _ apple: String?, _ keyPath: WritableKeyPath<Object, Double?> & Sendable,
                       range: ValueRange?, default defaultValue: Double? = nil, doc: String) -> Self {
        Self(name, apple, .number, range: range, default: defaultValue.map { .number($0) }, settable: true, doc: doc,
             assign: assigning(keyPath) { $0.numberValue.map(Optional.some) },
             checked: { $0[keyPath: keyPath].map { [$0] } ?? [] })
    }

    /// A point `[x, y]` through a key path, each coordinate checked against `range`.
    static func point(_ name: String, _ apple: String?, _ keyPath: WritableKeyPath<Object, Point> & Sendable,
                      range: ValueRange?, default defaultValue: Point? = nil, settable: Bool = true, required: Bool = false,
                      writtenAs: [String]? = nil, doc: String) -> Self {
        Self(name, apple, .point, range: range, default: defaultValue.map { .numbers([$0.x, $0.y]) }, settable: settable,
             required: required, writtenAs: writtenAs, doc: doc, assign: assigning(keyPath, \.pointValue),
             checked: { [$0[keyPath: keyPath].x, $0[keyPath: keyPath].y] })
    }

    /// A flag through a key path.
    static func flag(_ name: String, _ apple: String?, _ keyPath: WritableKeyPath<Object, Bool> & Sendable,
                     default defaultValue: Bool, settable: Bool = true, doc: String) -> Self {
        Self(name, apple, .bool, default: .bool(defaultValue), settable: settable, doc: doc,
             assign: assigning(keyPath, \.boolValue))
    }

    /// A flag that is unset (nil) until written (an item behavior's `allowsRotation`).
    static func flag(_ name: String, _ apple: String?, _ keyPath: WritableKeyPath<Object, Bool?> & Sendable,
                     default defaultValue: Bool, doc: String) -> Self {
        Self(name, apple, .bool, default: .bool(defaultValue), settable: true, doc: doc,
             assign: assigning(keyPath) { $0.boolValue.map(Optional.some) })
    }

    /// One of `options` by its name (Apple's spelling), into a key path.
    static func option<T: Sendable>(_ name: String, _ apple: String?, _ keyPath: WritableKeyPath<Object, T> & Sendable,
                                    _ options: [(String, T)], default defaultValue: String? = nil, required: Bool = false,
                                    doc: String) -> Self {
        Self(name, apple, .choice(options.map(\.0)), default: defaultValue.map { .string($0) }, required: required, doc: doc,
             assign: assigning(keyPath) { v in
                 if case .name(let n) = v { options.first { $0.0 == n }?.1 } else { nil }
             })
    }

    /// The item (a layer id) a behavior acts on: required.
    static func item(_ keyPath: WritableKeyPath<Object, String> & Sendable, doc: String) -> Self {
        Self("item", nil, .layerID, required: true, doc: doc, assign: assigning(keyPath, \.nameValue))
    }

    /// The items (layer ids) a behavior acts on: required.
    static func items(_ keyPath: WritableKeyPath<Object, [String]> & Sendable) -> Self {
        Self("items", nil, .layerIDs, required: true, doc: "Layer ids.", assign: assigning(keyPath, \.namesValue))
    }

    /// Sets `keyPath` to what `unwrap` takes from a value; false for a value of another kind.
    static func assigning<T>(_ keyPath: WritableKeyPath<Object, T> & Sendable, _ unwrap: @escaping @Sendable (BehaviorValue) -> T?)
        -> @Sendable (inout Object, BehaviorValue) -> Bool {
        { o, v in
            guard let t = unwrap(v) else { return false }
            o[keyPath: keyPath] = t
            return true
        }
    }
}

/// A behavior whose table says all it is: `validate()` is the table's, and the loader reads
/// it by the table alone, into `blank`.
public protocol TabledBehavior: Sendable {
    static var properties: [DynamicsProperty<Self>] { get }
    /// The behavior before its keys are read: no items, its defaults.
    static var blank: Self { get }
    /// The keys it is not built without, besides the required ones; nil for every key.
    static var needing: Set<String>? { get }
    var kind: DynamicBehavior.Kind { get }
}

extension DynamicBehavior.Kind {
    /// The kinds read by their table alone, by name.
    public static let tabled: [String: any TabledBehavior.Type] = Dictionary(uniqueKeysWithValues:
        ([GravityBehavior.self, PushBehavior.self, SnapBehavior.self, DynamicItemBehavior.self] as [any TabledBehavior.Type])
            .map { ($0.blank.kind.name, $0) })
}

extension GravityBehavior {
    public static var blank: Self { Self(items: []) }
    public var kind: DynamicBehavior.Kind { .gravity(self) }
}

extension PushBehavior {
    public static var blank: Self { Self(items: []) }
    public var kind: DynamicBehavior.Kind { .push(self) }
}

extension SnapBehavior {
    public static var blank: Self { Self(item: "", snapPoint: .zero) }
    public var kind: DynamicBehavior.Kind { .snap(self) }
}

extension DynamicItemBehavior {
    public static var blank: Self { Self(items: []) }
    /// Each key is optional: one that does not parse leaves the others.
    public static var needing: Set<String>? { [] }
    public var kind: DynamicBehavior.Kind { .itemBehavior(self) }
}

extension TabledBehavior {
    public static var needing: Set<String>? { nil }

    /// Checks the values against `properties`; the error's path is the key.
    func validate() throws(DynamicsError) {
        for p in Self.properties { try p.check(self) }
    }
}

/// Finding a context's entries by name.
extension Array {
    /// The entry named `name`.
    public func property<Object>(_ name: String) -> DynamicsProperty<Object>? where Element == DynamicsProperty<Object> {
        first { $0.name == name }
    }

    /// The settable entry a scene's `key` sets: its own, or the one it is written as
    /// (`writtenAs`: the anchor's spellings set `anchorPoint`); nil when there is none.
    public func settable<Object>(writtenAs key: String) -> DynamicsProperty<Object>? where Element == DynamicsProperty<Object> {
        first { $0.isSettable && $0.name == key } ?? first { $0.isSettable && $0.writtenAs.contains(key) }
    }
}
