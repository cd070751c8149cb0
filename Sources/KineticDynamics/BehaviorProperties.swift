import Foundation
import KineticGeometry

/// A value given to a behavior property by name (events' `set:`, animations).
public enum BehaviorValue: Hashable, Sendable {
    case number(Double)
    case point(Point)
    case bool(Bool)
}

/// Why a property cannot be set.
public enum BehaviorPropertyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The behavior has no such property; `known` lists those it has.
    case unknownProperty(String, known: [String])
    /// The value is of the wrong kind (`expected` names the kind wanted).
    case wrongValue(String, expected: String)
    /// The value is outside the property's range in `DynamicsSchema` (`reason` says which and why).
    case outOfRange(String, reason: String)

    public var description: String {
        switch self {
        case .unknownProperty(let name, let known):
            return "no property '\(name)' (settable: \(known.joined(separator: ", ")))"
        case .wrongValue(let name, let expected): return "'\(name)' takes \(expected)"
        case .outOfRange(let name, let reason): return "'\(name)' \(reason)"
        }
    }
}

extension DynamicBehavior {
    /// The properties `setting(_:to:)` accepts for this kind of behavior, by UIKit name.
    public var settableProperties: [String] {
        switch kind {
        case .gravity: return ["gravityDirection", "angle", "magnitude"]
        case .collision: return ["translatesReferenceBoundsIntoBoundary"]
        case .push: return ["pushDirection", "angle", "magnitude", "active", "targetOffsetFromCenter"]
        case .attachment: return ["anchorPoint", "length", "frequency", "damping", "frictionTorque"]
        case .snap: return ["snapPoint", "damping"]
        case .itemBehavior:
            return ["elasticity", "friction", "density", "resistance", "angularResistance", "allowsRotation",
                    "anchored", "charge"]
        case .field: return ["position", "strength", "falloff", "minimumRadius", "direction", "smoothness", "animationSpeed"]
        }
    }

    /// This behavior with one property changed (UIKit's setters: `magnitude`, `anchorPoint`,
    /// `active`…), checked as the animator will check it: a value out of its range in
    /// `DynamicsSchema` is refused here, so the loader refuses a `set:` of it with its
    /// location, and a value an expression or animation drives out of range at run time
    /// is skipped like any other refused value, never handed to the animator.
    public func setting(_ property: String, to value: BehaviorValue) throws(BehaviorPropertyError) -> DynamicBehavior {
        func number() throws(BehaviorPropertyError) -> Double {
            guard case .number(let v) = value else { throw .wrongValue(property, expected: "a number") }
            return v
        }
        func point() throws(BehaviorPropertyError) -> Point {
            guard case .point(let v) = value else { throw .wrongValue(property, expected: "a point [x, y]") }
            return v
        }
        func bool() throws(BehaviorPropertyError) -> Bool {
            guard case .bool(let v) = value else { throw .wrongValue(property, expected: "true or false") }
            return v
        }
        let unknown = BehaviorPropertyError.unknownProperty(property, known: settableProperties)
        var b = self
        switch kind {
        case .gravity(var g):
            switch property {
            case "gravityDirection": g.gravityDirection = try point()
            case "angle": g.angle = try number()
            case "magnitude": g.magnitude = try number()
            default: throw unknown
            }
            b.kind = .gravity(g)
        case .collision(var c):
            guard property == "translatesReferenceBoundsIntoBoundary" else { throw unknown }
            c.translatesReferenceBoundsIntoBoundary = try bool()
            b.kind = .collision(c)
        case .push(var p):
            switch property {
            case "pushDirection": p.pushDirection = try point()
            case "angle": p.angle = try number()
            case "magnitude": p.magnitude = try number()
            case "active": p.active = try bool()
            case "targetOffsetFromCenter": p.targetOffsetFromCenter = try point()
            default: throw unknown
            }
            b.kind = .push(p)
        case .attachment(var a):
            switch property {
            case "anchorPoint":
                guard a.anchorPoint != nil else { throw .wrongValue(property, expected: "an item–anchor attachment") }
                a.anchorPoint = try point()
            case "length": a.length = try number()
            case "frequency": a.frequency = try number()
            case "damping": a.damping = try number()
            case "frictionTorque": a.frictionTorque = try number()
            default: throw unknown
            }
            b.kind = .attachment(a)
        case .snap(var s):
            switch property {
            case "snapPoint": s.snapPoint = try point()
            case "damping": s.damping = try number()
            default: throw unknown
            }
            b.kind = .snap(s)
        case .itemBehavior(var ib):
            switch property {
            case "elasticity": ib.elasticity = try number()
            case "friction": ib.friction = try number()
            case "density": ib.density = try number()
            case "resistance": ib.resistance = try number()
            case "angularResistance": ib.angularResistance = try number()
            case "allowsRotation": ib.allowsRotation = try bool()
            case "anchored": ib.anchored = try bool()
            case "charge": ib.charge = try number()
            default: throw unknown
            }
            b.kind = .itemBehavior(ib)
        case .field(var f):
            switch property {
            case "position": f.position = try point()
            case "strength": f.strength = try number()
            case "falloff": f.falloff = try number()
            case "minimumRadius": f.minimumRadius = try number()
            case "direction": f.direction = try point()
            case "smoothness": f.smoothness = try number()
            case "animationSpeed": f.animationSpeed = try number()
            default: throw unknown
            }
            b.kind = .field(f)
        }
        do { try b.validate() } catch {
            guard case .invalidValue(_, let reason) = error else { return b }
            throw .outOfRange(property, reason: reason)
        }
        return b
    }

    /// This behavior without `item` (as UIKit drops a view removed from its superview);
    /// nil when nothing would be left for it to act on.
    public func removingItem(_ item: String) -> DynamicBehavior? {
        var b = self
        switch kind {
        case .gravity(var g): g.items.removeAll { $0 == item }; b.kind = .gravity(g)
        case .collision(var c): c.items.removeAll { $0 == item }; b.kind = .collision(c)
        case .push(var p): p.items.removeAll { $0 == item }; b.kind = .push(p)
        case .itemBehavior(var ib): ib.items.removeAll { $0 == item }; b.kind = .itemBehavior(ib)
        case .field(var f): f.items.removeAll { $0 == item }; b.kind = .field(f)
        case .attachment, .snap: return itemIDs.contains(item) ? nil : self
        }
        return b.itemIDs.isEmpty ? nil : b
    }
}
