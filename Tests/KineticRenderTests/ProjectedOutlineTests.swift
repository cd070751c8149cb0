import Foundation
import KineticCairo
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// A plain layer under perspective is filled along its projected outline, not drawn flat
/// and warped: its pixels are those of a flat shape whose corners are projected by hand.
///
/// The hand projection (ProjectionTests): CATransform3DMakeRotation(θ, 0, 1, 0) with
/// m34 = −1/d sends a point (x, y) about the anchor to (x·cos θ / w, y / w), w = 1 +
/// x·sin θ / d, then the position adds. For θ = 60°, d = 500 and a 100 × 100 square at
/// (100, 100): the left edge (x = −50) has w = 1 − 25√3/500 = 0.913397 and lands at
/// x = 100 − 25/0.913397 = 72.62966, its corners at y = 100 ∓ 50/0.913397 (45.25932,
/// 154.74068); the right edge (w = 1.086603) at x = 123.00749, y = 100 ∓ 46.01499.
@Suite struct ProjectedOutlineTests {
    let angle = Double.pi / 3, distance = 500.0, center = Point(100, 100)

    func projected(_ x: Double, _ y: Double) -> Point {
        let w = 1 + x * sin(angle) / distance
        return Point(x * cos(angle) / w + center.x, y / w + center.y)
    }

    /// The square rotated 60° about y under m34 = −1/500, 100 × 100 at (100, 100).
    func tilted(_ layer: Layer) -> Layer {
        var layer = layer
        layer.transform = Transform3D.rotation(angle, 0, 1, 0).concatenating(.perspective(distance))
        return layer
    }

    /// A flat shape layer over the 200 × 200 canvas filling the polygons `rings` (even-odd).
    func flatShape(_ rings: [[Point]], _ color: Color, place: String) -> Layer {
        var layer = Layer(place: place)
        layer.bounds = Rect(0, 0, 200, 200)
        layer.position = Point(100, 100)
        var style = ShapeStyle()
        var path = BezierPath()
        for ring in rings {
            path.move(to: ring[0])
            for p in ring.dropFirst() { path.addLine(to: p) }
            path.close()
        }
        style.path = path
        style.fillColor = color
        style.fillRule = .evenOdd
        layer.content = .shape(style)
        return layer
    }

    /// The square's corners at half-extent `h` (50 the bounds, 40 a 10-pt border's inside).
    func quad(_ h: Double) -> [Point] { [projected(-h, -h), projected(h, -h), projected(h, h), projected(-h, h)] }

    /// The largest channel difference between two renders, and where.
    func largestDifference(_ a: PixelImage, _ b: PixelImage) -> (delta: Int, x: Int, y: Int) {
        var worst = (delta: 0, x: 0, y: 0)
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
                if d > worst.delta { worst = (d, x, y) }
            }
        }
        return worst
    }

    @Test func theHandProjection() {
        // The numbers the comments above spell out.
        let q = quad(50)
        #expect(abs(q[0].x - 72.62966) < 1e-5 && abs(q[0].y - 45.25932) < 1e-5)
        #expect(abs(q[1].x - 123.00749) < 1e-5 && abs(q[1].y - 53.98501) < 1e-5)
    }

    @Test func aSquareFillsItsHandProjectedCorners() {
        let layer = tilted(solid(red, size: Size(100, 100), at: center))
        let drawn = render([layer], name: "outline-square")
        let reference = render([flatShape([quad(50)], red, place: "ref")], name: "outline-square-ref")
        let worst = largestDifference(drawn, reference)
        #expect(worst.delta <= 1, "\(worst)")
        // The left edge is vertical at x = 72.62966: pixel 72 is 0.37034 covered (94.4 of
        // 255), its neighbours empty and full. The warp blurs it over two pixels.
        let edge = drawn.alpha(72, 100), outside = drawn.alpha(71, 100), inside = drawn.alpha(73, 100)
        #expect(abs(edge - 94) <= 2 && outside == 0 && inside == 255, "\(outside) \(edge) \(inside)")
    }

    @Test func theBordersInnerEdgeIsTheProjectedInset() {
        var layer = solid(red, size: Size(100, 100), at: center)
        layer.borderWidth = 10
        layer.borderColor = blue
        let drawn = render([tilted(layer)], name: "outline-border")
        let reference = render([flatShape([quad(50)], red, place: "bg"), flatShape([quad(50), quad(40)], blue, place: "border")],
                               name: "outline-border-ref")
        let worst = largestDifference(drawn, reference)
        #expect(worst.delta <= 1, "\(worst)")
        // The inner left edge (x = −40: w = 0.930718) at 100 − 20/0.930718 = 78.51118:
        // pixel 78 is 0.51118 border, the rest background — blue 130, red 125.
        let p = drawn.rgba(x: 78, y: 100)
        #expect(abs(Int(p.b) - 130) <= 2 && abs(Int(p.r) - 125) <= 2 && p.a == 255, "\(p)")
        #expect(drawn.isOpaque(blue, 77, 100) && drawn.isOpaque(red, 79, 100))
    }

    @Test func withoutEdgeAntialiasingEveryPixelIsWhole() {
        var layer = solid(red, size: Size(100, 100), at: center)
        layer.allowsEdgeAntialiasing = false
        let drawn = render([tilted(layer)], name: "outline-aliased")
        var blended = 0, covered = 0
        for y in 0..<drawn.height {
            for x in 0..<drawn.width {
                let a = drawn.alpha(x, y)
                if a != 0 && a != 255 { blended += 1 }
                if a == 255 { covered += 1 }
            }
        }
        // The trapezoid's area: the mean height (108.45 + 92.03) / 2 times the width 50.378.
        let area = (2 * 50 / 0.913397 + 2 * 50 / 1.086603) / 2 * (123.00749 - 72.62966)
        #expect(blended == 0)
        #expect(abs(Double(covered) - area) < 60, "\(covered) vs \(area)")
    }

    /// Draws `layer` tilted on a 200 × 200 image: whether it went the outline way.
    func drawsOutlines(_ layer: Layer) -> Bool {
        let layer = tilted(layer)
        let surface = CairoSurface.image(.argb32, width: 200, height: 200)
        let ctx = CairoContext(surface)
        let projection = layer.projectionToSuperlayer(through: .identity)
        return LayerRenderer(images: ImageSurfaces(ImageCache())).drawProjectedOutlines(layer, opacity: 1, through: projection, in: ctx)
    }

    @Test func onlyOutlinesAreDrawnExactly() {
        let plain = solid(red, size: Size(100, 100), at: center)
        #expect(drawsOutlines(plain))
        var rounded = plain
        rounded.cornerRadius = 20
        rounded.borderWidth = 4
        #expect(drawsOutlines(rounded))
        var filled = plain
        var style = ShapeStyle()
        style.path = RoundedCorners(radius: 30).path(in: Rect(10, 10, 80, 80))
        filled.content = .shape(style)
        #expect(drawsOutlines(filled))

        // Everything else keeps the warp.
        var withContents = plain
        withContents.contents = "photo.png"
        #expect(!drawsOutlines(withContents))
        var withSublayer = plain
        withSublayer.sublayers = [solid(blue, size: Size(10, 10), at: Point(50, 50), place: "s")]
        #expect(!drawsOutlines(withSublayer))
        var withShadow = plain
        withShadow.shadowOpacity = 0.5
        #expect(!drawsOutlines(withShadow))
        var withMask = plain
        withMask.mask = solid(blue, size: Size(50, 50), at: Point(50, 50), place: "m")
        #expect(!drawsOutlines(withMask))
        var stroked = filled
        style.strokeColor = blue
        stroked.content = .shape(style)
        #expect(!drawsOutlines(stroked))
        var someEdges = plain
        someEdges.edgeAntialiasingMask = [.layerLeftEdge]
        #expect(!drawsOutlines(someEdges))
        // A hidden sublayer draws nothing: still outlines.
        var hiddenSublayer = withSublayer
        hiddenSublayer.sublayers[0].isHidden = true
        #expect(drawsOutlines(hiddenSublayer))
    }

    @Test func aLayerReachingBehindTheEyeIsWarped() {
        // 1200 pt wide at 60°: the right edge's w = 1 − 600·sin 60°/500 < 0.
        let wide = solid(red, size: Size(1200, 100), at: center)
        #expect(!drawsOutlines(wide))
    }

    @Test func aSublayerKeepsTheWarp() {
        // Without edge antialiasing the outline way leaves no blended pixel; a layer with a
        // visible sublayer is drawn flat and warped, which blends its edges.
        var layer = solid(red, size: Size(100, 100), at: center)
        layer.allowsEdgeAntialiasing = false
        layer.sublayers = [solid(red, size: Size(10, 10), at: Point(50, 50), place: "s")]
        let drawn = render([tilted(layer)], name: "outline-warped")
        let blended = (0..<drawn.height).reduce(0) { n, y in
            n + (0..<drawn.width).filter { drawn.alpha($0, y) != 0 && drawn.alpha($0, y) != 255 }.count
        }
        #expect(blended > 100)
    }
}
