import Foundation
import Testing
import KineticGeometry
@testable import KineticAnimation

/// CAKeyframeAnimation with a path: key times fall on the path's vertices (its start and
/// every drawn segment's end), timing functions ease each segment.
@Suite struct PathKeyframeAnimationTests {
    /// Three legs: right 100, down 100, left 100.
    let square = BezierPath([.move(to: Point(0, 0)), .line(to: Point(100, 0)), .line(to: Point(100, 100)),
                             .line(to: Point(0, 100))])

    func near(_ p: Point?, _ x: Double, _ y: Double, _ tol: Double = 1e-9) -> Bool {
        guard let p else { return false }
        return abs(p.x - x) <= tol && abs(p.y - y) <= tol
    }

    /// y of the cubic Bezier (0,0) c1 c2 (1,1) at x, by bisection on the parameter
    /// (independent of `TimingFunction`).
    func bezierY(_ x: Double, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> Double {
        func bx(_ s: Double) -> Double { 3 * (1 - s) * (1 - s) * s * c1x + 3 * (1 - s) * s * s * c2x + s * s * s }
        func by(_ s: Double) -> Double { 3 * (1 - s) * (1 - s) * s * c1y + 3 * (1 - s) * s * s * c2y + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 { let mid = (lo + hi) / 2; if bx(mid) < x { lo = mid } else { hi = mid } }
        return by((lo + hi) / 2)
    }

    @Test func verticesAreTheStartAndEverySegmentsEnd() {
        // A close draws back to its subpath's start; the move between subpaths draws nothing.
        let path = BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 0)), .close,
                               .move(to: Point(50, 50)), .quadCurve(to: Point(70, 50), control: Point(60, 40))])
        let k = PathKeyframeAnimation(path: path)
        #expect(k.segments.count == 3)
        #expect(k.vertices == [Point(0, 0), Point(10, 0), Point(0, 0), Point(70, 50)])
        #expect(k.segments[2].start == Point(50, 50))
        #expect(square.elements.count == 4 && PathKeyframeAnimation(path: square).vertices.count == 4)
    }

    @Test func keyTimesGiveTheTimeEachVertexIsReached() {
        let k = PathKeyframeAnimation(path: square, keyTimes: [0, 0.5, 0.6, 1])
        #expect(near(k.point(at: 0)?.point, 0, 0))
        #expect(near(k.point(at: 0.25)?.point, 50, 0))          // half-way along the first leg
        #expect(near(k.point(at: 0.5)?.point, 100, 0))          // the first leg's end at 0.5
        #expect(near(k.point(at: 0.55)?.point, 100, 50))
        #expect(near(k.point(at: 0.6)?.point, 100, 100))        // the second leg's end at 0.6
        #expect(near(k.point(at: 0.8)?.point, 50, 100))
        #expect(near(k.point(at: 1)?.point, 0, 100))
        // The direction of travel: right, then down (from the vertex on), then left.
        #expect(abs((k.point(at: 0.25)?.tangentAngle ?? 9) - 0) < 1e-12)
        #expect(abs((k.point(at: 0.5)?.tangentAngle ?? 9) - .pi / 2) < 1e-12)
        #expect(abs(abs(k.point(at: 0.8)?.tangentAngle ?? 9) - .pi) < 1e-12)
        // Progress outside 0…1 (a spring's overshoot) stays on the path's ends.
        #expect(near(k.point(at: 1.2)?.point, 0, 100))
        #expect(near(k.point(at: -0.1)?.point, 0, 0))
    }

    @Test func withinASegmentTheSpeedIsConstantAlongACurve() throws {
        // A symmetric arch: half its time reaches the apex (50, 75), the arc's midpoint.
        let arch = BezierPath([.move(to: Point(0, 0)),
                               .curve(to: Point(100, 0), control1: Point(0, 100), control2: Point(100, 100)),
                               .line(to: Point(200, 0))])
        let k = PathKeyframeAnimation(path: arch, keyTimes: [0, 0.8, 1])
        #expect(near(k.point(at: 0.4)?.point, 50, 75, 1e-9))
        #expect(near(k.point(at: 0.8)?.point, 100, 0))
        #expect(near(k.point(at: 0.9)?.point, 150, 0))
        // Equal times cover equal arc lengths on the curve: a quarter of it at 0.2.
        let quarter = try #require(k.point(at: 0.2)?.point)
        let arcToQuarter = BezierPath([.move(to: Point(0, 0)),
                                       .curve(to: Point(100, 0), control1: Point(0, 100), control2: Point(100, 100))])
        let expected = try #require(arcToQuarter.point(atLength: arcToQuarter.length / 4)?.point)
        #expect(near(quarter, expected.x, expected.y, 1e-9))
    }

    @Test func timingFunctionsEaseEachSegment() {
        let k = PathKeyframeAnimation(path: square, keyTimes: [0, 0.5, 0.6, 1],
                                      timingFunctions: [.easeIn, .linear, .cubicBezier(0.2, 0.9, 0.3, 1)])
        // Half the first leg's time: easeIn has covered bezierY(0.5) of it, less than half.
        let eased = bezierY(0.5, 0.42, 0, 1, 1)
        #expect(eased < 0.4)
        #expect(near(k.point(at: 0.25)?.point, 100 * eased, 0, 1e-4))   // TimingFunction solves to 1e-7
        // The vertices are still reached at their key times.
        #expect(near(k.point(at: 0.5)?.point, 100, 0))
        #expect(near(k.point(at: 0.55)?.point, 100, 50, 1e-6))   // the linear leg
        #expect(near(k.point(at: 0.6)?.point, 100, 100))
        let late = bezierY(0.5, 0.2, 0.9, 0.3, 1)
        #expect(near(k.point(at: 0.8)?.point, 100 - 100 * late, 100, 1e-4))
        // Without key times the segments share the time evenly, each still eased.
        let even = PathKeyframeAnimation(path: square, timingFunctions: [.easeIn, .easeIn, .easeIn])
        #expect(near(even.point(at: 0.5)?.point, 100, 100 * eased, 1e-4))
        #expect(near(even.point(at: 2.0 / 3)?.point, 100, 100, 1e-9))
    }

    @Test func withoutKeyTimesEverySegmentTakesTheSameTime() {
        let plain = PathKeyframeAnimation(path: square)
        let explicit = PathKeyframeAnimation(path: square, keyTimes: [0, 1.0 / 3, 2.0 / 3, 1])
        for p in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(plain.point(at: p)?.point == square.point(atSegmentProgress: p)?.point)
            #expect(near(explicit.point(at: p)?.point, plain.point(at: p)?.point.x ?? .nan,
                         plain.point(at: p)?.point.y ?? .nan, 1e-9))
        }
    }

    @Test func discreteHoldsEachVertex() {
        let k = PathKeyframeAnimation(path: square, keyTimes: [0, 0.1, 0.5, 0.9], calculationMode: .discrete)
        #expect(near(k.point(at: 0.05)?.point, 0, 0))
        #expect(near(k.point(at: 0.3)?.point, 100, 0))
        #expect(near(k.point(at: 0.7)?.point, 100, 100))
        #expect(near(k.point(at: 0.95)?.point, 0, 100))
        // Facing the way the path arrives: down at (100, 100).
        #expect(abs((k.point(at: 0.7)?.tangentAngle ?? 9) - .pi / 2) < 1e-12)
        // Evenly spaced by default: four vertices, a quarter each.
        let even = PathKeyframeAnimation(path: square, calculationMode: .discrete)
        #expect(near(even.point(at: 0.24)?.point, 0, 0))
        #expect(near(even.point(at: 0.26)?.point, 100, 0))
        #expect(near(even.point(at: 0.76)?.point, 0, 100))
    }

    @Test func pacedIgnoresKeyTimesAndTimingFunctions() {
        let paced = PathKeyframeAnimation(path: square, calculationMode: .paced)
        let ignoring = PathKeyframeAnimation(path: square, keyTimes: [0, 0.9, 0.95, 1], timingFunctions: [.easeIn],
                                             calculationMode: .paced)
        #expect((try? ignoring.validate()) != nil)
        for p in [0.1, 0.5, 0.7] {
            #expect(ignoring.point(at: p)?.point == paced.point(at: p)?.point)
        }
        #expect(near(paced.point(at: 0.5)?.point, 100, 50))
    }

    @Test func validationCountsVerticesAndSegments() {
        func error(_ k: PathKeyframeAnimation) -> KeyframeAnimation.ValidationError? {
            do { try k.validate(); return nil } catch { return error }
        }
        #expect(error(PathKeyframeAnimation(path: square, keyTimes: [0, 0.5, 1])) == .keyTimesCountMismatch(expected: 4, got: 3))
        #expect(error(PathKeyframeAnimation(path: square, timingFunctions: [.linear, .linear]))
                == .timingFunctionsCountMismatch(expected: 3, got: 2))
        #expect(error(PathKeyframeAnimation(path: square, keyTimes: [0, 0.6, 0.5, 1])) == .keyTimesDecreasing(index: 2))
        #expect(error(PathKeyframeAnimation(path: square, keyTimes: [0.1, 0.2, 0.5, 1])) == .keyTimesMustStartAtZero(got: 0.1))
        #expect(error(PathKeyframeAnimation(path: square, keyTimes: [0, 0.2, 0.5, 0.9])) == .keyTimesMustEndAtOne(got: 0.9))
        #expect(error(PathKeyframeAnimation(path: square, keyTimes: [0, 0.2, 1.5, 1])) == .keyTimeOutOfRange(index: 2, value: 1.5))
        // Discrete: one key time per vertex, or one more (Apple's documented form).
        #expect(error(PathKeyframeAnimation(path: square, keyTimes: [0, 0.2, 0.5, 0.7, 1], calculationMode: .discrete)) == nil)
        #expect(error(PathKeyframeAnimation(path: square, keyTimes: [0, 0.5, 1], calculationMode: .discrete))
                == .keyTimesCountMismatch(expected: 5, got: 3))
        #expect(error(PathKeyframeAnimation(path: BezierPath([.move(to: .zero)]))) == .noValues)
        // An invalid animation gives no point rather than a wrong one.
        #expect(PathKeyframeAnimation(path: square, keyTimes: [0, 1]).point(at: 0.5) == nil)
    }
}
