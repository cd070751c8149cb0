import Foundation
import KineticGeometry
import Testing
@testable import KineticDynamics

/// Which shapes collide is decided by Chipmunk's shape filters (issue 15), or by the
/// callbacks once the collision groups outgrow a 32-bit mask: both give UIKit's rules.
@Suite struct CollisionFilterTests {
    let bounds = Rect(0, 0, 4000, 400)

    func ball(_ id: String, _ x: Double, _ y: Double) -> DynamicItem {
        DynamicItem(id: id, center: Point(x, y), size: Size(20, 20), collisionBoundsType: .ellipse)
    }

    /// `pairs` pairs of balls, the upper one dropped on the lower, each pair in a
    /// collision behavior of its own with a floor: 2 groups per behavior.
    func pile(pairs: Int, reportsContacts: Bool = true) throws -> DynamicAnimator {
        var items: [DynamicItem] = [], behaviors: [DynamicBehavior] = []
        for k in 0..<pairs {
            let x = 50 + 100 * Double(k)
            items += [ball("low\(k)", x, 280), ball("high\(k)", x, 200)]
            let floor = CollisionBoundary(identifier: "floor\(k)", .line(from: Point(x - 40, 300), to: Point(x + 40, 300)))
            behaviors.append(DynamicBehavior(id: "c\(k)", .collision(CollisionBehavior(items: ["low\(k)", "high\(k)"],
                                                                                      boundaries: [floor]))))
        }
        behaviors.append(DynamicBehavior(id: "g", .gravity(GravityBehavior(items: items.map(\.id)))))
        return try DynamicAnimator(referenceBounds: bounds, items: items, behaviors: behaviors,
                                   reportsContacts: reportsContacts)
    }

    /// The balls of each pair rest stacked on their floor: the lower one's center 10 pt
    /// above it, the upper one's 20 pt above that.
    func expectStacked(_ a: DynamicAnimator, pairs: Int) throws {
        for k in 0..<pairs {
            let low = try #require(a.state(of: "low\(k)")), high = try #require(a.state(of: "high\(k)"))
            #expect(abs(low.center.y - 290) < 1, "pair \(k): \(low.center.y)")
            #expect(abs(high.center.y - 270) < 1, "pair \(k): \(high.center.y)")
        }
    }

    @Test func filtersAndCallbacksGiveTheSameCollisions() throws {
        // 4 behaviors = 8 groups: shape filters. 20 behaviors = 40 groups: callbacks.
        for pairs in [4, 20] {
            let a = try pile(pairs: pairs)
            try a.step(to: 2)
            try expectStacked(a, pairs: pairs)
            let began = a.takeContactEvents().filter { $0.phase == .began }
            // Each ball met its floor or its partner, never a ball of another pair.
            for k in 0..<pairs {
                #expect(began.contains { $0.item == "low\(k)" && $0.other == .boundary("floor\(k)") })
                #expect(began.contains { ($0.item, $0.other) == ("low\(k)", .item("high\(k)"))
                                         || ($0.item, $0.other) == ("high\(k)", .item("low\(k)")) })
            }
            func pair(_ id: String) -> Substring { id.drop { $0.isLetter } }
            #expect(!began.contains { e in
                guard case .item(let other) = e.other else { return false }
                return pair(e.item) != pair(other)
            })
        }
    }

    @Test func withoutContactReportsTheSimulationIsTheSame() throws {
        let reporting = try pile(pairs: 3), silent = try pile(pairs: 3, reportsContacts: false)
        try reporting.step(to: 1.5)
        try silent.step(to: 1.5)
        for item in reporting.items { #expect(reporting.state(of: item.id) == silent.state(of: item.id)) }
        #expect(!reporting.takeContactEvents().isEmpty)
        #expect(silent.takeContactEvents().isEmpty)
    }

    @Test func itemsInNoCollisionBehaviorPassThroughEachOther() throws {
        let a = try DynamicAnimator(referenceBounds: bounds, items: [ball("a", 100, 100), ball("b", 100, 150)], behaviors: [
            DynamicBehavior(id: "g", .gravity(GravityBehavior(items: ["a"]))),
            DynamicBehavior(id: "late", begin: 5, .collision(CollisionBehavior(items: ["a", "b"]))),
        ])
        try a.step(to: 0.5)
        // Free fall through b: y = 100 + ½·1000·0.25.
        // (Fixed steps of 1/240 s lag the exact parabola by g·t·h/2 ≈ 1 pt.)
        #expect(abs((a.state(of: "a")?.center.y ?? 0) - 225) < 2)
        #expect(a.takeContactEvents().isEmpty)
    }

    /// Every behavior key of the table with a range: a value inside is accepted by
    /// `setting(_:to:)`, one outside refused with the table's reason.
    @Test func settersCheckTheTablesRanges() throws {
        let behaviors: [String: DynamicBehavior] = [
            "gravity": DynamicBehavior(id: "t", .gravity(GravityBehavior(items: ["a"]))),
            "push": DynamicBehavior(id: "t", .push(PushBehavior(items: ["a"]))),
            "attachment": DynamicBehavior(id: "t", .attachment(AttachmentBehavior(item: "a", attachedTo: .anchor(.zero)))),
            "snap": DynamicBehavior(id: "t", .snap(SnapBehavior(item: "a", snapPoint: .zero))),
            "itemBehavior": DynamicBehavior(id: "t", .itemBehavior(DynamicItemBehavior(items: ["a"]))),
            "field": DynamicBehavior(id: "t", .field(FieldBehavior(kind: .drag, items: ["a"]))),
        ]
        var checked = 0
        for (kind, behavior) in behaviors {
            for key in DynamicsTable.contexts[kind] ?? [] where key.isSettable && key.kind == .number {
                guard let range = key.range, let lower = range.lowerBound, let upper = range.upperBound,
                      behavior.settableProperties.contains(key.name) else { continue }
                let inside = range.excludesLowerBound ? (lower + min(upper, 1)) / 2 : lower
                _ = try behavior.setting(key.name, to: .number(inside))
                let outside = upper < 1e300 ? upper * 2 + 1 : lower - 1
                #expect(throws: BehaviorPropertyError.self, "\(kind).\(key.name) = \(outside)") {
                    _ = try behavior.setting(key.name, to: .number(outside))
                }
                checked += 1
            }
        }
        #expect(checked >= 15)
        let reason = "must be > 0 and ≤ 1000000, got 2000000 (mass = density × area / 10000 must be positive and finite for Chipmunk)"
        #expect(throws: BehaviorPropertyError.outOfRange("density", reason: reason)) {
            _ = try behaviors["itemBehavior"]?.setting("density", to: .number(2e6))
        }
    }
}
