import KineticCairo
import KineticGeometry
import KineticLayers
@testable import KineticRender
import Testing

/// The glyph outlines a Lottie export fills (`TextOutlines`): Pango's layout glyph by
/// glyph, and each glyph's origin where the renderer draws it.
@Suite struct TextOutlineTests {
    static func style(_ string: String) -> TextStyle {
        var style = TextStyle()
        style.string = string
        style.font = "DejaVu Sans"
        style.fontSize = 20
        style.foregroundColor = Color(red: 0, green: 0, blue: 0)
        return style
    }

    /// Placing every glyph where Pango laid it out gives pango_cairo_layout_path's outline.
    @Test func glyphByGlyphOutlineIsPangosOutline() throws {
        let ctx = CairoContext(CairoSurface.recording(alphaOnly: false))
        PangoFonts.shared.refreshThreadFontMap()
        let layout = PangoTextLayout(context: ctx, text: "Kinetic, ÿ 动画", font: FontName("DejaVu Sans"), size: 20,
                                     wrapWidth: 80, alignment: .center, justify: false)
        ctx.newPath()
        layout.appendPath(in: ctx, at: Point(3.25, 7.5))
        let pango = ctx.copyPath()
        ctx.newPath()
        #expect(layout.appendPath(in: ctx, at: Point(3.25, 7.5)) { $0 })
        let ours = ctx.copyPath()
        #expect(pango.elements.count > 100)
        try #require(ours.elements.count == pango.elements.count)
        var worst = 0.0
        for (a, b) in zip(ours.elements, pango.elements) {
            #expect(a.kind == b.kind)
            for (p, q) in zip(a.points, b.points) { worst = max(worst, abs(p.x - q.x), abs(p.y - q.y)) }
        }
        #expect(worst == 0, "\(worst)")
    }

    /// Cairo's image backend draws each glyph with its origin on a whole pixel: a "l" laid
    /// out at x = 10.5 is drawn from x = 11. The outline placed through the layer's map
    /// lands there too; Pango's own outline is half a pixel left of the drawing.
    @Test func outlinePlacedThroughTheCanvasMapInksWhereTheRendererDraws() throws {
        var layer = Layer(place: "t", type: .text)
        layer.bounds = Rect(0, 0, 40, 30)
        layer.anchorPoint = Point(0, 0)
        layer.position = Point(10.5, 5)
        layer.text = Self.style("l")
        let drawn = render([layer], size: Size(60, 40))
        let map = PlaneProjection(affine: 1, 0, 0, 1, 10.5, 5)
        func filled(_ path: BezierPath) throws -> PixelImage {
            try #require(CairoSurface.drawingImage(width: 60, height: 40) { surface in
                let ctx = CairoContext(surface)
                ctx.translate(10.5, 5)
                for element in path.elements {
                    switch element {
                    case .move(let p): ctx.move(to: p)
                    case .line(let p): ctx.line(to: p)
                    case .curve(let p, let c1, let c2): ctx.curve(to: p, c1, c2)
                    case .quadCurve(let p, _): ctx.line(to: p)
                    case .close: ctx.closePath()
                    }
                }
                ctx.setSource(Color(red: 0, green: 0, blue: 0))
                ctx.fill()
            })
        }
        /// The ink's mean x, weighted by coverage.
        func centre(_ image: PixelImage) -> Double {
            var sum = 0.0, weight = 0.0
            for y in 0..<image.height { for x in 0..<image.width {
                let a = Double(image.alpha(x, y))
                sum += a * (Double(x) + 0.5); weight += a
            } }
            return sum / weight
        }
        let placed = TextOutlines.path(of: Self.style("l"), in: layer.bounds, toDevice: map)
        let pango = TextOutlines.path(of: Self.style("l"), in: layer.bounds)
        let x = centre(drawn)
        #expect(abs(try centre(filled(placed)) - x) < 0.1)
        #expect(abs(try centre(filled(pango)) - (x - 0.5)) < 0.1)
    }
}

/// A colour bitmap glyph (Noto Color Emoji's PNG strikes) has no outline: the outline
/// leaves it out, and `TextOutlines.colorGlyphs` gives the pixels the renderer paints
/// for it, on the rect it paints them.
@Suite struct ColorGlyphTests {
    static let style: TextStyle = {
        var style = TextStyle()
        // The CJK font's line: Pango shifts the emoji's fallback run onto its baseline.
        style.string = "你好 👋"
        style.font = "Noto Sans CJK SC Bold"
        style.fontSize = 32
        style.foregroundColor = Color(red: 0, green: 0, blue: 0)
        return style
    }()

    @Test func emojiIsThePixelsTheRendererPaintsWhereItPaintsThem() throws {
        var layer = Layer(place: "t", type: .text)
        layer.bounds = Rect(0, 0, 140, 50)
        layer.anchorPoint = Point(0, 0)
        layer.position = Point(10.5, 5.25)
        layer.text = Self.style
        let drawn = render([layer], size: Size(160, 60))
        let map = PlaneProjection(affine: 1, 0, 0, 1, 10.5, 5.25)
        let glyphs = TextOutlines.colorGlyphs(of: Self.style, in: layer.bounds, toDevice: map)
        try #require(glyphs.count == 1)
        let glyph = glyphs[0]
        // On whole device pixels, as large as its pixels.
        #expect(glyph.rect.minX + 10.5 == (glyph.rect.minX + 10.5).rounded())
        #expect(glyph.rect.minY + 5.25 == (glyph.rect.minY + 5.25).rounded())
        #expect(glyph.rect.width == Double(glyph.width) && glyph.rect.height == Double(glyph.height))
        let image = try CairoSurface.decodePNG(bytes: glyph.png)
        let x0 = Int(glyph.rect.minX + 10.5), y0 = Int(glyph.rect.minY + 5.25)
        var worst = 0, inked = 0
        for y in 0..<image.height { for x in 0..<image.width {
            let a = image.rgba(x: x, y: y), b = drawn.rgba(x: x0 + x, y: y0 + y)
            if b.a > 0 { inked += 1 }
            worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
        } }
        #expect(inked > 200)
        #expect(worst == 0, "\(worst)")
        // The outline keeps the CJK glyphs only: it ends left of the emoji's middle (the emoji's
        // traced pixel boxes would reach its right edge).
        let outline = TextOutlines.path(of: Self.style, in: layer.bounds, toDevice: map)
        let box = outline.boundingBox
        #expect(box.width > 2)
        #expect(box.maxX < glyph.rect.midX)
    }
}
