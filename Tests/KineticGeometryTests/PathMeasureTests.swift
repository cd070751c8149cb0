import Foundation
import Testing
@testable import KineticGeometry

@Suite struct PathMeasureTests {
    /// Closed-form length of the quadratic Bézier p0, c, p1. With B′(t) = A t + B,
    /// |B′| = √aa·√((t + β)² + κ), β = ab/aa, κ = bb/aa − β², whose antiderivative is
    /// ½[(t + β)√(…) + κ·ln(t + β + √(…))].
    func quadraticLength(_ p0: Point, _ c: Point, _ p1: Point) -> Double {
        let a = (p1 - c * 2 + p0) * 2, b = (c - p0) * 2
        let aa = a.dot(a), beta = a.dot(b) / aa, kappa = b.dot(b) / aa - beta * beta
        func f(_ t: Double) -> Double {
            let r = ((t + beta) * (t + beta) + kappa).squareRoot()
            return 0.5 * ((t + beta) * r + kappa * log(t + beta + r))
        }
        return aa.squareRoot() * (f(1) - f(0))
    }

    @Test func quadraticLengthMatchesClosedForm() {
        let (p0, c, p1) = (Point(0, 0), Point(50, 100), Point(100, 10))
        let path = BezierPath([.move(to: p0), .quadCurve(to: p1, control: c)])
        let exact = quadraticLength(p0, c, p1)
        #expect(abs(path.length - exact) < 1e-9 * exact)
    }

    @Test func unevenlyParameterisedStraightCubicHasItsChordLength() {
        // Collinear controls bunched near one end: speed varies wildly, length is 100.
        let path = BezierPath([.move(to: Point(0, 0)),
                               .curve(to: Point(60, 80), control1: Point(57, 76), control2: Point(3, 4))])
        #expect(abs(path.length - 100) < 1e-9)
    }

    @Test func cubicWithACuspHasItsClosedFormLength() {
        // B′(t) = 300(1 − 2t)·(1 − 2t, 1): a cusp at t = ½; with u = 1 − 2t the length is
        // 300∫₀¹ u√(u² + 1) du = 100(2√2 − 1).
        let path = BezierPath([.move(to: Point(0, 0)),
                               .curve(to: Point(100, 0), control1: Point(100, 100), control2: Point(0, 100))])
        let exact = 100 * (2 * 2.0.squareRoot() - 1)
        #expect(abs(path.length - exact) < 1e-9 * exact)
        // Half the length is reached exactly at the cusp, (50, 75).
        #expect(near(path.point(atLength: exact / 2)?.point, Point(50, 75), 1e-6))
    }

    @Test func lengthCountsCloseSegmentsAndAllSubpaths() {
        let path = BezierPath([.move(to: Point(0, 0)), .line(to: Point(3, 0)), .line(to: Point(3, 4)), .close,
                               .move(to: Point(100, 100)), .line(to: Point(100, 110))])
        #expect(path.length == 3 + 4 + 5 + 10)
    }

    @Test func boundingBoxIsTightAroundCurveExtrema() {
        // A symmetric cubic bulging up: its top is at t = ½, y = ¾ of the control height.
        let path = BezierPath([.move(to: Point(0, 0)),
                               .curve(to: Point(100, 0), control1: Point(0, -40), control2: Point(100, -40))])
        let box = path.boundingBox
        #expect(box.minX == 0 && box.maxX == 100 && box.maxY == 0)
        #expect(abs(box.minY - (-30)) < 1e-12)
        // x(t) = 180t(1 − t) + 60t² peaks past the end point: x′ = 180 − 240t = 0 at
        // t = ¾, x = 67.5.
        let quad = BezierPath([.move(to: Point(0, 0)), .quadCurve(to: Point(60, 20), control: Point(90, 10))])
        #expect(abs(quad.boundingBox.maxX - 67.5) < 1e-12)
        #expect(BezierPath().boundingBox == .zero)
    }

    @Test func flattenedStaysWithinToleranceAndClosesClosedSubpaths() {
        let r = 40.0
        let circle = BezierPath.oval(in: Rect(-r, -r, 2 * r, 2 * r))
        let lines = BezierPath([.move(to: Point(0, 0)), .line(to: Point(5, 0))])
        let polylines = BezierPath(circle.elements + lines.elements).flattened(tolerance: 0.01)
        #expect(polylines.count == 2)
        #expect(polylines.last == [Point(0, 0), Point(5, 0)])
        let ring = polylines[0]
        #expect(ring.first == Point(r, 0) && ring.last == Point(r, 0))
        // The oval's zero-length close adds no repeated point.
        #expect(zip(ring, ring.dropFirst()).allSatisfy { $0 != $1 })
        // Chord midpoints stay within the tolerance plus the cubics' own 2.7e-4·r
        // departure from the circle.
        let slack = 0.01 + 2.8e-4 * r
        for (a, b) in zip(ring, ring.dropFirst()) {
            #expect(abs(((a + b) / 2).length - r) <= slack)
        }
    }

    @Test func pointAtLengthOnLinesAndClampsOutsideTheRange() {
        let path = BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10))])
        let a = path.point(atLength: 5)
        #expect(a?.point == Point(5, 0) && a?.tangentAngle == 0)
        let b = path.point(atLength: 15)
        // Going down the screen (+y) is +π/2.
        #expect(b?.point == Point(10, 5) && b.map { abs($0.tangentAngle - .pi / 2) < 1e-15 } == true)
        #expect(path.point(atLength: -3)?.point == Point(0, 0))
        #expect(path.point(atLength: 99)?.point == Point(10, 10))
        #expect(BezierPath([.move(to: Point(1, 1))]).point(atLength: 0) == nil)
    }

    @Test func pointAtLengthOnACircleMovesByAngle() {
        // On the 16-piece circle, length s is at angle s/r to within the tiny
        // approximation error; the tangent is perpendicular, a quarter turn ahead (the
        // cubics' 3e-8·r radial ripple tilts it by up to ~1.3e-6 rad).
        let r = 30.0
        var circle = BezierPath()
        for i in 0..<16 {
            let a = Double(i) * .pi / 8
            circle.addArc(center: .zero, radius: r, startAngle: a, endAngle: a + .pi / 8, clockwise: true)
        }
        for s in [1.0, 20, 47.1, 100, 150] {
            let angle = s / r
            let hit = circle.point(atLength: s)
            #expect(near(hit?.point, Point(r * cos(angle), r * sin(angle)), 1e-5))
            #expect(hit.map { abs(remainder($0.tangentAngle - (angle + .pi / 2), 2 * .pi)) < 5e-6 } == true)
        }
    }
}
