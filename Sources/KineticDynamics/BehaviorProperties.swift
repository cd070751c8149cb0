import Foundation
import KineticGeometry

/// A value given to a behavior property: by the scene file, events' `set:`, animations.
public enum BehaviorValue: Hashable, Sendable {
    case number(Double)
    case point(Point)
    case bool(Bool)
    /// One of a choice's names (`collisionMode: items`).
    case name(String)
    /// A fixed-length list of numbers (`insets`).
    case numbers([Double])
    /// Layer ids (a behavior's `items`).
    case names([String])
    /// A rect (a field's `region.rect`, the `referenceBounds`).
    case rect(Rect)
    /// A path (a collision boundary's).
    case path(BezierPath)

    /// The payload of one case; nil for the others.
    var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    var pointValue: Point? { if case .point(let p) = self { p } else { nil } }
    var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    var nameValue: String? { if case .name(let n) = self { n } else { nil } }
    var namesValue: [String]? { if case .names(let n) = self { n } else { nil } }
    var rectValue: Rect? { if case .rect(let r) = self { r } else { nil } }
    var pathValue: BezierPath? { if case .path(let p) = self { p } else { nil } }
}

/// Why a property cannot be set.
public enum BehaviorPropertyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The behavior has no such property; `known` lists those it has.
    case unknownProperty(String, known: [String])
    /// The value is of the wrong kind (`expected` names the kind wanted).
    case wrongValue(String, expected: String)
    /// The value is outside the property's range in its table (`reason` says which and why).
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
    /// The properties `setting(_:to:)` accepts for this kind of behavior, by UIKit name:
    /// its table's settable entries.
    public var settableProperties: [String] { settable.map(\.name) }

    /// The kind of value a settable property takes (`.point` for `anchorPoint`); nil
    /// when this kind of behavior has no such settable property.
    public func settableKind(of property: String) -> PropertyKind? {
        settable.first { $0.name == property }?.kind
    }

    /// The settable entries of this kind's table.
    private var settable: [DynamicsProperty<Void>] {
        (DynamicsTable.contexts[kind.name] ?? []).filter(\.isSettable)
    }

    /// This behavior with one property changed (UIKit's setters: `magnitude`, `anchorPoint`,
    /// `active`…), checked as the animator will check it: a value out of its table's
    /// range is refused here, so the loader refuses a `set:` of it with its location, and
    /// a value an expression or animation drives out of range at run time is skipped like
    /// any other refused value, never handed to the animator.
    public func setting(_ property: String, to value: BehaviorValue) throws(BehaviorPropertyError) -> DynamicBehavior {
        var b = self
        switch kind {
        case .gravity(let g): b.kind = .gravity(try Self.setting(property, of: g, to: value, GravityBehavior.properties))
        case .collision(let c): b.kind = .collision(try Self.setting(property, of: c, to: value, CollisionBehavior.properties))
        case .push(let p): b.kind = .push(try Self.setting(property, of: p, to: value, PushBehavior.properties))
        case .attachment(let a): b.kind = .attachment(try Self.setting(property, of: a, to: value, AttachmentBehavior.properties))
        case .snap(let s): b.kind = .snap(try Self.setting(property, of: s, to: value, SnapBehavior.properties))
        case .itemBehavior(let i):
            b.kind = .itemBehavior(try Self.setting(property, of: i, to: value, DynamicItemBehavior.properties))
        case .field(let f): b.kind = .field(try Self.setting(property, of: f, to: value, FieldBehavior.properties))
        }
        do { try b.validate() } catch {
            guard case .invalidValue(_, let reason) = error else { return b }
            throw .outOfRange(property, reason: reason)
        }
        return b
    }

    /// `object` with its settable `property` of `table` set to `value`.
    private static func setting<O>(_ property: String, of object: O, to value: BehaviorValue,
                                   _ table: [DynamicsProperty<O>]) throws(BehaviorPropertyError) -> O {
        guard let entry = table.first(where: { $0.isSettable && $0.name == property }) else {
            throw .unknownProperty(property, known: table.filter(\.isSettable).map(\.name))
        }
        if let requirement = entry.refusal?(object) { throw .wrongValue(property, expected: requirement) }
        var o = object
        guard entry.assign(value, to: &o) else {
            let expected = switch entry.kind {
            case .point: "a point [x, y]"
            case .bool: "true or false"
            default: "a number"
            }
            throw .wrongValue(property, expected: expected)
        }
        return o
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
