import Foundation
import KineticGeometry
import Testing
@testable import KineticDynamics

/// Which item or behavior an animator's error is about, from the errors it really throws,
/// so a scene can print them at the place they were written (issue 13).
@Suite struct DynamicsErrorSubjectTests {
    let bounds = Rect(0, 0, 100, 100)
    /// A pin 100 pt from the center of an item 0.01 pt wide: no solver can hold it.
    let farPin = AttachmentBehavior(kind: .pin, item: "b.all", offsetFromCenter: Point(100, 0), attachedTo: .anchor(Point(50, 0)))
    let joint = "an attach point this far from so small an item cannot be solved; attach nearer the item"

    func error(_ body: () throws(DynamicsError) -> Void) -> DynamicsError? {
        do { try body(); return nil } catch { return error }
    }

    @Test func anUnsolvableJointIsAboutItsBehaviorEvenWithDotsInItsId() throws {
        let tiny = DynamicItem(id: "b.all", center: Point(50, 50), size: Size(0.01, 0.01))
        let animator = try DynamicAnimator(referenceBounds: bounds, items: [tiny],
                                           behaviors: [DynamicBehavior(id: "dynamics.behaviors[1]", .attachment(farPin))])
        let e = try #require(error { () throws(DynamicsError) in try animator.step(to: 0.1) })
        let subject = e.subject(isItem: { $0 == "b.all" }, isBehavior: { $0 == "dynamics.behaviors[1]" || $0 == "dynamics" })
        #expect(subject == .behavior("dynamics.behaviors[1]"))
        #expect(e.detail(about: .behavior("dynamics.behaviors[1]")) == joint)
        #expect(e.description == "behavior dynamics.behaviors[1]: \(joint)")
    }

    @Test func aDegenerateItemKeepsTheKeyAfterItsId() {
        let flat = DynamicItem(id: "a.b", center: Point(50, 50), size: Size(0, 10))
        let e = error { () throws(DynamicsError) in _ = try DynamicAnimator(referenceBounds: bounds, items: [flat]) }
        let subject = e?.subject(isItem: { $0 == "a.b" || $0 == "a" }, isBehavior: { _ in true })
        #expect(subject == DynamicsError.Subject.item("a.b"))
        #expect(e?.detail(about: .item("a.b")) == "size: each side must be 0.001…10000000 pt, got 0.0×10.0")
        // An id the caller does not know names nothing.
        #expect(e?.subject(isItem: { _ in false }, isBehavior: { _ in true }) == nil)
    }

    @Test func aBlowUpIsAboutItsItemAndKeepsItsWholeMessage() throws {
        let tiny = DynamicItem(id: "ball", center: Point(50, 50), size: Size(0.01, 0.01))
        let push = PushBehavior(items: ["ball"], mode: .continuous, pushDirection: Point(1e7, 0))
        let animator = try DynamicAnimator(referenceBounds: bounds, items: [tiny],
                                           behaviors: [DynamicBehavior(id: "p", .push(push))])
        let e = try #require(error { () throws(DynamicsError) in try animator.step(to: 1) })
        guard case .nonFiniteState = e else { Issue.record("\(e)"); return }
        #expect(e.subject(isItem: { _ in false }, isBehavior: { _ in false }) == .item("ball"))
        #expect(e.detail(about: .item("ball")) == e.description)
    }

    @Test func theAnimatorsOwnSettingsAreAboutNothing() {
        let e = error { () throws(DynamicsError) in _ = try DynamicAnimator(referenceBounds: bounds, stepsPerSecond: 0, items: []) }
        #expect(e?.subject(isItem: { _ in true }, isBehavior: { _ in true }) == nil)
        #expect(DynamicsError.unknownItem(behavior: "g", item: "x").subject(isItem: { _ in true }, isBehavior: { _ in true })
                == .behavior("g"))
    }
}
