import Foundation
import Testing
@testable import KineticGeometry

/// A circle of radius `r` around the origin from 4 cubics with the standard
/// k = 4(√2 − 1)/3 handles, starting at (r, 0) and turning towards +y.
func bezierCircle(radius r: Double) -> BezierPath {
    let k = 4 * (2.0.squareRoot() - 1) / 3 * r
    var p = BezierPath()
    p.move(to: Point(r, 0))
    p.addCurve(to: Point(0, r), control1: Point(r, k), control2: Point(k, r))
    p.addCurve(to: Point(-r, 0), control1: Point(-k, r), control2: Point(-r, k))
    p.addCurve(to: Point(0, -r), control1: Point(-r, -k), control2: Point(-k, -r))
    p.addCurve(to: Point(r, 0), control1: Point(k, -r), control2: Point(r, -k))
    p.close()
    return p
}

func near(_ a: Point?, _ b: Point, _ tol: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return a.distance(to: b) <= tol
}

@Suite struct PathTrimmingTests {
    let bent = BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10))])
    let square = BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10)),
                             .line(to: Point(0, 10)), .close])

    @Test func trimsPolylineAtFractionsOfTotalLength() {
        // Total 20: 25 % is 5 along the first leg, 75 % is 5 down the second.
        #expect(bent.trimmed(from: 0.25, to: 0.75).elements ==
                [.move(to: Point(5, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 5))])
    }

    @Test func degenerateAndFullRanges() {
        #expect(bent.trimmed(from: 0.6, to: 0.6).isEmpty)
        #expect(bent.trimmed(from: 0.7, to: 0.2).isEmpty)
        #expect(square.trimmed(from: 0, to: 1) == square)
        #expect(square.trimmed(from: -1, to: 2) == square)
    }

    @Test func closeSegmentCountsAndBecomesALineWhenCut() {
        // Perimeter 40; the close segment is the last 10.
        #expect(square.trimmed(from: 0.5, to: 1).elements ==
                [.move(to: Point(10, 10)), .line(to: Point(0, 10)), .line(to: Point(0, 0))])
        #expect(square.trimmed(from: 0, to: 0.875).elements ==
                [.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10)),
                 .line(to: Point(0, 10)), .line(to: Point(0, 5))])
    }

    @Test func rangeAcrossSubpathsInsertsMoves() {
        let two = BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 0)),
                              .move(to: Point(0, 10)), .line(to: Point(10, 10))])
        #expect(two.trimmed(from: 0.25, to: 0.75).elements ==
                [.move(to: Point(5, 0)), .line(to: Point(10, 0)), .move(to: Point(0, 10)), .line(to: Point(5, 10))])
    }

    @Test func closedSubpathKeptWholeStaysClosed() {
        let squareThenLine = BezierPath(square.elements + [.move(to: Point(20, 0)), .line(to: Point(60, 0))])
        // Total 80: the first half is exactly the closed square.
        #expect(squareThenLine.trimmed(from: 0, to: 0.5) == square)
    }

    @Test func zeroLengthCloseEndsARunButNeverStartsOne() {
        // The square drawn back to its start, so its close is zero-length (as an oval's).
        let drawnBack = BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10)),
                                    .line(to: Point(0, 10)), .line(to: Point(0, 0)), .close])
        let path = BezierPath(drawnBack.elements + [.move(to: Point(20, 0)), .line(to: Point(60, 0))])
        // Total 80; the square is exactly the first half, close included.
        #expect(path.trimmed(from: 0, to: 0.5) == drawnBack)
        #expect(path.trimmed(from: 0.5, to: 1).elements == [.move(to: Point(20, 0)), .line(to: Point(60, 0))])
    }

    @Test func trimsCircleByArcLength() {
        let r = 7.0
        let circle = bezierCircle(radius: r)
        // By the symmetry of each quarter cubic, an eighth of the length ends at its
        // midpoint, which the k handles put exactly on the circle at 45°.
        let eighth = circle.trimmed(from: 0, to: 0.125)
        #expect(near(eighth.elements.last?.points.last, Point(r / 2.0.squareRoot(), r / 2.0.squareRoot())))
        #expect(abs(eighth.length - circle.length / 8) <= 1e-9 * r)
        // The second quarter is exactly the second cubic.
        let quarter = circle.trimmed(from: 0.25, to: 0.5)
        #expect(quarter.elements.count == 2)
        #expect(near(quarter.elements.first?.points.last, Point(0, r)))
        #expect(near(quarter.elements.last?.points.last, Point(-r, 0)))
    }

    @Test func trimmedCurveLiesOnTheOriginal() {
        let curve = BezierPath([.move(to: Point(0, 0)),
                                .curve(to: Point(100, 0), control1: Point(10, 80), control2: Point(120, 60))])
        let total = curve.length
        let piece = curve.trimmed(from: 0.3, to: 0.6)
        #expect(abs(piece.length - 0.3 * total) <= 1e-9 * total)
        if let startPoint = curve.point(atLength: 0.3 * total)?.point,
           let endPoint = curve.point(atLength: 0.6 * total)?.point,
           let expectedMid = curve.point(atLength: 0.45 * total)?.point {
            #expect(near(piece.elements.first?.points.first, startPoint))
            #expect(near(piece.elements.last?.points.last, endPoint))
            // The middle of the piece is the curve's point at 45 % of its length.
            #expect(near(piece.point(atLength: piece.length / 2)?.point, expectedMid, 1e-7))
        } else {
            Issue.record("point(atLength:) returned nil on a drawn curve")
        }
    }
}
