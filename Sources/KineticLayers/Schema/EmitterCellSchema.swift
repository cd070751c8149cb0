import KineticGeometry

/// Every key of a CAEmitterCell (section 3.2), written once: the loader's keys and
/// checks, the `emitterCells.NAME.KEY` key paths and their get/set, the docs.
public enum EmitterCellSchema {
    public typealias Entry = PropertySpec<EmitterCell>

    private static let fraction = ValueRange.nonNegative("a ± range: its half-width is not negative")

    private static func number(_ name: String, _ keyPath: WritableKeyPath<EmitterCell, Double> & Sendable,
                               kind: PropertyKind = .number, range: ValueRange? = nil, default defaultValue: Double,
                               doc: String) -> Entry {
        Entry(name, kind, range: range, default: .number(defaultValue), animatable: true, expressions: true, doc: doc,
              get: { .number($0[keyPath: keyPath]) },
              set: { c, v in if let n = v.numberValue { c[keyPath: keyPath] = n } })
    }

    public static let entries: [Entry] = [
        Entry("name", .string, doc: "Name for emitterCells.NAME.KEY key paths (no '.')."),
        Entry("enabled", .bool, default: .bool(true), animatable: true, doc: "Whether the cell's particles are drawn.",
              get: { .bool($0.enabled) }, set: { c, v in if let b = v.boolValue { c.enabled = b } }),
        number("birthRate", \.birthRate, range: .nonNegative("particles per second: born, never unborn"), default: 0,
               doc: "Particles per second."),
        number("lifetime", \.lifetime, range: .nonNegative("a duration"), default: 0, doc: "Seconds a particle lives."),
        number("lifetimeRange", \.lifetimeRange, range: fraction, default: 0, doc: "Random ± range of lifetime."),
        number("emissionLatitude", \.emissionLatitude, kind: .angle, default: 0,
               doc: "Emission direction's angle from the z axis."),
        number("emissionLongitude", \.emissionLongitude, kind: .angle, default: 0, doc: "Emission direction in the x-y plane."),
        number("emissionRange", \.emissionRange, kind: .angle, default: 0, doc: "Cone around the emission direction."),
        number("velocity", \.velocity, default: 0, doc: "Initial speed in points per second."),
        number("velocityRange", \.velocityRange, range: fraction, default: 0, doc: "Random ± range of velocity."),
        number("xAcceleration", \.xAcceleration, default: 0, doc: "Acceleration along x, points/s²."),
        number("yAcceleration", \.yAcceleration, default: 0, doc: "Acceleration along y, points/s²."),
        number("zAcceleration", \.zAcceleration, default: 0, doc: "Acceleration along z, points/s²."),
        number("scale", \.scale, default: 1, doc: "Size multiplier of contents."),
        number("scaleRange", \.scaleRange, range: fraction, default: 0, doc: "Random ± range of scale."),
        number("scaleSpeed", \.scaleSpeed, default: 0, doc: "Change of scale per second."),
        number("spin", \.spin, kind: .angle, default: 0, doc: "Rotation speed, radians per second."),
        number("spinRange", \.spinRange, kind: .angle, default: 0, doc: "Random ± range of spin."),
        Entry("color", .color, default: .string("white"), animatable: true, doc: "Multiplies the contents' colors.",
              get: { .color($0.color) }, set: { c, v in if let color = v.colorValue { c.color = color } }),
        number("redRange", \.redRange, range: fraction, default: 0, doc: "Random ± range of red."),
        number("greenRange", \.greenRange, range: fraction, default: 0, doc: "Random ± range of green."),
        number("blueRange", \.blueRange, range: fraction, default: 0, doc: "Random ± range of blue."),
        number("alphaRange", \.alphaRange, range: fraction, default: 0, doc: "Random ± range of alpha."),
        number("redSpeed", \.redSpeed, default: 0, doc: "Change of red per second."),
        number("greenSpeed", \.greenSpeed, default: 0, doc: "Change of green per second."),
        number("blueSpeed", \.blueSpeed, default: 0, doc: "Change of blue per second."),
        number("alphaSpeed", \.alphaSpeed, default: 0, doc: "Change of alpha per second."),
        Entry("contents", .cellContents, doc: "An image asset, or an inline {path, size, fillColor}."),
        Entry("contentsRect", .rect, default: .numbers([0, 0, 1, 1]), animatable: true,
              doc: "The part of the contents a particle draws, in unit coordinates (a sprite sheet's cell, at its own size).",
              get: { .rect($0.contentsRect) }, set: { c, v in if case .rect(let r) = v { c.contentsRect = r } }),
        number("beginTime", \.beginTime, default: 0, doc: "When the cell starts emitting, seconds into the emitter's clock."),
        Entry("duration", .number, range: .nonNegative("a duration; 0 emits for ever"), default: .number(0),
              animatable: true, expressions: true, doc: "How long the cell emits (0: always).",
              get: { .number($0.duration ?? 0) },
              set: { c, v in if let n = v.numberValue { c.duration = n > 0 ? n : nil } }),
        Entry("emitterCells", .cells, doc: "Sub-cells each particle emits."),
    ]

    /// The keys of a cell mapping, in table order.
    public static var fileKeys: [String] { entries.map(\.name) }
}

/// An animatable key of a cell (`emitterCells.NAME.KEY`): an entry of `EmitterCellSchema`.
public struct EmitterCellKey: Hashable, Sendable, CustomStringConvertible {
    public let spec: PropertySpec<EmitterCell>

    private static let animatable: [String: PropertySpec<EmitterCell>] = Dictionary(
        EmitterCellSchema.entries.filter(\.isAnimatable).map { ($0.name, $0) }) { first, _ in first }

    public init?(rawValue: String) {
        guard let spec = Self.animatable[rawValue] else { return nil }
        self.spec = spec
    }

    /// Every animatable cell key, in table order.
    public static var allCases: [EmitterCellKey] {
        EmitterCellSchema.entries.filter(\.isAnimatable).compactMap { EmitterCellKey(rawValue: $0.name) }
    }

    public var rawValue: String { spec.name }
    public var description: String { spec.name }
    // Every animatable cell entry has a value kind.
    public var valueKind: AnimatableValue.Kind { spec.valueKind ?? .number }
    /// Keys whose values are angles (accept `"45deg"`).
    public var isAngle: Bool { spec.kind == .angle }

    public static func == (a: EmitterCellKey, b: EmitterCellKey) -> Bool { a.spec.name == b.spec.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(spec.name) }
}

extension EmitterCell {
    /// The value of an animatable key.
    public func value(for key: EmitterCellKey) -> AnimatableValue {
        key.spec.get?(self) ?? .number(0)
    }

    /// Sets an animatable key; a value of the wrong kind is ignored.
    public mutating func setValue(_ value: AnimatableValue, for key: EmitterCellKey) {
        key.spec.set?(&self, value)
    }
}
