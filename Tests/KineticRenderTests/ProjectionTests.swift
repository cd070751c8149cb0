import Foundation
import KineticCairo
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// 3D layers against hand-computed perspective projections.
///
/// CATransform3DMakeRotation(θ, 0, 1, 0) maps (x, y, 0) to (x·cos θ, y, −x·sin θ) in the
/// row-vector convention; m34 = −1/d then gives w = 1 − z/d = 1 + x·sin θ/d, and the
/// position translation comes after the divide. So a point x, y about the anchor lands
/// at (x·cos θ / w + px, y / w + py).
///
/// Pixel checks are evaluated into Bools first: a failing `#expect` on an expression
/// holding the image would print every byte of it.
@Suite struct ProjectionTests {
    /// The hand formula above for a point (x, y) relative to the anchor.
    func projected(_ x: Double, _ y: Double, angle: Double, distance: Double, position: Point) -> Point {
        let w = 1 + x * sin(angle) / distance
        return Point(x * cos(angle) / w + position.x, y / w + position.y)
    }

    /// A 100×100 square at `position`, rotated `angle` about y with m34 = −1/`distance`.
    func tiltedSquare(at position: Point, angle: Double = Double.pi / 3, distance: Double = 500) -> Layer {
        var layer = solid(red, size: Size(100, 100), at: position)
        layer.transform = Transform3D.rotation(angle, 0, 1, 0).concatenating(.perspective(distance))
        return layer
    }

    func canvasCorners(_ layers: [Layer], key: String) -> [Point] {
        var corners: [Point] = []
        Layer.forEachCanvasProjection(layers) { layer, toCanvas in
            if layer.key == key { corners = layer.bounds.corners.map { toCanvas.apply(to: $0) } }
        }
        return corners
    }

    /// Signed distance of p from the segment line a→b, positive to the right in y-down.
    func inside(_ p: Point, _ quad: [Point], margin: Double) -> Bool {
        for i in 0..<4 {
            let a = quad[i], b = quad[(i + 1) % 4]
            let ex = b.x - a.x, ey = b.y - a.y
            let cross = (p.x - a.x) * ey - (p.y - a.y) * ex
            if cross / (ex * ex + ey * ey).squareRoot() > -margin { return false }
        }
        return true
    }
    func outside(_ p: Point, _ quad: [Point], margin: Double) -> Bool {
        for i in 0..<4 {
            let a = quad[i], b = quad[(i + 1) % 4]
            let ex = b.x - a.x, ey = b.y - a.y
            let cross = (p.x - a.x) * ey - (p.y - a.y) * ex
            if cross / (ex * ex + ey * ey).squareRoot() > margin { return true }
        }
        return false
    }

    @Test func sixtyDegreesAboutYProjectsToTheHandComputedTrapezoid() throws {
        let position = Point(100, 100)
        let layer = tiltedSquare(at: position)
        let expected = [(-50.0, -50.0), (50, -50), (50, 50), (-50, 50)].map {
            projected($0.0, $0.1, angle: Double.pi / 3, distance: 500, position: position)
        }
        // Spelled out: w = 1 ∓ 50·sin 60°/500 = 0.91340 (near, left) and 1.08660 (far, right).
        #expect(abs(expected[0].x - (100 - 25 / 0.9133975)) < 1e-4)
        #expect(abs(expected[1].y - (100 - 50 / 1.0866025)) < 1e-4)

        let corners = canvasCorners([layer], key: "l")
        #expect(corners.count == 4)
        for (c, e) in zip(corners, expected) {
            #expect(abs(c.x - e.x) < 1e-9 && abs(c.y - e.y) < 1e-9, "\(c) vs \(e)")
        }

        // The silhouette at 2 px a point: coloured inside, clear outside, away from edges.
        let scale = 2.0
        let image = render([layer], scale: scale, name: "trapezoid")
        let quad = expected.map { Point($0.x * scale, $0.y * scale) }
        var wrongInside = 0, wrongOutside = 0, insideCount = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                if inside(p, quad, margin: 1.5) {
                    insideCount += 1
                    if !image.isOpaque(red, x, y) { wrongInside += 1 }
                } else if outside(p, quad, margin: 1.5) {
                    if !image.isClear(x, y) { wrongOutside += 1 }
                }
            }
        }
        #expect(insideCount > 15000)
        #expect(wrongInside == 0 && wrongOutside == 0, "\(wrongInside) inside, \(wrongOutside) outside")
    }

    @Test func theSilhouetteIsAntialiased() {
        // Along the slanted top edge some pixels are partly covered.
        let image = render([tiltedSquare(at: Point(100, 100))], scale: 2)
        var partial = 0
        for y in 80..<120 { for x in 150..<240 { let a = image.alpha(x, y); if a > 20 && a < 235 { partial += 1 } } }
        #expect(partial > 20)
    }

    @Test func pointsBehindTheEyeAreNotDrawn() {
        // m34 = −1/40: w = 1 + x·sin 60°/40 is negative for x < −46.19, where the square
        // would otherwise wrap around to x ≥ 403 on the canvas. The front part lies left of
        // x = 100 + 25/(1 + 50·sin 60°/40) = 112.
        let layer = tiltedSquare(at: Point(100, 100), distance: 40)
        let image = render([layer], size: Size(500, 200), name: "behind")
        var stray = 0
        for y in 0..<200 { for x in 116..<500 where !image.isClear(x, y) { stray += 1 } }
        #expect(stray == 0)
        let centreDrawn = image.isOpaque(red, 100, 100)
        #expect(centreDrawn)
    }

    @Test func zPositionUnderAPerspectiveSublayerTransformMagnifies() {
        // Child at depth 200 under m34 = −1/500: w = 0.6, so it grows by 1/0.6 about the
        // parent's anchor (100, 100): 60 points become 100.
        var parent = Layer(place: "p")
        parent.bounds = Rect(0, 0, 200, 200)
        parent.position = Point(100, 100)
        parent.sublayerTransform = .perspective(500)
        var child = solid(blue, size: Size(60, 60), at: Point(100, 100), place: "c")
        child.zPosition = 200
        parent.sublayers = [child]
        let corners = canvasCorners([parent], key: "c")
        let expected = [Point(50, 50), Point(150, 50), Point(150, 150), Point(50, 150)]
        for (c, e) in zip(corners, expected) { #expect(abs(c.x - e.x) < 1e-9 && abs(c.y - e.y) < 1e-9) }
        let image = render([parent])
        let cornersBlue = image.isOpaque(blue, 51, 51) && image.isOpaque(blue, 148, 148)
        #expect(cornersBlue)
        let outsideClear = image.isClear(48, 100) && image.isClear(152, 100)
        #expect(outsideClear)
    }

    @Test func nestedThreeDLayersFlattenIntoTheirParentsPlane() {
        // Parent: the tilted square; its sublayerTransform m34 = −1/500 makes a 60-point
        // child at depth 200 a 100-point square in the parent's plane (about its centre),
        // which the parent's own tilt then projects: the same trapezoid as the parent's.
        var parent = tiltedSquare(at: Point(100, 100))
        parent.backgroundColor = nil
        parent.sublayerTransform = .perspective(500)
        var child = solid(blue, size: Size(60, 60), at: Point(50, 50), place: "c")
        child.zPosition = 200
        parent.sublayers = [child]
        let expected = [(-50.0, -50.0), (50, -50), (50, 50), (-50, 50)].map {
            projected($0.0, $0.1, angle: Double.pi / 3, distance: 500, position: Point(100, 100))
        }
        let corners = canvasCorners([parent], key: "c")
        for (c, e) in zip(corners, expected) { #expect(abs(c.x - e.x) < 1e-9 && abs(c.y - e.y) < 1e-9, "\(c) vs \(e)") }
        let image = render([parent], name: "nested3d")
        var wrong = 0
        for y in 0..<200 {
            for x in 0..<200 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                if inside(p, expected, margin: 1.5) { if !image.isOpaque(blue, x, y) { wrong += 1 } }
                else if outside(p, expected, margin: 1.5) { if !image.isClear(x, y) { wrong += 1 } }
            }
        }
        #expect(wrong == 0)
    }

    @Test func siblingsKeepZPositionOrderWithoutDepthSorting() {
        // The farther sibling (lower zPosition) is drawn first even where, tilted, it
        // would pass in front: Core Animation sorts flattened siblings, it does not z-buffer.
        var back = tiltedSquare(at: Point(100, 100))
        back.backgroundColor = blue
        back.zPosition = -1
        var front = solid(red, size: Size(100, 100), at: Point(100, 100))
        front.zPosition = 0
        let image = render([front, back])
        let frontOnTop = image.isOpaque(red, 80, 100)
        #expect(frontOnTop)
    }

    @Test func rotationAboutYWithoutPerspectiveStaysAffine() {
        // cos 60° = 0.5: the square is squeezed to 50 points wide, no trapezoid.
        var layer = solid(red, size: Size(100, 100), at: Point(100, 100))
        layer.transform = .rotation(Double.pi / 3, 0, 1, 0)
        let image = render([layer])
        let insideRed = image.isOpaque(red, 76, 51) && image.isOpaque(red, 123, 148)
        #expect(insideRed)
        let beyondClear = image.isClear(73, 100) && image.isClear(127, 100)
        #expect(beyondClear)
    }

    /// A warped projection goes into vector output as an image; a layer that paints only
    /// outlines (ProjectedOutlineTests) as its projected path.
    @Test func vectorOutputEmbedsAWarpedProjectionAsAnImage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-3d-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var warped = tiltedSquare(at: Point(100, 100))
        warped.sublayers = [solid(blue, size: Size(20, 20), at: Point(50, 50), place: "s")]
        try Renderer(scale: 1).renderVector(frame([warped]), format: .svg, to: dir + "/f.svg")
        let svg = try String(contentsOfFile: dir + "/f.svg", encoding: .utf8)
        #expect(svg.contains("<image"))

        try Renderer(scale: 1).renderVector(frame([tiltedSquare(at: Point(100, 100))]), format: .svg, to: dir + "/g.svg")
        let outline = try String(contentsOfFile: dir + "/g.svg", encoding: .utf8)
        // The left edge at the hand-computed x = 100 − 25/0.9133975 = 72.6297 (Cairo
        // writes 1/256ths of a point).
        #expect(!outline.contains("<image") && outline.contains("<path") && outline.contains("M 72.62"))
    }
}
