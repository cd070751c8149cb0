import Testing
import KineticGeometry
@testable import KineticAnimation

private func number(_ v: AnimatableValue?) -> Double? { v?.number }
private func close(_ a: Double?, _ b: Double, _ tol: Double = 1e-9) -> Bool { a.map { abs($0 - b) < tol } ?? false }

@Test func linearWithKeyTimes() {
    let k = KeyframeAnimation(values: [.number(0), .number(10), .number(20)], keyTimes: [0, 0.2, 1])
    #expect(close(number(k.value(at: 0.1)), 5))
    #expect(close(number(k.value(at: 0.2)), 10))
    #expect(close(number(k.value(at: 0.6)), 15))
    #expect(close(number(k.value(at: 1)), 20))
    let even = KeyframeAnimation(values: [.number(0), .number(10), .number(40)])
    #expect(close(number(even.value(at: 0.75)), 25))
}

@Test func perSegmentTimingFunctions() {
    let k = KeyframeAnimation(values: [.number(0), .number(10), .number(20)], keyTimes: [0, 0.2, 1],
                              timingFunctions: [.easeInEaseOut, .linear])
    #expect(close(number(k.value(at: 0.1)), 5, 1e-6))      // symmetric curve: midpoint at half time
    #expect(number(k.value(at: 0.05)).map { $0 < 2.5 } == true)
    #expect(close(number(k.value(at: 0.6)), 15))
}

@Test func discreteHoldsEachValue() {
    let values: [AnimatableValue] = [.number(1), .number(2), .number(3)]
    let even = KeyframeAnimation(values: values, calculationMode: .discrete)
    #expect(number(even.value(at: 0.32)) == 1)
    #expect(number(even.value(at: 0.34)) == 2)
    #expect(number(even.value(at: 0.99)) == 3)
    #expect(number(even.value(at: 1)) == 3)
    // Apple's documented form: one more key time than values.
    let documented = KeyframeAnimation(values: values, keyTimes: [0, 0.5, 0.75, 1], calculationMode: .discrete)
    #expect(number(documented.value(at: 0.6)) == 2)
    #expect(number(documented.value(at: 0.8)) == 3)
    #expect(number(documented.value(at: 1)) == 3)
    // Equal counts: the last value holds from its key time to the end.
    let equal = KeyframeAnimation(values: values, keyTimes: [0, 0.25, 0.75], calculationMode: .discrete)
    #expect(number(equal.value(at: 0.5)) == 2)
    #expect(number(equal.value(at: 0.8)) == 3)
}

@Test func pacedMovesAtConstantSpeed() {
    // Legs of 10, 100 and 10 points: evenly spaced key times would cross the long leg
    // ten times faster.
    let points = [Point(0, 0), Point(10, 0), Point(10, 100), Point(0, 100)]
    let k = KeyframeAnimation(values: points.map { .point($0) }, keyTimes: [0, 0.9, 0.95, 1], calculationMode: .paced)
    // Distance travelled along the polyline to a point on it: the leg it lies on, plus
    // the way along that leg.
    func arcPosition(_ p: Point) -> Double? {
        var before = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            let leg = a.distance(to: b)
            if abs(a.distance(to: p) + p.distance(to: b) - leg) < 1e-9 { return before + a.distance(to: p) }
            before += leg
        }
        return nil
    }
    let n = 1000
    let total = 120.0
    var previous = 0.0
    for i in 1...n {
        guard let p = k.value(at: Double(i) / Double(n))?.point, let s = arcPosition(p) else {
            Issue.record("off the polyline at \(i)"); return
        }
        let speed = (s - previous) * Double(n)
        #expect(abs(speed - total) / total < 0.01, "at \(i)")
        previous = s
    }
    #expect(k.pacedKeyTimes.map { zip($0, [0, 10.0 / 120, 110.0 / 120, 1]).allSatisfy { abs($0 - $1) < 1e-12 } } == true)
}

@Test func linearBlendsEachPairAsLerpDoes() throws {
    // Flattened all at once, the z angles unwrap along the list (0, 3, 3.78, 6); pair by pair the
    // last segment runs −2.5 → −0.28: the same turn in other Doubles. A validated animation keeps
    // each pair's form, so its values are bit for bit Interpolation.lerp's.
    let values: [AnimatableValue] = [0, 3, -2.5, 6].map { .transform(.rotation($0, 0, 0, 1)) }
    let k = try KeyframeAnimation.Validated(KeyframeAnimation(values: values, keyTimes: [0, 0.25, 0.5, 1]))
    for (p, i, s) in [(0.125, 0, 0.5), (0.3125, 1, 0.25), (0.875, 2, 0.75)] {
        #expect(k.value(at: p) == Interpolation.lerp(values[i], values[i + 1], s), "at \(p)")
    }
}

@Test func cubicPassesThroughValuesSmoothly() {
    let k = KeyframeAnimation(values: [.number(0), .number(10), .number(0)], calculationMode: .cubic)
    #expect(close(number(k.value(at: 0)), 0))
    #expect(close(number(k.value(at: 0.5)), 10))
    // Hermite on the first segment with tangents (10 − 0)/2 = 5 and (0 − 0)/2 = 0 at s = ½:
    // ½·0 + ⅛·5 + ½·10 − ⅛·0 = 5.625.
    #expect(close(number(k.value(at: 0.25)), 5.625))
    // Evenly spaced collinear values stay linear on inner segments.
    let line = KeyframeAnimation(values: [0, 10, 20, 30].map { .number($0) }, calculationMode: .cubic)
    #expect(close(number(line.value(at: 0.5)), 15))
}

@Test func cubicVelocityIsContinuousAtUnevenKeyTimes() {
    let k = KeyframeAnimation(values: [.number(0), .number(10), .number(40), .number(0)],
                              keyTimes: [0, 0.1, 0.7, 1], calculationMode: .cubic)
    for key in [0.1, 0.7] {
        let h = 1e-6
        guard let before = number(k.value(at: key - h)), let at = number(k.value(at: key)),
              let after = number(k.value(at: key + h)) else { Issue.record("no value"); return }
        let left = (at - before) / h, right = (after - at) / h
        #expect(abs(left - right) < 1e-3 * max(1, abs(left)), "at \(key)")
    }
}

@Test func validationReportsTypedErrors() {
    let three: [AnimatableValue] = [.number(0), .number(1), .number(2)]
    func error(_ k: KeyframeAnimation) -> KeyframeAnimation.ValidationError? {
        do { try k.validate(); return nil } catch { return error }
    }
    #expect(error(KeyframeAnimation(values: three)) == nil)
    #expect(error(KeyframeAnimation(values: [])) == .noValues)
    #expect(error(KeyframeAnimation(values: three, keyTimes: [0, 1])) == .keyTimesCountMismatch(expected: 3, got: 2))
    #expect(error(KeyframeAnimation(values: three, keyTimes: [0, 1], calculationMode: .discrete))
            == .keyTimesCountMismatch(expected: 4, got: 2))
    #expect(error(KeyframeAnimation(values: three, keyTimes: [0.1, 0.5, 1])) == .keyTimesMustStartAtZero(got: 0.1))
    #expect(error(KeyframeAnimation(values: three, keyTimes: [0, 0.5, 0.9])) == .keyTimesMustEndAtOne(got: 0.9))
    #expect(error(KeyframeAnimation(values: three, keyTimes: [0, 0.6, 0.5, 1], calculationMode: .discrete))
            == .keyTimesDecreasing(index: 2))
    #expect(error(KeyframeAnimation(values: three, keyTimes: [0, 1.5, 1])) == .keyTimeOutOfRange(index: 1, value: 1.5))
    #expect(error(KeyframeAnimation(values: three, timingFunctions: [.easeIn]))
            == .timingFunctionsCountMismatch(expected: 2, got: 1))
    #expect(error(KeyframeAnimation(values: [.number(0), .point(.zero)]))
            == .mixedValueKinds(index: 1, expected: .number, got: .point))
    #expect(error(KeyframeAnimation(values: [.numbers([1]), .numbers([1]), .numbers([1, 2])])) == .incompatibleValues(index: 2))
    #expect(error(KeyframeAnimation(values: [.transform(.identity), .transform(.identity)], calculationMode: .paced))
            == .notMeasurable(.transform))
    // Paced ignores key times, however wrong.
    #expect(error(KeyframeAnimation(values: three, keyTimes: [0.5], calculationMode: .paced)) == nil)
    #expect(KeyframeAnimation(values: three, keyTimes: [0, 1]).value(at: 0.5) == nil)
}

@Test func timingIsCheckedWithoutTheValues() {
    // For values not known yet (a scene's expressions): their count and kind suffice.
    func error(_ k: KeyframeAnimation, count: Int, kind: AnimatableValue.Kind) -> KeyframeAnimation.ValidationError? {
        do { try k.validateTiming(count: count, kind: kind); return nil } catch { return error }
    }
    #expect(error(KeyframeAnimation(values: [], keyTimes: [0, 0.5, 1]), count: 3, kind: .number) == nil)
    #expect(error(KeyframeAnimation(values: [], keyTimes: [0, 1]), count: 3, kind: .point)
            == .keyTimesCountMismatch(expected: 3, got: 2))
    #expect(error(KeyframeAnimation(values: [], calculationMode: .cubicPaced), count: 2, kind: .transform)
            == .notMeasurable(.transform))
    #expect(error(KeyframeAnimation(values: [], calculationMode: .paced), count: 2, kind: .size) == nil)
}
