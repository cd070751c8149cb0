import Foundation
import Testing
@testable import KineticLottie

/// The reduction against hand-computed keyframes and, for curves, by re-evaluating the
/// keyframes at every sampled frame the way a player interpolates them.
struct KeyframeReductionTests {
    @Test func aLinearRampIsTwoKeyframes() {
        let samples = (0...60).map { [Double($0) * 2.5, 100 - Double($0)] }
        let keys = KeyframeReduction.reduce(samples, tolerance: 0.05)
        #expect(keys.count == 2)
        #expect(keys[0] == Keyframe(frame: 0, value: [0, 100], hold: false))
        #expect(keys[1].frame == 60 && keys[1].value == [150, 40])
    }

    @Test func aConstantIsOneKeyframe() {
        let keys = KeyframeReduction.reduce(Array(repeating: [7.0], count: 30), tolerance: 0.05)
        #expect(keys == [Keyframe(frame: 0, value: [7], hold: true)])
    }

    @Test func aStepBecomesAHold() {
        // At rest at 0 for frames 0…9, at 50 from frame 10: Lottie must not slide between.
        let samples = (0..<20).map { [$0 < 10 ? 0.0 : 50.0] }
        let keys = KeyframeReduction.reduce(samples, tolerance: 0.05)
        #expect(keys.map(\.frame) == [0, 9, 10, 19] || keys.map(\.frame) == [0, 9, 10])
        #expect(keys.first { $0.frame == 9 }?.hold == true)
        // Halfway between frames 9 and 10 the player still shows the old value.
        #expect(KeyframeReduction.value(of: keys, at: 9.5) == [0])
        #expect(KeyframeReduction.value(of: keys, at: 15) == [50])
    }

    @Test func fastSteadyMotionIsNotAJump() {
        // 30 points a frame, then at rest: the moving frames interpolate linearly.
        let samples = (0..<10).map { [Double(min($0, 5)) * 30] }
        let keys = KeyframeReduction.reduce(samples, tolerance: 0.05)
        #expect(keys.first { $0.frame == 0 }?.hold == false)
        #expect(KeyframeReduction.value(of: keys, at: 2.5) == [75])
    }

    @Test func aSpringNeedsFewKeyframesAndStaysWithinTolerance() {
        // A damped spring, x(t) = 100 (1 − e^(−ζωt)(cos ω_d t + ζω/ω_d sin ω_d t)), 2 s at 60 fps.
        let omega = 2 * Double.pi * 1.5, zeta = 0.3
        let wd = omega * (1 - zeta * zeta).squareRoot()
        let samples = (0...120).map { f -> [Double] in
            let t = Double(f) / 60
            return [100 * (1 - exp(-zeta * omega * t) * (cos(wd * t) + zeta * omega / wd * sin(wd * t)))]
        }
        let keys = KeyframeReduction.reduce(samples, tolerance: 0.05)
        // Easing must save at least a third of the straight segments.
        let straight = KeyframeReduction.reduce(samples, tolerance: 0.05, easing: false)
        #expect(straight.allSatisfy { $0.ease == nil })
        #expect(Double(keys.count) <= Double(straight.count) * 2 / 3, "\(keys.count) eased vs \(straight.count) straight")
        #expect(keys.count < samples.count / 2)
        for (f, sample) in samples.enumerated() {
            let value = KeyframeReduction.value(of: keys, at: Double(f))
            #expect(abs(value[0] - sample[0]) <= 0.05 + 1e-12, "frame \(f)")
        }
    }

    @Test func aQuadraticEaseInIsOneEasedSegment() {
        // v = 100 t² over 30 frames: a cubic Bezier with control values 0, 0, 100/3·… fits exactly.
        let samples = (0...30).map { [100 * pow(Double($0) / 30, 2)] }
        let keys = KeyframeReduction.reduce(samples, tolerance: 0.05)
        #expect(keys.count == 2)
        // t² as a cubic Bezier from 0 to 1: control values 0 and 1/3.
        #expect(abs((keys[0].ease?.out ?? 9) - 0) < 1e-9 && abs((keys[0].ease?.in ?? 9) - 1.0 / 3) < 1e-9)
    }

    @Test func aVectorEasesWhenItsComponentsMoveTogether() {
        // A point accelerating along a line, (100 t², 50 t² + 10): one eased segment.
        let samples = (0...24).map { f -> [Double] in
            let t = Double(f) / 24
            return [100 * t * t, 50 * t * t + 10]
        }
        let keys = KeyframeReduction.reduce(samples, tolerance: 0.05)
        #expect(keys.count == 2)
        for (f, sample) in samples.enumerated() {
            let value = KeyframeReduction.value(of: keys, at: Double(f))
            #expect(zip(value, sample).allSatisfy { abs($0 - $1) <= 0.05 + 1e-12 }, "frame \(f)")
        }
        // Components that do not share one ease (one accelerates, one brakes) are not eased.
        let crossed = (0...24).map { f -> [Double] in
            let t = Double(f) / 24
            return [100 * t * t, 100 * (1 - (1 - t) * (1 - t))]
        }
        #expect(KeyframeReduction.reduce(crossed, tolerance: 0.05).count > 2)
    }

    @Test func differentStructuresHold() {
        let samples: [[Double]] = [[0, 0], [1, 1], [5, 5, 5, 5], [5, 5, 5, 5]]
        let keys = KeyframeReduction.reduce(samples, tolerance: 0.05)
        #expect(keys.first { $0.frame == 1 }?.hold == true)
        #expect(KeyframeReduction.value(of: keys, at: 1.5) == [1, 1])
    }
}
