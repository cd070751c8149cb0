import Foundation
import KineticGeometry

/// A behavior in the animator (UIDynamicBehavior): what it does, and when it is live.
public struct DynamicBehavior: Hashable, Sendable, Identifiable {
    /// The name events and animations use to reach it; unique among live behaviors.
    public var id: String
    /// The behavior is live in `[begin, end)`, in seconds of simulation time.
    public var begin: Double
    public var end: Double
    public var kind: Kind

    public enum Kind: Hashable, Sendable {
        case gravity(GravityBehavior)
        case collision(CollisionBehavior)
        case push(PushBehavior)
        case attachment(AttachmentBehavior)
        case snap(SnapBehavior)
        case itemBehavior(DynamicItemBehavior)
        case field(FieldBehavior)

        /// The kind's name in a scene file and in `DynamicsTable` (`gravity`).
        public var name: String {
            switch self {
            case .gravity: "gravity"
            case .collision: "collision"
            case .push: "push"
            case .attachment: "attachment"
            case .snap: "snap"
            case .itemBehavior: "itemBehavior"
            case .field: "field"
            }
        }
    }

    public init(id: String, begin: Double = 0, end: Double = .infinity, _ kind: Kind) {
        self.id = id
        self.begin = begin
        self.end = end
        self.kind = kind
    }

    /// The ids of the items this behavior acts on.
    public var itemIDs: [String] {
        switch kind {
        case .gravity(let b): return b.items
        case .collision(let b): return b.items
        case .push(let b): return b.items
        case .attachment(let b):
            if case .item(let other, _) = b.attachedTo { return [b.item, other] }
            return [b.item]
        case .snap(let b): return [b.item]
        case .itemBehavior(let b): return b.items
        case .field(let b): return b.items
        }
    }
}

extension DynamicBehavior {
    /// Checks the behavior as the animator will see it: its live interval, and each of
    /// its values against its table (the behavior's own `validate()`). The scene
    /// loader calls it too, so `validate` refuses what a render would. The error's path
    /// is the key (`frequency`, `boundaries.wall`, `region.radius`), without the behavior.
    public func validate() throws(DynamicsError) {
        guard !begin.isNaN, !end.isNaN, begin <= end, begin < .infinity else {
            throw .invalidValue(path: "begin", reason: "begin must be finite and ≤ end")
        }
        switch kind {
        case .gravity(let b): try b.validate()
        case .collision(let b): try b.validate()
        case .push(let b): try b.validate()
        case .attachment(let b): try b.validate()
        case .snap(let b): try b.validate()
        case .itemBehavior(let b): try b.validate()
        case .field(let b): try b.validate()
        }
    }
}
