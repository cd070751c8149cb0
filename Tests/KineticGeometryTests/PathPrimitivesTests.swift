import Foundation
import Testing
@testable import KineticGeometry

@Suite struct PathPrimitivesTests {
    /// The handle length of a 90° cubic arc on the unit circle, 4/3·tan(π/8).
    let k = 4 * (2.0.squareRoot() - 1) / 3

    @Test func rectRunsClockwiseOnScreenFromTopLeft() {
        #expect(BezierPath.rect(Rect(1, 2, 3, 4)).elements == [
            .move(to: Point(1, 2)), .line(to: Point(4, 2)), .line(to: Point(4, 6)), .line(to: Point(1, 6)), .close,
        ])
    }

    @Test func ovalStartsRightAndGoesDownFirst() {
        let oval = BezierPath.oval(in: Rect(0, 0, 20, 10))
        #expect(oval.structure == [.move, .curve, .curve, .curve, .curve, .close])
        #expect(oval.elements.compactMap { $0.points.last } ==
                [Point(20, 5), Point(10, 10), Point(0, 5), Point(10, 0), Point(20, 5)])
        // First quarter: handles k·rx and k·ry long, tangent to the ellipse.
        if case .curve(_, let c1, let c2) = oval.elements[1] {
            #expect(near(c1, Point(20, 5 + 5 * k), 1e-12))
            #expect(near(c2, Point(10 + 10 * k, 10), 1e-12))
        } else {
            Issue.record("second element is not a curve")
        }
        #expect(oval.boundingBox == Rect(0, 0, 20, 10))
    }

    @Test func roundedRectUsesCircularCornersAndClampsTheRadius() {
        let path = BezierPath.roundedRect(Rect(0, 0, 40, 20), cornerRadius: 5)
        #expect(path.elements.first == .move(to: Point(5, 0)))
        // The straight parts are the rect's perimeter minus 8 radii; the corners one circle.
        let straight = 2 * (40 + 20) - 8 * 5.0
        let circle = BezierPath.oval(in: Rect(0, 0, 10, 10)).length
        #expect(abs(path.length - (straight + circle)) < 1e-9)
        #expect(path.boundingBox == Rect(0, 0, 40, 20))
        // Radius 100 on a 40 × 20 rect clamps to 10: the ends become half circles.
        let pill = BezierPath.roundedRect(Rect(0, 0, 40, 20), cornerRadius: 100)
        let pillCircle = BezierPath.oval(in: Rect(0, 0, 20, 20)).length
        #expect(abs(pill.length - (2 * 20 + pillCircle)) < 1e-9)
        #expect(BezierPath.roundedRect(Rect(1, 2, 3, 4), cornerRadius: 0) == .rect(Rect(1, 2, 3, 4)))
    }

    @Test func arcSweepsFollowUIKitRules() {
        let c = Point(50, 50)
        // Clockwise on screen from 0 to π/2 goes from the right point down to the bottom.
        let quarter = BezierPath.arc(center: c, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(quarter.elements.first == .move(to: Point(60, 50)))
        #expect(quarter.structure == [.move, .curve])
        #expect(near(quarter.elements.last?.points.last, Point(50, 60), 1e-12))
        // The same angles counter-clockwise take the long way: 270° in 3 curves via the top.
        let long = BezierPath.arc(center: c, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(long.structure == [.move, .curve, .curve, .curve])
        #expect(near(long.elements[1].points.last, Point(50, 40), 1e-12))
        // 0 → 2π clockwise is a whole circle; a larger difference still one circle.
        let full = BezierPath.arc(center: c, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(full.structure == [.move, .curve, .curve, .curve, .curve])
        #expect(BezierPath.arc(center: c, radius: 10, startAngle: 0, endAngle: 7 * .pi, clockwise: true).structure
                == full.structure)
        // 0 → −π/2 clockwise wraps to ¾ of a circle.
        let wrapped = BezierPath.arc(center: c, radius: 10, startAngle: 0, endAngle: -.pi / 2, clockwise: true)
        #expect(wrapped.structure == [.move, .curve, .curve, .curve])
        #expect(near(wrapped.elements.last?.points.last, Point(50, 40), 1e-12))
        // Equal angles: only the start point.
        #expect(BezierPath.arc(center: c, radius: 10, startAngle: 1, endAngle: 1, clockwise: true).structure == [.move])
    }

    @Test func addArcLinesFromTheCurrentPoint() {
        var path = BezierPath()
        path.move(to: Point(0, 0))
        path.addArc(center: Point(20, 0), radius: 5, startAngle: .pi, endAngle: 0, clockwise: true)
        #expect(path.elements[1] == .line(to: Point(15, 0)))
        // π → 0 clockwise (increasing angle, 2π) over the top: passes (20, −5).
        #expect(path.structure == [.move, .line, .curve, .curve])
        #expect(near(path.elements[2].points.last, Point(20, -5), 1e-12))
    }

    @Test func circleLengthIsTwoPiR() {
        let r = 12.5
        // Four 90° cubics (the UIKit circle) are an approximation 1.4e-4 longer than the
        // circle; its arc length matches an independent midpoint-rule sum of the same
        // cubics.
        let four = BezierPath.arc(center: .zero, radius: r, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(abs(four.length / (2 * .pi * r) - 1) < 2e-4)
        #expect(abs(four.length - midpointLength(four)) < 1e-7 * four.length)
        // Sixteen 22.5° cubics approximate the circle to ~3e-8, so their measured length
        // is 2πr to 1e-6.
        var sixteen = BezierPath()
        for i in 0..<16 {
            let a = Double(i) * .pi / 8
            sixteen.addArc(center: .zero, radius: r, startAngle: a, endAngle: a + .pi / 8, clockwise: true)
        }
        #expect(abs(sixteen.length / (2 * .pi * r) - 1) < 1e-6)
    }

    /// ∑|ΔB| over 400 000 chords per curve: an independent estimate of a cubic path's
    /// length (error ~1e-11 relative here).
    func midpointLength(_ path: BezierPath) -> Double {
        var total = 0.0, current = Point.zero
        for e in path.elements {
            if case .curve(let p, let c1, let c2) = e {
                let p0 = current
                func b(_ t: Double) -> Point {
                    let u = 1 - t
                    return p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p * (t * t * t)
                }
                let n = 400_000
                var previous = p0
                for i in 1...n { let q = b(Double(i) / Double(n)); total += q.distance(to: previous); previous = q }
            }
            current = e.points.last ?? current
        }
        return total
    }

    @Test func polyline() {
        let pts = [Point(0, 0), Point(3, 4), Point(3, 0)]
        #expect(BezierPath.polyline(pts, closed: false).elements ==
                [.move(to: pts[0]), .line(to: pts[1]), .line(to: pts[2])])
        #expect(BezierPath.polyline(pts, closed: true).elements.last == .close)
        #expect(BezierPath.polyline(pts, closed: true).length == 5 + 4 + 3)
        #expect(BezierPath.polyline([], closed: true).isEmpty)
    }

    @Test func starVertices() {
        let star = BezierPath.star(center: Point(100, 100), points: 5, outerRadius: 50, innerRadius: 20)
        #expect(star.structure == [.move] + Array(repeating: .line, count: 9) + [.close])
        // First tip straight up; then every 36°, clockwise on screen, alternating radii.
        #expect(star.elements.first == .move(to: Point(100, 50)))
        for (i, e) in star.elements.dropLast().enumerated() {
            let angle = -Double.pi / 2 + Double(i) * .pi / 5
            let r = i % 2 == 0 ? 50.0 : 20.0
            #expect(near(e.points.last, Point(100 + r * cos(angle), 100 + r * sin(angle)), 1e-12))
        }
        // The second vertex is inner, 36° clockwise from up: right of center, above it.
        #expect(near(star.elements[1].points.last, Point(100 + 20 * sin(.pi / 5), 100 - 20 * cos(.pi / 5)), 1e-12))
        #expect(BezierPath.star(center: .zero, points: 1, outerRadius: 5, innerRadius: 2).isEmpty)
    }
}
