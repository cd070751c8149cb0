import KineticGeometry

/// CAEmitterLayer's state (section 3.2): where and how particles are born, the layer's
/// multipliers, and its cells. The presentation copy also carries the live particles
/// the simulation computed for the frame.
public struct EmitterStyle: Equatable, Sendable {
    /// The centre of the emission shape, in the layer's bounds coordinates.
    public var emitterPosition: Point = .zero
    public var emitterZPosition = 0.0
    /// The shape's size: a line's length, a rectangle's sides, a circle's radius is `width`.
    public var emitterSize: Size = Size(0, 0)
    /// A cuboid's depth.
    public var emitterDepth = 0.0
    public var emitterShape: EmitterShape = .point
    /// CAEmitterLayer's default mode is `volume`.
    public var emitterMode: EmitterMode = .volume
    public var renderMode: EmitterRenderMode = .unordered
    /// Multipliers applied to every cell (sub-cells included).
    public var birthRate = 1.0
    public var lifetime = 1.0
    public var velocity = 1.0
    public var scale = 1.0
    public var spin = 1.0
    /// The layer's CAMediaTiming `beginTime` in scene seconds: the emitter's clock reads
    /// `t − beginTime`, so a negative value pre-warms it (CA's `beginTime = now − preroll`).
    public var beginTime = 0.0
    /// CAEmitterLayer.seed, mixed with the scene's seed.
    public var seed: UInt64 = 0
    public var emitterCells: [EmitterCell] = []
    /// The live particles at this frame (presentation only; empty in the model).
    public var particles: ParticleSnapshot = ParticleSnapshot()

    public init() {}

    /// The cell reached by following `names` through `emitterCells` (CA's
    /// `emitterCells.NAME.emitterCells.NAME2` key paths).
    public func cell(at names: [String]) -> EmitterCell? {
        var list = emitterCells
        var found: EmitterCell?
        for name in names {
            guard let c = list.first(where: { $0.name == name }) else { return nil }
            found = c
            list = c.emitterCells
        }
        return found
    }

    /// Changes the cell at `names` in place; nothing happens when there is none.
    public mutating func modifyCell(at names: [String], _ body: (inout EmitterCell) -> Void) {
        Self.modify(&emitterCells, names[...], body)
    }

    private static func modify(_ cells: inout [EmitterCell], _ names: ArraySlice<String>,
                               _ body: (inout EmitterCell) -> Void) {
        guard let first = names.first, let i = cells.firstIndex(where: { $0.name == first }) else { return }
        if names.count == 1 { body(&cells[i]) } else { modify(&cells[i].emitterCells, names.dropFirst(), body) }
    }

    /// Every cell depth first (a cell before its sub-cells), with its name path: the
    /// order particle snapshots index cells by.
    public var flattenedCells: [(names: [String], cell: EmitterCell)] {
        var out: [(names: [String], cell: EmitterCell)] = []
        func walk(_ cells: [EmitterCell], _ prefix: [String]) {
            for c in cells {
                out.append((prefix + [c.name ?? ""], c))
                walk(c.emitterCells, prefix + [c.name ?? ""])
            }
        }
        walk(emitterCells, [])
        return out
    }
}

/// CAEmitterLayer.emitterShape.
public enum EmitterShape: String, Sendable, CaseIterable { case point, line, rectangle, circle, cuboid, sphere }
/// CAEmitterLayer.emitterMode.
public enum EmitterMode: String, Sendable, CaseIterable { case points, outline, surface, volume }
/// CAEmitterLayer.renderMode.
public enum EmitterRenderMode: String, Sendable, CaseIterable { case unordered, oldestFirst, oldestLast, backToFront, additive }

/// CAEmitterCell: the template of one stream of particles. Ranges are ± amounts around
/// the base value; speeds are changes per second of a particle's life.
public struct EmitterCell: Equatable, Sendable {
    /// The name key paths use (`emitterCells.NAME.birthRate`).
    public var name: String? = nil
    /// A disabled cell's particles are simulated but not drawn (CA: "not rendered").
    public var enabled = true
    /// Particles per second (per parent particle for a sub-cell).
    public var birthRate = 0.0
    public var lifetime = 0.0
    public var lifetimeRange = 0.0
    public var emissionLatitude = 0.0
    public var emissionLongitude = 0.0
    /// The full opening angle of the emission fan (2π: every direction).
    public var emissionRange = 0.0
    public var velocity = 0.0
    public var velocityRange = 0.0
    public var xAcceleration = 0.0
    public var yAcceleration = 0.0
    public var zAcceleration = 0.0
    public var scale = 1.0
    public var scaleRange = 0.0
    public var scaleSpeed = 0.0
    /// Radians per second.
    public var spin = 0.0
    public var spinRange = 0.0
    /// Multiplies the contents (CA tints a white image with it). Default opaque white.
    public var color: Color = .white
    public var redRange = 0.0
    public var greenRange = 0.0
    public var blueRange = 0.0
    public var alphaRange = 0.0
    public var redSpeed = 0.0
    public var greenSpeed = 0.0
    public var blueSpeed = 0.0
    public var alphaSpeed = 0.0
    public var contents: ParticleContents? = nil
    /// The part of `contents` a particle draws, in unit coordinates of the contents
    /// (CAEmitterCell.contentsRect): a sprite sheet's cell, drawn at that part's size.
    public var contentsRect = Rect(0, 0, 1, 1)
    /// When the cell starts emitting: scene seconds for a top-level cell, seconds of the
    /// parent particle's life for a sub-cell.
    public var beginTime = 0.0
    /// How long it emits from `beginTime`; nil (or 0 in the file) for ever.
    public var duration: Double? = nil
    /// Sub-cells: each particle of this cell emits them.
    public var emitterCells: [EmitterCell] = []

    public init() {}
}

/// What a particle draws: an image asset (a resolved PNG path; one image pixel is one
/// point, as CALayer contents), or a filled path in a box of `size` points.
public enum ParticleContents: Sendable, Hashable {
    case image(String)
    case path(BezierPath, size: Size, fillColor: Color)
}

/// The live particles of one emitter at one frame, in the emitter layer's coordinates,
/// with the per-cell counts `inspect` reports. Struct-of-arrays: one allocation per
/// array per frame, none per particle.
public struct ParticleSnapshot: Equatable, Sendable {
    /// Per flattened cell (`EmitterStyle.flattenedCells` order): particles alive now and
    /// born since the start.
    public var alive: [Int] = []
    public var born: [Int] = []
    /// One entry per live particle, in birth order within each cell, cells in order.
    public var cell: [Int32] = []
    public var x: [Double] = []
    public var y: [Double] = []
    public var z: [Double] = []
    public var vx: [Double] = []
    public var vy: [Double] = []
    public var vz: [Double] = []
    public var age: [Double] = []
    public var lifetime: [Double] = []
    public var scale: [Double] = []
    /// Rotation about z in radians (spin × age).
    public var angle: [Double] = []
    /// Colour components, clamped to 0…1.
    public var red: [Float] = []
    public var green: [Float] = []
    public var blue: [Float] = []
    public var alpha: [Float] = []

    public init() {}

    public var count: Int { x.count }

    /// Empties the arrays, keeping their storage.
    public mutating func removeAll() {
        cell.removeAll(keepingCapacity: true)
        for kp in [\Self.x, \.y, \.z, \.vx, \.vy, \.vz, \.age, \.lifetime, \.scale, \.angle] as [WritableKeyPath<Self, [Double]>] {
            self[keyPath: kp].removeAll(keepingCapacity: true)
        }
        for kp in [\Self.red, \.green, \.blue, \.alpha] as [WritableKeyPath<Self, [Float]>] {
            self[keyPath: kp].removeAll(keepingCapacity: true)
        }
    }

    /// Reserves room for `n` particles.
    public mutating func reserve(_ n: Int) {
        cell.reserveCapacity(n)
        for kp in [\Self.x, \.y, \.z, \.vx, \.vy, \.vz, \.age, \.lifetime, \.scale, \.angle] as [WritableKeyPath<Self, [Double]>] {
            self[keyPath: kp].reserveCapacity(n)
        }
        for kp in [\Self.red, \.green, \.blue, \.alpha] as [WritableKeyPath<Self, [Float]>] {
            self[keyPath: kp].reserveCapacity(n)
        }
    }
}
