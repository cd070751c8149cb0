import Foundation
import Testing
@testable import KineticGeometry

@Suite struct StickyBubbleTests {
    let bubbleWidth = 35.0
    let viscosity = 20.0
    let backCenter = Point(25, 602)

    /// KYCuteView's `drawRect` written out literally (with a double-precision sqrt):
    /// r1, A, B, C, D, O, P, then `cutePath`.
    func seedPath(frontCenter: Point, r2: Double) -> [PathElement] {
        let x1 = backCenter.x, y1 = backCenter.y, x2 = frontCenter.x, y2 = frontCenter.y
        let centerDistance = sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1))
        var cosDigree = 0.0, sinDigree = 0.0
        if centerDistance == 0 {
            cosDigree = 1
            sinDigree = 0
        } else {
            cosDigree = (y2 - y1) / centerDistance
            sinDigree = (x2 - x1) / centerDistance
        }
        let r1 = bubbleWidth / 2 - centerDistance / viscosity
        let pointA = Point(x1 - r1 * cosDigree, y1 + r1 * sinDigree)
        let pointB = Point(x1 + r1 * cosDigree, y1 - r1 * sinDigree)
        let pointD = Point(x2 - r2 * cosDigree, y2 + r2 * sinDigree)
        let pointC = Point(x2 + r2 * cosDigree, y2 - r2 * sinDigree)
        let pointO = Point(pointA.x + (centerDistance / 2) * sinDigree, pointA.y + (centerDistance / 2) * cosDigree)
        let pointP = Point(pointB.x + (centerDistance / 2) * sinDigree, pointB.y + (centerDistance / 2) * cosDigree)
        return [
            .move(to: pointA),
            .quadCurve(to: pointD, control: pointO),
            .line(to: pointC),
            .quadCurve(to: pointB, control: pointP),
            .move(to: pointA),
        ]
    }

    func bubble(to: Point, toRadius: Double) -> StickyBubble {
        StickyBubble(from: backCenter, radius: bubbleWidth / 2, to: to, toRadius: toRadius, viscosity: viscosity)
    }

    @Test func pathMatchesTheSeedFormula() {
        let drags = [Point(25, 602), Point(25, 560), Point(80, 602), Point(110, 530.5), Point(-40, 700), Point(5, 450)]
        for to in drags {
            for r2 in [17.5, 12] {
                let shape = bubble(to: to, toRadius: r2)
                #expect(!shape.isBroken)
                expectSamePath(shape.path, seedPath(frontCenter: to, r2: r2), "to \(to) r2 \(r2)")
            }
        }
    }

    @Test func tangentPointsLieAcrossTheAxis() {
        let shape = bubble(to: Point(100, 540), toRadius: 17.5)
        let p = shape.points, axis = (shape.to - shape.from) / shape.distance
        // A and B are r1 from the fixed center, perpendicular to the axis; O is half the
        // distance along the axis from A.
        #expect(abs(p.a.distance(to: backCenter) - shape.fromRadius) < 1e-9)
        #expect(abs((p.a - backCenter).dot(axis)) < 1e-9)
        #expect(abs((p.b - backCenter).dot(axis)) < 1e-9)
        #expect(near(p.o, p.a + axis * (shape.distance / 2), 1e-9))
        #expect(abs(p.c.distance(to: shape.to) - 17.5) < 1e-9)
    }

    @Test func breaksWhenTheFixedBubbleShrinksToSixPoints() {
        // r1 = 17.5 − d/20 reaches 6 at d = 230.
        let direction = Point(0.6, -0.8)
        let before = bubble(to: backCenter + direction * 229, toRadius: 17.5)
        #expect(!before.isBroken && !before.path.isEmpty)
        for d in [230.0, 231, 400] {
            let after = bubble(to: backCenter + direction * d, toRadius: 17.5)
            #expect(after.isBroken)
            #expect(after.path.isEmpty)
        }
        #expect(StickyBubble.breakRadius == 6)
    }
}
