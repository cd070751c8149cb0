import Foundation
import KineticGeometry
import Testing
@testable import KineticLottie

/// A blurred shadow's bands (`ShadowBands`): stacked, the copies give the Gaussian
/// blur's coverage on both sides of the silhouette's edge, opacity × Φ(−d/σ) at a signed
/// distance d (outside positive), checked by hand from the normal distribution's table.
struct ShadowBandTests {
    /// A 100×100 square at the origin, σ = 4, shadow alpha 0.4.
    private let square = BezierPath.rect(Rect(0, 0, 100, 100))
    private let sigma = 4.0

    /// The coverage the paints stack to at (x, 50): a fill covers its (axis-aligned,
    /// rectangular) path's inside, a stroke of width w the points within w/2 of the
    /// square's outline; same-coloured paints stack to 1 − ∏(1 − alpha).
    private func coverage(_ paints: [Paint], x: Double) -> Double {
        let p = Point(x, 50)
        var survive = 1.0
        for paint in paints {
            let box = paint.path.boundingBox
            let covered: Bool
            switch paint.kind {
            case .fill: covered = !paint.path.isEmpty && box.contains(p)
            case .stroke:
                // On the row y = 50 the nearest edge of the square is a vertical one.
                let distance = min(abs(x - box.minX), abs(x - box.maxX))
                covered = distance <= paint.stroke.width / 2
            case .gradient: covered = false
            }
            if covered { survive *= 1 - paint.color.alpha }
        }
        return 1 - survive
    }

    @Test func theBandsFollowTheNormalDistributionOnBothSidesOfTheEdge() {
        let paints = ShadowBands.paints(silhouette: square, color: Color(red: 0, green: 0, blue: 0, alpha: 0.4), sigma: sigma)
        // Band middles at ±0.25σ, ±0.75σ, ±1.25σ (x = ∓1, ∓3, ∓5 from the left edge):
        // Φ(0.25) = 0.598706, Φ(0.75) = 0.773373, Φ(1.25) = 0.894350.
        let expected: [(x: Double, coverage: Double)] = [
            (-5, 0.4 * (1 - 0.894350)), (-3, 0.4 * (1 - 0.773373)), (-1, 0.4 * (1 - 0.598706)),
            (1, 0.4 * 0.598706), (3, 0.4 * 0.773373), (5, 0.4 * 0.894350),
            // Beyond 3σ: nothing outside, the full opacity inside.
            (-13, 0), (50, 0.4),
        ]
        for (x, wanted) in expected {
            #expect(abs(coverage(paints, x: x) - wanted) < 1e-6, "x = \(x)")  // the table's six digits
        }
        // Half the opacity at the edge itself, as the blur: between the two middles.
        #expect(coverage(paints, x: -1) < 0.2 && coverage(paints, x: 1) > 0.2)
    }

    @Test func aStrokeOnlySilhouetteIsOnlyGrown() {
        let paints = ShadowBands.paints(silhouette: square, lineWidth: 2, color: Color(red: 0, green: 0, blue: 0, alpha: 0.4), sigma: sigma)
        #expect(paints.allSatisfy { $0.kind == .stroke })
        #expect(paints.map(\.stroke.width) == [26, 22, 18, 14, 10, 6, 2])
    }

    @Test func aConvexOutlineShrinksByHalfPlanes() throws {
        let card = try #require(ConvexSilhouette(BezierPath.rect(Rect(10, 20, 100, 60))))
        #expect(near(card.inset(by: 10).boundingBox, Rect(20, 30, 80, 40)))
        #expect(card.inset(by: 35).isEmpty)
        // A rounded card shrunk past its corners' radius has square corners.
        let rounded = try #require(ConvexSilhouette(BezierPath.roundedRect(Rect(0, 0, 100, 60), cornerRadius: 5)))
        let inset = rounded.inset(by: 8)
        #expect(near(inset.boundingBox, Rect(8, 8, 84, 44)))
        #expect(inset.elements.allSatisfy { $0.points.allSatisfy { p in
            [8.0, 92].contains { abs(p.x - $0) < 1e-9 } || [8.0, 52].contains { abs(p.y - $0) < 1e-9 } } })
    }

    @Test func aShapeInsideACardAddsNothingAndAConcaveOneAloneIsNotConvex() throws {
        var path = BezierPath.rect(Rect(0, 0, 100, 100))
        var l = BezierPath()
        l.move(to: Point(20, 20)); l.addLine(to: Point(60, 20)); l.addLine(to: Point(60, 30))
        l.addLine(to: Point(30, 30)); l.addLine(to: Point(30, 60)); l.addLine(to: Point(20, 60)); l.close()
        path.elements += l.elements
        let card = try #require(ConvexSilhouette(path))
        #expect(card.polygons.count == 1)
        #expect(ConvexSilhouette(l) == nil)
        // Two cards apart each shrink; overlapping ones are not a convex silhouette.
        #expect(ConvexSilhouette(BezierPath.rect(Rect(0, 0, 10, 10)) + BezierPath.rect(Rect(20, 0, 10, 10)))?.polygons.count == 2)
        #expect(ConvexSilhouette(BezierPath.rect(Rect(0, 0, 10, 10)) + BezierPath.rect(Rect(5, 0, 10, 10))) == nil)
    }
}

private func near(_ a: Rect, _ b: Rect) -> Bool {
    abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.width - b.width) < 1e-9 && abs(a.height - b.height) < 1e-9
}

private func + (a: BezierPath, b: BezierPath) -> BezierPath { BezierPath(a.elements + b.elements) }
