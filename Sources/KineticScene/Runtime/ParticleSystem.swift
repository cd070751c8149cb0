import Foundation
import KineticGeometry
import KineticLayers

/// More live particles than the limit allows (section 9: a clear error, not an
/// out-of-memory crash).
public struct ParticleLimitError: Error, Sendable, CustomStringConvertible {
    /// The emitter layer's id (or place).
    public var layer: String
    public var time: Double
    public var count: Int
    public var limit: Int
    /// Whether other emitters' particles count in `count` (the limit is on the total).
    public var together = false
    /// The emitter layer's place in the file (`layers[0].sublayers[2]`), where the
    /// problem is reported.
    public var place = ""

    public var description: String {
        let whose = together ? "emitter '\(layer)' and the others" : "emitter '\(layer)'"
        return "\(whose): \(count) live particles at t = \(String(format: "%.3f", time)) s exceed the limit of \(limit) (raise it with --max-particles)"
    }
}

/// One particle's state at birth. Everything later is a closed form in its age, as
/// CAEmitterCell's constant accelerations and speeds allow: position p + v·a + ½·acc·a²,
/// scale s + scaleSpeed·a, colour c + speed·a, angle spin·a.
struct Particle {
    var birth: Double
    var lifetime: Double
    var px: Double, py: Double, pz: Double
    var vx: Double, vy: Double, vz: Double
    var ax: Double, ay: Double, az: Double
    var scale: Double, scaleSpeed: Double, spin: Double
    var red: Double, green: Double, blue: Double, alpha: Double
    var redSpeed: Double, greenSpeed: Double, blueSpeed: Double, alphaSpeed: Double

    var death: Double { birth + lifetime }

    /// The colour at time `t`, each channel clamped to 0…1.
    func color(at t: Double) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        let a = t - birth
        func c(_ v: Double) -> Double { min(max(v, 0), 1) }
        return (c(red + redSpeed * a), c(green + greenSpeed * a), c(blue + blueSpeed * a), c(alpha + alphaSpeed * a))
    }

    func position(at t: Double) -> (x: Double, y: Double, z: Double) {
        let a = t - birth
        return (px + vx * a + 0.5 * ax * a * a, py + vy * a + 0.5 * ay * a * a, pz + vz * a + 0.5 * az * a * a)
    }
}

/// The births owed to one emission window — a top-level cell on the emitter's clock, or a
/// sub-cell on one parent particle — in times local to the window's start.
///
/// The count is the integral of the rate from the start, kept as the count at the start of
/// the current run of equal rates plus rate × the time since, rather than a sum of one
/// product per step: for a constant rate the k-th birth falls exactly at start + k / rate,
/// and a whole window of length T gives ⌊rate × T⌋ whatever its start, with no birth on
/// its end kept or dropped by the rounding of a long sum. A count within 10⁻⁹ (relative)
/// of a whole number counts as that number, so 100/s over 0.29 s (28.999… in binary)
/// gives 29.
struct BirthClock {
    /// Births owed at `runStart`, and the rate since then.
    private var base = 0.0
    private var runStart = 0.0
    private var rate = 0.0
    /// The end of the last interval counted; nil before the first.
    private var last: Double?
    /// Births handed out so far.
    private(set) var born = 0

    init() {}

    /// The births in the local interval [a, b] at `rate` (a ≥ the previous interval's
    /// end; a gap between them counts nothing): calls `birth` with each one's local time,
    /// in order, until it returns false.
    mutating func count(from a: Double, to b: Double, rate r: Double, birth: (Double) -> Bool) {
        if let last {
            if r != rate || a != last {
                base += rate * (last - runStart)
                runStart = a; rate = r
            }
        } else {
            runStart = a; rate = r
        }
        last = b
        guard r > 0 else { return }
        let owed = base + r * (b - runStart)
        let whole = (owed + 1e-9 * max(1, owed)).rounded(.down)
        let n = Int(min(whole, Double(Int32.max)))
        guard n > born else { return }
        let first = born + 1
        born = n
        for k in first...n {
            let t = min(max(runStart + (Double(k) - base) / r, a), b)
            if !birth(t) { return }
        }
    }
}

/// The particles of one CAEmitterLayer, advanced in fixed steps of 1/240 s.
///
/// Births are counted by integrating each cell's birth rate (× the layer's multiplier)
/// over the step, the rate read at the step's middle; the k-th particle is born when the
/// running count reaches k, at its exact time inside the step, so births spread evenly
/// and do not clump at step boundaries (see `BirthClock`: a constant rate gives its k-th
/// particle at exactly k / rate after the window's start). A rate of 1/s first emits at
/// 1 s, as Core Animation does (Apple's fireworks sample relies on it). Motion needs no integration
/// (see `Particle`), so the state at any time between steps is exact.
///
/// Per-particle work appends to preallocated arrays and allocates nothing else.
public struct ParticleSystem: Sendable {
    public static let stepsPerSecond = 240.0

    /// The emitter's identity in messages.
    public let name: String
    /// The seed every draw derives from (scene seed, layer seed and place mixed).
    let key: UInt64
    /// Per flattened cell (`EmitterStyle.flattenedCells` order): its parent cell, or −1.
    private let parent: [Int]
    /// Per flattened cell: its place among its parent's sub-cells, and its own sub-cell count.
    private let childSlot: [Int]
    private let childCount: [Int]
    /// Per cell: live (and not-yet-removed) particles, in birth order.
    private var particles: [[Particle]]
    /// Per cell: for each of its particles, one birth clock per sub-cell.
    private var subClocks: [[BirthClock]]
    /// Per top-level cell: its births on the emitter's clock.
    private var clocks: [BirthClock]
    /// Per cell: particles born so far (also each particle's index for its random draws).
    private var emitted: [UInt64]
    private var steps = 0
    /// Particles dead at this time have been removed; earlier times need a restart.
    private var compactedAt = -Double.infinity
    private var flat: [EmitterCell] = []
    /// The particle limit of the current `advance`: births stop past it (then it throws),
    /// so a huge birth rate cannot exhaust memory within one step.
    private var limit = Int.max

    /// A system for an emitter whose cell tree is `model`'s (animations change values, never
    /// the tree). `seed` is the scene's seed.
    public init(name: String, model: EmitterStyle, seed: UInt64) {
        self.name = name
        var parent: [Int] = [], slot: [Int] = [], count: [Int] = []
        func walk(_ cells: [EmitterCell], _ p: Int) {
            for (i, c) in cells.enumerated() {
                let me = parent.count
                parent.append(p); slot.append(i); count.append(c.emitterCells.count)
                walk(c.emitterCells, me)
            }
        }
        walk(model.emitterCells, -1)
        self.parent = parent; childSlot = slot; childCount = count
        particles = Array(repeating: [], count: parent.count)
        subClocks = Array(repeating: [], count: parent.count)
        clocks = Array(repeating: BirthClock(), count: parent.count)
        emitted = Array(repeating: 0, count: parent.count)
        var h = UInt64(0xA076_1D64_78BD_642F)
        for byte in name.utf8 { h = ParticleRandom.mix(h ^ UInt64(byte)) }
        key = ParticleRandom.mix(ParticleRandom.mix(seed) ^ ParticleRandom.mix(model.seed &+ 1) ^ h)
    }

    /// The time births have been computed up to.
    public var time: Double { Double(steps) / Self.stepsPerSecond }

    /// Live particles stored (those dead since the last removal included).
    public var storedCount: Int { particles.reduce(0) { $0 + $1.count } }

    /// Whether the state can still show `time` (it has not removed particles alive then).
    public func canShow(_ time: Double) -> Bool { time >= compactedAt }

    /// Computes births up to (and a little past) `time`; `style` gives the emitter's
    /// presentation values at a time (its animated birth rates, position, …).
    /// - Throws: `ParticleLimitError` when more than `limit` particles are alive.
    public mutating func advance(to time: Double, limit: Int,
                                 style: (Double) -> EmitterStyle) throws(ParticleLimitError) {
        self.limit = limit
        while Double(steps) / Self.stepsPerSecond <= time {
            let t0 = Double(steps) / Self.stepsPerSecond
            step(from: t0, to: Double(steps + 1) / Self.stepsPerSecond, style: style(t0 + 0.5 / Self.stepsPerSecond))
            steps += 1
            if storedCount > limit {
                removeDead(at: t0)
                let alive = storedCount
                if alive > limit { throw ParticleLimitError(layer: name, time: t0, count: alive, limit: limit) }
            }
        }
        removeDead(at: time)
    }

    /// One step: every cell's births in [t0, t1), parents before their sub-cells (so a
    /// particle born in the step already emits in it).
    private mutating func step(from t0: Double, to t1: Double, style st: EmitterStyle) {
        flat.removeAll(keepingCapacity: true)
        func walk(_ cells: [EmitterCell]) { for c in cells { flat.append(c); walk(c.emitterCells) } }
        walk(st.emitterCells)
        guard flat.count == parent.count else { return }
        for c in flat.indices {
            let cell = flat[c]
            let rate = max(0, cell.birthRate * st.birthRate)
            guard rate > 0 else { continue }
            // The window: from `beginTime` (never before its clock's 0) for `duration`. Its
            // length is `duration` itself when it starts on time, so the count is exact.
            let end = cell.duration.map { cell.beginTime + $0 } ?? .infinity
            let start = max(cell.beginTime, 0)
            let length = cell.duration.map { cell.beginTime >= 0 ? $0 : $0 + cell.beginTime } ?? .infinity
            let p = parent[c]
            if p < 0 {
                let a = max(t0, start), b = min(t1, end)
                guard b > a else { continue }
                var clock = clocks[c]
                clock.count(from: a - start, to: b == end ? length : b - start, rate: rate) { local in
                    guard particles[c].count <= limit else { return false }
                    spawn(c, at: start + local, cell: cell, style: st, origin: nil)
                    return true
                }
                clocks[c] = clock
            } else {
                let n = childCount[p], slot = childSlot[c]
                var i = 0
                // Parents born during this loop are sub-cells' siblings, never parents: the
                // parent list only grows while its own cell is processed.
                while i < particles[p].count {
                    let q = particles[p][i]
                    let origin = q.birth + start, windowEnd = q.birth + end
                    let a = max(t0, origin)
                    let b = min(t1, windowEnd, q.death)
                    if b > a {
                        let k = i * n + slot
                        var clock = subClocks[p][k]
                        clock.count(from: a - origin, to: b == windowEnd ? length : b - origin, rate: rate) { local in
                            guard particles[c].count <= limit else { return false }
                            spawn(c, at: origin + local, cell: cell, style: st, origin: q)
                            return true
                        }
                        subClocks[p][k] = clock
                    }
                    i += 1
                }
            }
        }
    }

    /// Appends one particle of cell `c` born at `t`, from the emitter's shape or, for a
    /// sub-cell, at the parent particle's position.
    private mutating func spawn(_ c: Int, at t: Double, cell: EmitterCell, style st: EmitterStyle, origin: Particle?) {
        var rng = ParticleRandom(key: key, cell: c, particle: emitted[c])
        emitted[c] += 1
        let lifetime = max(0, (cell.lifetime + cell.lifetimeRange * rng.signed()) * st.lifetime)
        var where_: (x: Double, y: Double, z: Double, longitude: Double, latitude: Double)
        if let origin {
            let p = origin.position(at: t)
            where_ = (p.x, p.y, p.z, 0, 0)
        } else {
            where_ = Self.emissionPoint(st, &rng)
        }
        let longitude = where_.longitude + cell.emissionLongitude + cell.emissionRange * (rng.unit() - 0.5)
        let latitude = where_.latitude + cell.emissionLatitude
        let speed = (cell.velocity + cell.velocityRange * rng.signed()) * st.velocity
        let scale = (cell.scale + cell.scaleRange * rng.signed()) * st.scale
        let spin = (cell.spin + cell.spinRange * rng.signed()) * st.spin
        func channel(_ v: Double, _ range: Double) -> Double { min(max(v + range * rng.signed(), 0), 1) }
        var red = channel(cell.color.red, cell.redRange)
        var green = channel(cell.color.green, cell.greenRange)
        var blue = channel(cell.color.blue, cell.blueRange)
        var alpha = channel(cell.color.alpha, cell.alphaRange)
        if let origin {
            // A sub-particle's colour is multiplied by its parent's at birth, as Core
            // Animation does (the sparks of Apple's fireworks take their rocket's colour).
            let c = origin.color(at: t)
            red *= c.red; green *= c.green; blue *= c.blue; alpha *= c.alpha
        }
        let cosLat = cos(latitude)
        particles[c].append(Particle(
            birth: t, lifetime: lifetime, px: where_.x, py: where_.y, pz: where_.z,
            vx: speed * cosLat * cos(longitude), vy: speed * cosLat * sin(longitude), vz: speed * sin(latitude),
            ax: cell.xAcceleration, ay: cell.yAcceleration, az: cell.zAcceleration,
            scale: scale, scaleSpeed: cell.scaleSpeed * st.scale, spin: spin,
            red: red, green: green, blue: blue, alpha: alpha,
            redSpeed: cell.redSpeed, greenSpeed: cell.greenSpeed, blueSpeed: cell.blueSpeed, alphaSpeed: cell.alphaSpeed))
        for _ in 0..<childCount[c] { subClocks[c].append(BirthClock()) }
    }

    /// A birth place on the emitter's shape per its mode (CAEmitterLayer's header: a line
    /// runs from x − w/2 to x + w/2; a circle's and a sphere's radius is the width), and
    /// the base direction there: circles and spheres emit outward from their centre,
    /// other shapes along the longitude alone.
    static func emissionPoint(_ st: EmitterStyle, _ rng: inout ParticleRandom)
        -> (x: Double, y: Double, z: Double, longitude: Double, latitude: Double) {
        let cx = st.emitterPosition.x, cy = st.emitterPosition.y, cz = st.emitterZPosition
        let w = st.emitterSize.width, h = st.emitterSize.height, d = st.emitterDepth
        func corner(_ n: Int) -> Double { Double(Int(rng.unit() * Double(n)) % n) }
        switch (st.emitterShape, st.emitterMode) {
        case (.point, _):
            return (cx, cy, cz, 0, 0)
        case (.line, .points):
            return (cx + (corner(2) - 0.5) * w, cy, cz, 0, 0)
        case (.line, _):
            return (cx + (rng.unit() - 0.5) * w, cy, cz, 0, 0)
        case (.rectangle, .points):
            let k = Int(corner(4))
            return (cx + (Double(k & 1) - 0.5) * w, cy + (Double(k >> 1) - 0.5) * h, cz, 0, 0)
        case (.rectangle, .outline):
            // Uniform along the perimeter.
            var s = rng.unit() * 2 * (w + h)
            if s < w { return (cx - w / 2 + s, cy - h / 2, cz, 0, 0) }
            s -= w
            if s < h { return (cx + w / 2, cy - h / 2 + s, cz, 0, 0) }
            s -= h
            if s < w { return (cx + w / 2 - s, cy + h / 2, cz, 0, 0) }
            s -= w
            return (cx - w / 2, cy + h / 2 - s, cz, 0, 0)
        case (.rectangle, _):
            return (cx + (rng.unit() - 0.5) * w, cy + (rng.unit() - 0.5) * h, cz, 0, 0)
        case (.cuboid, .points):
            let k = Int(corner(8))
            return (cx + (Double(k & 1) - 0.5) * w, cy + (Double((k >> 1) & 1) - 0.5) * h,
                    cz + (Double(k >> 2) - 0.5) * d, 0, 0)
        case (.cuboid, .outline):
            // Uniform along the 12 edges: pick an axis by its share of the length, then
            // one of its 4 parallel edges.
            let total = 4 * (w + h + d)
            let s = rng.unit() * total
            let u = rng.unit() - 0.5, k = Int(corner(4))
            let a = Double(k & 1) - 0.5, b = Double(k >> 1) - 0.5
            if s < 4 * w { return (cx + u * w, cy + a * h, cz + b * d, 0, 0) }
            if s < 4 * (w + h) { return (cx + a * w, cy + u * h, cz + b * d, 0, 0) }
            return (cx + a * w, cy + b * h, cz + u * d, 0, 0)
        case (.cuboid, .surface):
            // Uniform over the 6 faces: a pair by its area, then one side of it.
            let areas = [w * h, w * d, h * d]
            let s = rng.unit() * (areas[0] + areas[1] + areas[2])
            let u = rng.unit() - 0.5, v = rng.unit() - 0.5, side = corner(2) - 0.5
            if s < areas[0] { return (cx + u * w, cy + v * h, cz + side * d, 0, 0) }
            if s < areas[0] + areas[1] { return (cx + u * w, cy + side * h, cz + v * d, 0, 0) }
            return (cx + side * w, cy + u * h, cz + v * d, 0, 0)
        case (.cuboid, _):
            return (cx + (rng.unit() - 0.5) * w, cy + (rng.unit() - 0.5) * h, cz + (rng.unit() - 0.5) * d, 0, 0)
        case (.circle, .points), (.sphere, .points):
            return (cx, cy, cz, 0, 0)
        case (.circle, .outline):
            let a = rng.unit() * 2 * .pi
            return (cx + w * cos(a), cy + w * sin(a), cz, a, 0)
        case (.circle, _):
            let a = rng.unit() * 2 * .pi, r = w * rng.unit().squareRoot()
            return (cx + r * cos(a), cy + r * sin(a), cz, a, 0)
        case (.sphere, _):
            // A uniform direction (z uniform in −1…1), at the surface or inside.
            let a = rng.unit() * 2 * .pi, z = rng.signed()
            let r = st.emitterMode == .volume ? w * cbrt(rng.unit()) : w
            let ring = (1 - z * z).squareRoot()
            return (cx + r * ring * cos(a), cy + r * ring * sin(a), cz + r * z, a, asin(z))
        }
    }

    /// Drops particles dead at `time` (births after it are kept).
    private mutating func removeDead(at time: Double) {
        compactedAt = max(compactedAt, time)
        for c in particles.indices {
            let n = childCount[c]
            var kept = 0
            for i in particles[c].indices where particles[c][i].death > time {
                if kept != i {
                    particles[c][kept] = particles[c][i]
                    for s in 0..<n { subClocks[c][kept * n + s] = subClocks[c][i * n + s] }
                }
                kept += 1
            }
            particles[c].removeLast(particles[c].count - kept)
            subClocks[c].removeLast(subClocks[c].count - kept * n)
        }
    }

    /// The particles alive at `time` (born at or before it, not yet dead), per cell in birth
    /// order, and the per-cell counts. `time` must not be past `self.time`.
    public func snapshot(at time: Double, into out: inout ParticleSnapshot) {
        out.removeAll()
        out.alive = Array(repeating: 0, count: particles.count)
        out.born = Array(repeating: 0, count: particles.count)
        out.reserve(storedCount)
        for c in particles.indices {
            var pending = 0
            for q in particles[c] {
                if q.birth > time { pending += 1; continue }
                guard q.death > time else { continue }
                let a = time - q.birth
                let p = q.position(at: time)
                out.alive[c] += 1
                out.cell.append(Int32(c))
                out.x.append(p.x); out.y.append(p.y); out.z.append(p.z)
                out.vx.append(q.vx + q.ax * a); out.vy.append(q.vy + q.ay * a); out.vz.append(q.vz + q.az * a)
                out.age.append(a); out.lifetime.append(q.lifetime)
                out.scale.append(max(0, q.scale + q.scaleSpeed * a))
                out.angle.append(q.spin * a)
                let color = q.color(at: time)
                out.red.append(Float(color.red)); out.green.append(Float(color.green))
                out.blue.append(Float(color.blue)); out.alpha.append(Float(color.alpha))
            }
            out.born[c] = Int(emitted[c]) - pending
        }
    }
}
