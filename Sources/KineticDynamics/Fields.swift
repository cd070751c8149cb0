import Foundation
import KineticGeometry

/// UIFieldBehavior: a force field acting on the items inside its region.
///
/// UIKit documents no units for fields; Kinetic's (chosen so strength 1 is of the same
/// order as gravity 1 or push 1; r = distance to `position`, s = falloff scale
/// (100 / max(r, minimumRadius, 1))^falloff, 1 when falloff is 0):
/// - `linearGravity`: acceleration 1000 × strength along `direction` (unit vector), like gravity.
/// - `radialGravity`: acceleration 1000 × strength × s towards `position` (negative repels).
/// - `electric`: force 100 × strength × charge × s away from `position`.
/// - `magnetic`: force strength × charge × (vy, −vx) (perpendicular to the velocity).
/// - `vortex`: acceleration 100 × strength × s perpendicular to the radius (clockwise on screen).
/// - `spring`: acceleration −10 × strength × (center − position) (period 2 s at strength 1).
/// - `drag`: acceleration −strength × velocity.
/// - `velocity`: acceleration strength × (100 × direction − velocity), driving items to that velocity.
/// - `noise`: acceleration 100 × strength × a smooth random unit-range vector field;
///   `smoothness` 0…1 widens its cells from 20 to 200 pt, `animationSpeed` is how many
///   cells per second it drifts in time.
/// - `turbulence`: the noise field scaled by the item's speed / 100 instead of 100.
public struct FieldBehavior: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case linearGravity, radialGravity, noise, turbulence, spring, electric, magnetic, vortex, drag, velocity
    }

    /// Where the field acts, around `position`.
    public enum Region: Hashable, Sendable {
        case infinite
        case radius(Double)
        /// A rect relative to `position` (its origin is an offset from it).
        case rect(Rect)
    }

    public var kind: Kind
    public var items: [String]
    public var position: Point
    public var region: Region
    public var strength: Double
    public var falloff: Double
    public var minimumRadius: Double
    /// Unit-less direction for `linearGravity` and `velocity` (normalized).
    public var direction: Point
    public var smoothness: Double
    public var animationSpeed: Double

    public init(kind: Kind, items: [String], position: Point = .zero, region: Region = .infinite,
                strength: Double = 1, falloff: Double = 0, minimumRadius: Double = 0,
                direction: Point = Point(0, 1), smoothness: Double = 0.5, animationSpeed: Double = 0) {
        self.kind = kind
        self.items = items
        self.position = position
        self.region = region
        self.strength = strength
        self.falloff = falloff
        self.minimumRadius = minimumRadius
        self.direction = direction
        self.smoothness = smoothness
        self.animationSpeed = animationSpeed
    }

    /// Whether a point is inside the region.
    public func contains(_ p: Point) -> Bool {
        switch region {
        case .infinite: return true
        case .radius(let r): return p.distance(to: position) <= r
        case .rect(let rect):
            return Rect(position.x + rect.origin.x, position.y + rect.origin.y, rect.size.width, rect.size.height)
                .contains(p)
        }
    }

    /// The force on an item at `center` moving at `velocity` (UIKit mass units × pt/s²).
    public func force(center: Point, velocity: Point, mass: Double, charge: Double,
                      time: Double, seed: UInt64) -> Point {
        acceleration(center: center, velocity: velocity, mass: mass, charge: charge, time: time, seed: seed)
            .at(velocity) * mass
    }

    /// The acceleration on an item at `center` moving at `velocity`, its parts linear in the
    /// velocity kept apart for the integration (`FieldAcceleration`).
    func acceleration(center: Point, velocity: Point, mass: Double, charge: Double,
                      time: Double, seed: UInt64) -> FieldAcceleration {
        guard contains(center) else { return .zero }
        let offset = center - position
        let r = offset.length
        let radial = r > 0 ? offset / r : .zero
        let scale = falloff == 0 ? 1 : pow(100 / max(r, minimumRadius, 1), falloff)
        let unitDirection = direction.length > 0 ? direction / direction.length : .zero
        let perMass = mass > 0 ? 1 / mass : 0
        switch kind {
        case .linearGravity: return FieldAcceleration(constant: unitDirection * (1000 * strength))
        case .radialGravity: return FieldAcceleration(constant: radial * (-1000 * strength * scale))
        case .electric: return FieldAcceleration(constant: radial * (100 * strength * charge * scale * perMass))
        case .magnetic: return FieldAcceleration(turning: strength * charge * perMass)
        case .vortex: return FieldAcceleration(constant: Point(-radial.y, radial.x) * (100 * strength * scale))
        case .spring: return FieldAcceleration(constant: offset * (-10 * strength))
        case .drag: return FieldAcceleration(damping: strength)
        case .velocity: return FieldAcceleration(constant: unitDirection * (100 * strength), damping: strength)
        case .noise, .turbulence:
            let cell = 20 + 180 * min(max(smoothness, 0), 1)
            let n = Self.noise(center / cell, time * animationSpeed, seed: seed)
            let gain = kind == .noise ? 100 : velocity.length / 100
            return FieldAcceleration(constant: n * (gain * strength))
        }
    }

    /// A smooth value-noise vector field with components in −1…1, deterministic in `seed`.
    static func noise(_ p: Point, _ t: Double, seed: UInt64) -> Point {
        Point(noise1(p, t, seed: seed), noise1(p, t, seed: seed &+ 0x9E37_79B9_7F4A_7C15))
    }

    private static func noise1(_ p: Point, _ t: Double, seed: UInt64) -> Double {
        let x0 = floor(p.x), y0 = floor(p.y), t0 = floor(t)
        let fx = smooth(p.x - x0), fy = smooth(p.y - y0), ft = smooth(t - t0)
        func corner(_ dx: Double, _ dy: Double, _ dt: Double) -> Double {
            lattice(Int64(x0 + dx), Int64(y0 + dy), Int64(t0 + dt), seed)
        }
        func lerp(_ a: Double, _ b: Double, _ u: Double) -> Double { a + (b - a) * u }
        func plane(_ dt: Double) -> Double {
            lerp(lerp(corner(0, 0, dt), corner(1, 0, dt), fx), lerp(corner(0, 1, dt), corner(1, 1, dt), fx), fy)
        }
        return lerp(plane(0), plane(1), ft)
    }

    private static func smooth(_ u: Double) -> Double { u * u * (3 - 2 * u) }

    /// A hash of a lattice point to −1…1 (SplitMix64 finalizer).
    private static func lattice(_ x: Int64, _ y: Int64, _ t: Int64, _ seed: UInt64) -> Double {
        var z = seed &+ UInt64(bitPattern: x) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ UInt64(bitPattern: y) &* 0xBF58_476D_1CE4_E5B9) &+ UInt64(bitPattern: t) &* 0x94D0_49BB_1331_11EB
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 52) - 1
    }
}

extension FieldBehavior {
    /// The keys of `- field: {…}`, each once: the loader reads, `setting(_:to:)` sets and
    /// `validate()` checks by these.
    public static let properties: [DynamicsProperty<FieldBehavior>] = {
        typealias L = DynamicsLimits
        return [
            .option("kind", nil, \.kind, Kind.allCases.map { ($0.rawValue, $0) }, required: true,
                    doc: "The UIFieldBehavior kind."),
            .items(\.items),
            .point("position", "UIFieldBehavior.position", \.position, range: L.coordinate, default: .zero,
                   doc: "The field's position."),
            .described("region", "UIFieldBehavior.region", .mapping("region"), doc: "Where the field acts: {radius} or {rect}."),
            .number("strength", "UIFieldBehavior.strength", \.strength, range: L.coordinate, default: 1, doc: "Field strength."),
            .number("falloff", "UIFieldBehavior.falloff", \.falloff, range: L.length, default: 0,
                    doc: "How strength falls with distance."),
            .number("minimumRadius", "UIFieldBehavior.minimumRadius", \.minimumRadius, range: L.length, default: 0,
                    doc: "Distance below which the field does not grow."),
            .point("direction", "UIFieldBehavior.direction", \.direction, range: L.coordinate, default: Point(0, 1),
                   doc: "Direction of linearGravity and velocity fields."),
            .number("smoothness", "UIFieldBehavior.smoothness", \.smoothness, range: L.fraction, default: 0.5,
                    doc: "Noise and turbulence smoothness."),
            .number("animationSpeed", "UIFieldBehavior.animationSpeed", \.animationSpeed, range: L.coordinate, default: 0,
                    doc: "Noise and turbulence change per second."),
        ]
    }()

    /// Checks the values against `properties` and `Region.properties`; the error's path
    /// is the key (`region.radius`).
    func validate() throws(DynamicsError) {
        for p in Self.properties { try p.check(self) }
        let (key, values): (String, [Double]) = switch region {
        case .infinite: ("", [])
        case .radius(let r): ("radius", [r])
        case .rect(let r): ("rect", [r.origin.x, r.origin.y, r.size.width, r.size.height])
        }
        if let range = Region.properties.property(key)?.range {
            try DynamicsLimits.check(values, in: range, "region.\(key)")
        }
    }
}

extension FieldBehavior.Region {
    /// The keys of a field's `region: {…}`: a radius, or a rect. A radius given beside a
    /// rect (reported by their rule) wins, so the rect does not replace one.
    public static let properties: [DynamicsProperty<FieldBehavior.Region>] = [
        DynamicsProperty("radius", "UIRegion(radius:)", .number, range: DynamicsLimits.length,
                         doc: "A circle of this radius around the position.",
                         assign: DynamicsProperty.assigning(\.self) { $0.numberValue.map { .radius($0) } }),
        DynamicsProperty("rect", "UIRegion(size:)", .rect, range: DynamicsLimits.coordinate, doc: "A rectangle.",
                         assign: { region, v in
                             guard let r = v.rectValue else { return false }
                             if case .radius = region {} else { region = .rect(r) }
                             return true
                         }),
    ]
}
