import Testing
import KineticGeometry
@testable import KineticAnimation

private let base = AnimatableValue.number(100)

private func ends(_ a: BasicAnimation) -> [AnimatableValue]? {
    a.endpoints(base: base).map { [$0.from, $0.to] }
}

@Test func fromToByResolution() {
    #expect(ends(BasicAnimation(from: .number(10), to: .number(20))) == [.number(10), .number(20)])
    #expect(ends(BasicAnimation(from: .number(10), by: .number(5))) == [.number(10), .number(15)])
    #expect(ends(BasicAnimation(to: .number(20), by: .number(5))) == [.number(15), .number(20)])
    #expect(ends(BasicAnimation(from: .number(10))) == [.number(10), .number(100)])
    #expect(ends(BasicAnimation(to: .number(20))) == [.number(100), .number(20)])
    #expect(ends(BasicAnimation(by: .number(5))) == [.number(100), .number(105)])
    #expect(ends(BasicAnimation()) == [.number(100), .number(100)])
    #expect(ends(BasicAnimation(from: .number(1), by: .point(.zero))) == nil)
}

@Test func valueEasesTheProgress() {
    let linear = BasicAnimation(from: .number(10), to: .number(20))
    #expect(linear.value(at: 0.25, base: base) == .number(12.5))
    #expect(linear.value(at: 1, base: base) == .number(20))

    // easeInEaseOut is symmetric, so it passes the midpoint at half time; easeIn lags.
    let eased = BasicAnimation(from: .number(10), to: .number(20), timingFunction: .easeInEaseOut)
    #expect(eased.value(at: 0.5, base: base)?.number.map { abs($0 - 15) < 1e-6 } == true)
    let easeIn = BasicAnimation(from: .number(10), to: .number(20), timingFunction: .easeIn)
    #expect(easeIn.value(at: 0.5, base: base)?.number.map { $0 < 15 } == true)

    let move = BasicAnimation(by: .point(Point(10, -10)))
    #expect(move.value(at: 0.5, base: .point(Point(100, 100))) == .point(Point(105, 95)))
}
