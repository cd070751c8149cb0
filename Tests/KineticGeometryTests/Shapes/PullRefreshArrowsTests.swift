import Foundation
import Testing
@testable import KineticGeometry

@Suite struct PullRefreshArrowsTests {
    // CurveLayer's macros.
    let Radius = 10.0, Space = 1.0, LineLength = 30.0, Degree = Double.pi / 3
    let frame = Size(320, 120)

    /// CurveLayer's `drawInContext:` written out literally, one shared `arrowPath`
    /// included: returns `curvePath1`, `curvePath2` and `arrowPath` as it strokes them.
    func seedPaths(_ progress: Double) -> (curve1: BezierPath, curve2: BezierPath, arrow: BezierPath) {
        let CenterY = frame.height / 2
        func current(_ p: BezierPath) -> Point { p.elements.last?.points.last ?? .zero }
        var curvePath1 = BezierPath()
        var arrowPath = BezierPath()
        if progress <= 0.5 {
            let pointA = Point(frame.width / 2 - Radius, CenterY - Space + LineLength + (1 - 2 * progress) * (CenterY - LineLength))
            let pointB = Point(frame.width / 2 - Radius, CenterY - Space + (1 - 2 * progress) * (CenterY - LineLength))
            curvePath1.move(to: pointA)
            curvePath1.addLine(to: pointB)
            arrowPath.move(to: pointB)
            arrowPath.addLine(to: Point(pointB.x - 3 * cos(Degree), pointB.y + 3 * sin(Degree)))
            curvePath1.append(arrowPath)
        } else if progress > 0.5 {
            let pointA = Point(frame.width / 2 - Radius, CenterY - Space + LineLength - LineLength * (progress - 0.5) * 2)
            let pointB = Point(frame.width / 2 - Radius, CenterY - Space)
            curvePath1.move(to: pointA)
            curvePath1.addLine(to: pointB)
            curvePath1.addArc(center: Point(frame.width / 2, CenterY - Space), radius: Radius, startAngle: .pi,
                              endAngle: .pi + ((.pi * 9 / 10) * (progress - 0.5) * 2), clockwise: true)
            let cp = current(curvePath1)
            arrowPath.move(to: cp)
            arrowPath.addLine(to: Point(cp.x - 3 * cos(Degree - ((.pi * 9 / 10) * (progress - 0.5) * 2)),
                                        cp.y + 3 * sin(Degree - ((.pi * 9 / 10) * (progress - 0.5) * 2))))
            curvePath1.append(arrowPath)
        }
        var curvePath2 = BezierPath()
        if progress <= 0.5 {
            let pointA = Point(frame.width / 2 + Radius, 2 * progress * (CenterY + Space - LineLength))
            let pointB = Point(frame.width / 2 + Radius, LineLength + 2 * progress * (CenterY + Space - LineLength))
            curvePath2.move(to: pointA)
            curvePath2.addLine(to: pointB)
            arrowPath.move(to: pointB)
            arrowPath.addLine(to: Point(pointB.x + 3 * cos(Degree), pointB.y - 3 * sin(Degree)))
            curvePath2.append(arrowPath)
        }
        if progress > 0.5 {
            curvePath2.move(to: Point(frame.width / 2 + Radius, CenterY + Space - LineLength + LineLength * (progress - 0.5) * 2))
            curvePath2.addLine(to: Point(frame.width / 2 + Radius, CenterY + Space))
            curvePath2.addArc(center: Point(frame.width / 2, CenterY + Space), radius: Radius, startAngle: 0,
                              endAngle: (.pi * 9 / 10) * (progress - 0.5) * 2, clockwise: true)
            let cp = current(curvePath2)
            arrowPath.move(to: cp)
            arrowPath.addLine(to: Point(cp.x + 3 * cos(Degree - ((.pi * 9 / 10) * (progress - 0.5) * 2)),
                                        cp.y - 3 * sin(Degree - ((.pi * 9 / 10) * (progress - 0.5) * 2))))
            curvePath2.append(arrowPath)
        }
        return (curvePath1, curvePath2, arrowPath)
    }

    @Test func pathIsTheSeedsStrokesWithEachBarbOnce() {
        for progress in [0, 0.1, 0.25, 0.5, 0.5001, 0.6, 0.75, 0.9, 1] {
            let seed = seedPaths(progress)
            // curvePath2 ends with every barb drawn so far: the first barb (a copy of
            // curvePath1's) and then its own. The shape keeps its own only.
            let copied = seed.curve2.elements.count - 4
            #expect(Array(seed.curve2.elements[copied..<copied + 2]) == Array(seed.curve1.elements.suffix(2)))
            #expect(seed.arrow.elements == seed.curve1.elements.suffix(2) + seed.curve2.elements.suffix(2))
            let expected = seed.curve1.elements + seed.curve2.elements[..<copied] + seed.curve2.elements.suffix(2)
            let shape = PullRefreshArrows(size: frame, progress: progress)
            expectSamePath(shape.path, Array(expected), "progress \(progress)")
        }
    }

    @Test func otherMacroValuesCarryThrough() {
        let shape = PullRefreshArrows(size: Size(200, 90), progress: 0.8, radius: 14, lineLength: 24, space: 3)
        let elements = shape.path.elements
        let moves = elements.indices.filter { elements[$0].kind == .move }
        #expect(moves.count == 4)
        // The left stroke starts 24 · (1 − 0.6) below its curl's center (100, 42) − (14, 0)
        // and its barb starts where the curl ends, 0.54π past the left point.
        #expect(near(elements[0].points.last, Point(86, 42 + 24 * 0.4), 1e-12))
        let curl = Double.pi * 9 / 10 * 0.6
        let head = Point(100 + 14 * cos(Double.pi + curl), 42 + 14 * sin(Double.pi + curl))
        #expect(near(elements[moves[1]].points.last, head, 1e-9))
        // The barb is 3 long at π/3 − curl from the horizontal, turned with the curl.
        let tip = Point(head.x - 3 * cos(Double.pi / 3 - curl), head.y + 3 * sin(Double.pi / 3 - curl))
        #expect(near(elements[moves[1] + 1].points.last, tip, 1e-9))
    }

    @Test func strokesMeetTheCenterLineAtHalfProgress() {
        let half = PullRefreshArrows(size: frame, progress: 0.5).path.elements
        // Left head at CenterY − Space, right head at CenterY + Space, each lineLength long.
        #expect(near(half[1].points.last, Point(150, 59), 1e-12))
        #expect(near(half[0].points.last, Point(150, 89), 1e-12))
        #expect(near(half[5].points.last, Point(170, 61), 1e-12))
        #expect(near(half[4].points.last, Point(170, 31), 1e-12))
    }
}
