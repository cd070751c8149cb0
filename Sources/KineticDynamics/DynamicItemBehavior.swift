import Foundation
import KineticGeometry

/// UIDynamicItemBehavior: material and motion properties of items.
///
/// A nil property is not set by this behavior: the item keeps what an earlier live
/// item behavior set, or UIKit's default (in parentheses). When several live item
/// behaviors set the same property of an item, the one listed last wins.
public struct DynamicItemBehavior: Hashable, Sendable, TabledBehavior {
    public var items: [String]
    /// Restitution 0…1 (0); combined with the other surface's by multiplication
    /// (boundaries have 1), so a ball of elasticity e on the floor rebounds to e² × height.
    public var elasticity: Double?
    /// Coulomb friction (0); combined by multiplication (boundaries have 1).
    public var friction: Double?
    /// Mass per area (1): mass = density × width × height / 10000.
    public var density: Double?
    /// Linear velocity damping (0). Each step of length h, velocity is divided by
    /// (1 + h × resistance) — Box2D's linear damping — so v(t) ≈ v0 · e^(−resistance·t).
    public var resistance: Double?
    /// Angular velocity damping (0), the same law as `resistance`.
    public var angularResistance: Double?
    /// Whether the item turns (true).
    public var allowsRotation: Bool?
    /// An anchored item collides but does not move (false).
    public var anchored: Bool?
    /// Electric charge for electric and magnetic fields (0).
    public var charge: Double?
    /// Added to the item's velocity once, when the behavior becomes live
    /// (`addLinearVelocity(_:for:)`), in points/s.
    public var linearVelocity: Point
    /// Added to the angular velocity once, when the behavior becomes live, in radians/s.
    public var angularVelocity: Double

    public init(items: [String], elasticity: Double? = nil, friction: Double? = nil, density: Double? = nil,
                resistance: Double? = nil, angularResistance: Double? = nil, allowsRotation: Bool? = nil,
                anchored: Bool? = nil, charge: Double? = nil, linearVelocity: Point = .zero,
                angularVelocity: Double = 0) {
        self.items = items
        self.elasticity = elasticity
        self.friction = friction
        self.density = density
        self.resistance = resistance
        self.angularResistance = angularResistance
        self.allowsRotation = allowsRotation
        self.anchored = anchored
        self.charge = charge
        self.linearVelocity = linearVelocity
        self.angularVelocity = angularVelocity
    }
}

extension DynamicItemBehavior {
    /// The keys of `- itemBehavior: {…}`, each once: the loader reads, `setting(_:to:)`
    /// sets and `validate()` checks by these.
    public static let properties: [DynamicsProperty<DynamicItemBehavior>] = {
        typealias L = DynamicsLimits
        return [
            .items(\.items),
            .number("elasticity", "UIDynamicItemBehavior.elasticity", \.elasticity, range: L.material, default: 0,
                    doc: "Restitution of collisions (1: no energy lost)."),
            .number("friction", "UIDynamicItemBehavior.friction", \.friction, range: L.material, default: 0,
                    doc: "Coulomb friction between items."),
            .number("density", "UIDynamicItemBehavior.density", \.density, range: L.density, default: 1,
                    doc: "Mass = density × area / 10000."),
            .number("resistance", "UIDynamicItemBehavior.resistance", \.resistance, range: L.material, default: 0,
                    doc: "Linear velocity damping."),
            .number("angularResistance", "UIDynamicItemBehavior.angularResistance", \.angularResistance,
                    range: L.material, default: 0, doc: "Angular velocity damping."),
            .flag("allowsRotation", "UIDynamicItemBehavior.allowsRotation", \.allowsRotation, default: true,
                  doc: "Whether the items turn."),
            .flag("anchored", "UIDynamicItemBehavior.isAnchored", \.anchored, default: false,
                  doc: "Fixes the items in place (they still collide)."),
            .number("charge", "UIDynamicItemBehavior.charge", \.charge, range: L.coordinate, default: 0,
                    doc: "Charge for electric and magnetic fields."),
            .point("linearVelocity", "UIDynamicItemBehavior.addLinearVelocity(_:for:)", \.linearVelocity,
                   range: L.coordinate, default: .zero, settable: false, doc: "Velocity added at the start, points/s."),
            .number("angularVelocity", "UIDynamicItemBehavior.addAngularVelocity(_:for:)", \.angularVelocity,
                    range: L.coordinate, default: 0, settable: false, doc: "Angular velocity added at the start, radians/s."),
        ]
    }()
}
