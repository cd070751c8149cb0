import Testing
@testable import KineticGeometry

/// The continuous (squircle) corner: the public reverse-engineered iOS 7 construction.
@Suite struct RoundedCornersTests {
    /// The area between a corner's outline and the corner point, by Green's theorem on
    /// the closed outline (exact for lines and cubics), in square radii.
    static func cornerCutArea(_ corners: RoundedCorners, side: Double) -> Double {
        let rect = Rect(0, 0, side, side)
        return (side * side - area(corners.path(in: rect))) / (corners.radius * corners.radius)
    }

    static func area(_ path: BezierPath) -> Double {
        var sum = 0.0, current = Point.zero, start = Point.zero
        for e in path.elements {
            switch e {
            case .move(let p): current = p; start = p
            case .line(let p): sum += (current.x * p.y - p.x * current.y) / 2; current = p
            case .curve(let p3, let p1, let p2):
                // ∮ x dy − y dx / 2 for a cubic, in closed form (Bézier area formula).
                let p0 = current
                sum += (p0.x * (-10 * p0.y + 6 * p1.y + 3 * p2.y + p3.y)
                        + p1.x * (-6 * p0.y + 3 * p2.y + 3 * p3.y)
                        + p2.x * (-3 * p0.y - 3 * p1.y + 6 * p3.y)
                        + p3.x * (-p0.y - 3 * p1.y - 6 * p2.y + 10 * p3.y)) / 20
                current = p3
            case .quadCurve(let p, _): current = p
            case .close: sum += (current.x * start.y - start.x * current.y) / 2; current = start
            }
        }
        return abs(sum)
    }

    @Test func continuousCornerReachesOnePointFiveThreeRadiiAlongEachEdge() {
        let corners = RoundedCorners(radius: 20, curve: .continuous)
        let path = corners.path(in: Rect(0, 0, 200, 100))
        // Starts where the top-left corner ends: 1.52866483 × 20 = 30.573 along the top.
        guard case .move(let first) = path.elements.first else { Issue.record("no move"); return }
        #expect(abs(first.x - 30.5732966) < 1e-6 && first.y == 0)
        // The top-right corner leaves the top edge at x = 200 − 30.573 and meets the right
        // edge at y = 30.573.
        let points = path.elements.flatMap(\.points)
        #expect(points.contains { abs($0.x - (200 - 30.5732966)) < 1e-6 && $0.y == 0 })
        #expect(points.contains { $0.x == 200 && abs($0.y - 30.5732966) < 1e-6 })
    }

    @Test func continuousCornerCutsMoreThanACircularOne() {
        // Circular: r²(1 − π/4) = 0.21460 r². Continuous: 0.22470 r² (area under the
        // three cubics, computed from the published control points by the formula above).
        let circular = Self.cornerCutArea(RoundedCorners(radius: 20, mask: .layerMinXMinYCorner), side: 100)
        #expect(abs(circular - (1 - Double.pi / 4)) < 1e-3)
        let continuous = Self.cornerCutArea(RoundedCorners(radius: 20, mask: .layerMinXMinYCorner, curve: .continuous),
                                            side: 100)
        #expect(abs(continuous - 0.22470) < 1e-4)
    }

    @Test func theCornerIsSymmetricAboutItsDiagonal() {
        // Only the top-left corner, radius 10, in a 100-point square: its points (x, y)
        // come in mirror pairs (y, x).
        let path = RoundedCorners(radius: 10, mask: .layerMinXMinYCorner, curve: .continuous).path(in: Rect(0, 0, 100, 100))
        let corner = path.elements.flatMap(\.points).filter { $0.x < 16 && $0.y < 16 }
        #expect(corner.count == 13)  // the move, three lines and three cubics
        for p in corner { #expect(corner.contains { abs($0.x - p.y) < 1e-6 && abs($0.y - p.x) < 1e-6 }) }
    }

    @Test func maskedOutCornersStaySquareAndLargeRadiiFallBackToCircular() {
        let corners = RoundedCorners(radius: 30, mask: [.layerMinXMinYCorner], curve: .continuous)
        let rect = Rect(0, 0, 100, 100)
        let points = corners.path(in: rect).elements.flatMap(\.points)
        for corner in [Point(100, 0), Point(100, 100), Point(0, 100)] { #expect(points.contains(corner)) }
        #expect(!points.contains(Point(0, 0)))
        // 30 × 1.5287 = 45.9 ≤ 50: continuous. 40 × 1.5287 = 61 > 50: circular, as UIKit.
        #expect(corners.shape(in: rect) == .continuous(radius: 30))
        #expect(RoundedCorners(radius: 40, curve: .continuous).shape(in: rect) == .circular(radius: 40))
        #expect(RoundedCorners(radius: 80, curve: .continuous).shape(in: rect) == .circular(radius: 50))
        #expect(RoundedCorners(radius: 30, mask: []).shape(in: rect) == .square)
    }
}
