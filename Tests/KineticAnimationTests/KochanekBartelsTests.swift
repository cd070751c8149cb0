import Testing
import KineticGeometry
@testable import KineticAnimation

/// `tensionValues`, `continuityValues`, `biasValues` (Kochanek–Bartels) and
/// `calculationMode: cubicPaced`, against hand computations of the Hermite cubic
/// h00·p1 + h10·m1 + h01·p2 + h11·m2 (at s = ½: ½, ⅛, ½, −⅛).
@Suite struct KochanekBartelsTests {
    let numbers: [AnimatableValue] = [.number(0), .number(10), .number(30)]

    func value(_ k: KeyframeAnimation, _ p: Double) -> Double { k.value(at: p)?.number ?? .nan }

    @Test func allZeroIsCatmullRom() {
        let plain = KeyframeAnimation(values: numbers, keyTimes: [0, 0.3, 1], calculationMode: .cubic)
        let zero = KeyframeAnimation(values: numbers, keyTimes: [0, 0.3, 1], calculationMode: .cubic,
                                     tensionValues: [0, 0, 0], continuityValues: [0, 0, 0], biasValues: [0, 0, 0])
        for p in stride(from: 0.0, through: 1, by: 0.05) {
            #expect(abs(value(plain, p) - value(zero, p)) < 1e-12, "p=\(p)")
        }
    }

    @Test func tensionOneStopsAtEveryKey() {
        // Zero tangents: p1 + (p2 − p1)·(3s² − 2s³). Segment 0 at s = ¼: 10·(3/16 − 2/64) = 1.5625.
        let k = KeyframeAnimation(values: [.number(0), .number(10), .number(0)], calculationMode: .cubic,
                                  tensionValues: [1, 1, 1])
        #expect(abs(value(k, 0.125) - 1.5625) < 1e-12)
        #expect(abs(value(k, 0.75) - 5) < 1e-12)
    }

    @Test func biasLeansTheCurveTowardsTheKeyBefore() {
        // Segment 0 of [0, 10, 30], even times: m1 = ½·(0 − 0) + ½·(10 − 0) = 5 (the start
        // repeats). Bias 1 at key 1: m2 = (1+1)/2·(10 − 0) + 0·(30 − 10) = 10 (Catmull-Rom: 15).
        // At s = ½: ⅛·5 + ½·10 − ⅛·10 = 4.375 (Catmull-Rom: 3.75).
        let k = KeyframeAnimation(values: numbers, calculationMode: .cubic, biasValues: [0, 1, 0])
        #expect(abs(value(k, 0.25) - 4.375) < 1e-12)
        let catmullRom = KeyframeAnimation(values: numbers, calculationMode: .cubic)
        #expect(abs(value(catmullRom, 0.25) - 3.75) < 1e-12)
    }

    @Test func continuityMakesACorner() {
        // Continuity 1 at key 1: its incoming tangent is (1−1)/2·(10 − 0) + (1+1)/2·(30 − 10) = 20,
        // so at s = ½: ⅛·5 + ½·10 − ⅛·20 = 3.125; its outgoing one (1+1)/2·10 + 0 = 10.
        let k = KeyframeAnimation(values: numbers, calculationMode: .cubic, continuityValues: [0, 1, 0])
        #expect(abs(value(k, 0.25) - 3.125) < 1e-12)
        // Segment 1 at s = ½: m1 = 10, m2 = ½·(30 − 10) + ½·0 = 10: 20 + ⅛·10 − ⅛·10 = 20.
        #expect(abs(value(k, 0.75) - 20) < 1e-12)
    }

    @Test func parameterCountsMustMatchTheValues() {
        let k = KeyframeAnimation(values: numbers, calculationMode: .cubic, tensionValues: [0, 0])
        #expect(throws: KeyframeAnimation.ValidationError.splineParameterCountMismatch(name: "tensionValues", expected: 3, got: 2)) {
            try k.validate()
        }
    }

    @Test func cubicPacedMovesAtConstantSpeed() {
        // An L, symmetric about its corner: halfway in time is the corner, and the speed
        // along the curve is the same everywhere.
        let k = KeyframeAnimation(values: [.point(Point(0, 0)), .point(Point(100, 0)), .point(Point(100, 100))],
                                  keyTimes: [0, 0.9, 1], calculationMode: .cubicPaced)
        let mid = k.value(at: 0.5)?.point
        #expect(mid.map { $0.distance(to: Point(100, 0)) < 1e-6 } == true)
        let d = 0.01
        var speeds: [Double] = []
        for p in stride(from: 0.0, to: 0.99, by: 0.05) {
            guard let a = k.value(at: p)?.point, let b = k.value(at: p + d)?.point else { continue }
            speeds.append(a.distance(to: b) / d)
        }
        let lo = speeds.min() ?? 0, hi = speeds.max() ?? .infinity
        #expect(speeds.count == 20 && (hi - lo) / hi < 0.01, "speeds \(lo)…\(hi)")
        // A plain cubic through the same keys is far from constant speed.
        let cubic = KeyframeAnimation(values: k.values, calculationMode: .cubic)
        let slow = cubic.value(at: 0.01)?.point.map { $0.distance(to: .zero) / 0.01 } ?? 0
        #expect(slow < 0.8 * lo)
    }

    @Test func cubicPacedOnMonotoneNumbersIsLinearInTime() {
        // Constant speed along a line: value = 3·p whatever the spacing of the keys.
        let k = KeyframeAnimation(values: [.number(0), .number(1), .number(3)], calculationMode: .cubicPaced)
        for p in [0.1, 0.3, 0.5, 0.7, 0.9] {
            #expect(abs(value(k, p) - 3 * p) < 1e-3, "p=\(p): \(value(k, p))")
        }
    }
}
