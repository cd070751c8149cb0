import Foundation
import Testing
@testable import KineticGeometry

@Suite struct GooeyCircleTests {
    let position = Point(160, 120)
    let outsideRectSize = 90.0
    let frameWidth = 300.0
    let progresses = [0, 0.1, 0.25, 0.5, 0.5000001, 0.75, 0.9, 1, 1.2]

    func circle(_ progress: Double, show: Bool = false) -> GooeyCircle {
        GooeyCircle(center: position, size: outsideRectSize, travel: frameWidth, progress: progress, showControlPoints: show)
    }

    /// The seed's `drawInContext:` (AnimatedCircleDemo / KYAnimatedPageControl), written
    /// out literally: the outer rect, then A, B, C, D, c1…c8, then `ovalPath`.
    func seedPoints(_ progress: Double) -> (rect: [Double], points: [Point]) {
        let origin_x = position.x - outsideRectSize / 2 + (progress - 0.5) * (frameWidth - outsideRectSize)
        let origin_y = position.y - outsideRectSize / 2
        let (ox, oy, ow, oh) = (origin_x, origin_y, outsideRectSize, outsideRectSize)
        let POINT_D = true, POINT_B = false
        let movePoint = progress <= 0.5 ? POINT_B : POINT_D
        let offset = ow / 3.6
        let movedDistance = (ow * 1 / 6) * fabs(progress - 0.5) * 2
        let rectCenter = Point(ox + ow / 2, oy + oh / 2)
        let pointA = Point(rectCenter.x, oy + movedDistance)
        let pointB = Point(movePoint == POINT_D ? rectCenter.x + ow / 2 : rectCenter.x + ow / 2 + movedDistance * 2,
                           rectCenter.y)
        let pointC = Point(rectCenter.x, rectCenter.y + oh / 2 - movedDistance)
        let pointD = Point(movePoint == POINT_D ? ox - movedDistance * 2 : ox, rectCenter.y)
        let c1 = Point(pointA.x + offset, pointA.y)
        let c2 = Point(pointB.x, movePoint == POINT_D ? pointB.y - offset : pointB.y - offset + movedDistance)
        let c3 = Point(pointB.x, movePoint == POINT_D ? pointB.y + offset : pointB.y + offset - movedDistance)
        let c4 = Point(pointC.x + offset, pointC.y)
        let c5 = Point(pointC.x - offset, pointC.y)
        let c6 = Point(pointD.x, movePoint == POINT_D ? pointD.y + offset - movedDistance : pointD.y + offset)
        let c7 = Point(pointD.x, movePoint == POINT_D ? pointD.y - offset + movedDistance : pointD.y - offset)
        let c8 = Point(pointA.x - offset, pointA.y)
        return ([ox, oy, ow, oh], [pointA, pointB, pointC, pointD, c1, c2, c3, c4, c5, c6, c7, c8])
    }

    @Test func pathMatchesTheSeedFormula() {
        for progress in progresses {
            let p = seedPoints(progress).points
            let (a, b, c, d) = (p[0], p[1], p[2], p[3])
            let expected: [PathElement] = [
                .move(to: a),
                .curve(to: b, control1: p[4], control2: p[5]),
                .curve(to: c, control1: p[6], control2: p[7]),
                .curve(to: d, control1: p[8], control2: p[9]),
                .curve(to: a, control1: p[10], control2: p[11]),
                .close,
            ]
            expectSamePath(circle(progress).path, expected, "progress \(progress)")
        }
    }

    @Test func debugDrawingMatchesTheSeed() {
        for progress in progresses {
            let (r, p) = seedPoints(progress)
            let shape = circle(progress, show: true)
            expectSamePath(shape.outerSquare, rectElements(r[0], r[1], r[2], r[3]), "outer \(progress)")
            // drawPoint: a 4 × 4 square at (x − 2, y − 2) for A, B, C, D, c1…c8.
            expectSamePath(shape.pointSquares, p.flatMap { rectElements($0.x - 2, $0.y - 2, 4, 4) }, "points \(progress)")
            // helperline: A c1 c2 B c3 c4 C c5 c6 D c7 c8, closed.
            let order = [0, 4, 5, 1, 6, 7, 2, 8, 9, 3, 10, 11].map { p[$0] }
            let helper: [PathElement] = [.move(to: order[0])] + order.dropFirst().map { .line(to: $0) } + [.close]
            expectSamePath(shape.helperLines, helper, "helper \(progress)")
            #expect(shape.controlPointsOverlay.elements == shape.pointSquares.elements + shape.helperLines.elements)
        }
    }

    @Test func isRoundAtHalfProgress() {
        let shape = circle(0.5)
        let center = position, r = outsideRectSize / 2, handle = outsideRectSize / 3.6
        guard case .curve(let b, let c1, let c2) = shape.path.elements[1] else {
            Issue.record("no first arc"); return
        }
        // Arc AB starts at the top, ends at the right, handles of size/3.6 along the tangents.
        #expect(near(shape.path.elements[0].points.last, center + Point(0, -r), 1e-12))
        #expect(near(b, center + Point(r, 0), 1e-12))
        #expect(near(c1, center + Point(handle, -r), 1e-12))
        #expect(near(c2, center + Point(r, -handle), 1e-12))
        // Each next arc is the previous one turned a quarter clockwise on screen about the center.
        func quarter(_ p: Point) -> Point { let v = p - center; return center + Point(-v.y, v.x) }
        for i in 1..<4 {
            let previous = shape.path.elements[i].points, next = shape.path.elements[i + 1].points
            for (p, q) in zip(previous, next) { #expect(near(quarter(p), q, 1e-9)) }
        }
    }

    @Test func squareSweepsTheTravelWidthAndMirrors() {
        #expect(abs(circle(0).outsideRect.minX - (position.x - frameWidth / 2)) < 1e-12)
        #expect(abs(circle(1).outsideRect.maxX - (position.x + frameWidth / 2)) < 1e-12)
        #expect(circle(0.3).movingPoint == .b && circle(0.5).movingPoint == .b && circle(0.7).movingPoint == .d)
        // Progress p and 1 − p are mirror images about the center: A↔A, B↔D, C↔C.
        for progress in [0.0, 0.2, 0.4] {
            let left = circle(progress).points, right = circle(1 - progress).points
            #expect(near(mirrored(left.a, about: position.x), right.a, 1e-9))
            #expect(near(mirrored(left.b, about: position.x), right.d, 1e-9))
            #expect(near(mirrored(left.c2, about: position.x), right.c7, 1e-9))
            #expect(near(mirrored(left.c, about: position.x), right.c, 1e-9))
        }
    }
}
