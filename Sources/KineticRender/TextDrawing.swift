import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

extension LayerRenderer {
    /// CATextLayer: the string from the top of the bounds, in `fontSize` points,
    /// wrapped at the bounds width when `isWrapped`, else one line per paragraph; clipped
    /// to the bounds, as the layer's backing store is bounds-sized. `truncationMode` puts
    /// an ellipsis where a line passes the width (wrapped: in the last line that fits).
    func drawText(_ style: TextStyle, in bounds: Rect, alpha: Double, ctx: CairoContext) {
        guard !style.string.isEmpty, !bounds.isEmpty, style.fontSize > 0,
              style.foregroundColor.alpha > 0 else { return }
        ctx.save()
        defer { ctx.restore() }
        ctx.newPath()
        ctx.rectangle(bounds)
        ctx.clip()
        ctx.setSource(style.foregroundColor.multiplyingAlpha(alpha))
        Self.layOut(style, in: bounds, ctx: ctx) { layout, origin in layout.show(in: ctx, at: origin) }
    }

    /// The glyph outlines `drawText` fills, in bounds space (not clipped to the bounds):
    /// what a Lottie export draws so that text plays without fonts.
    ///
    /// With `toDevice` (an affine map of bounds space onto a device of one pixel a unit),
    /// each glyph's origin is moved to where the renderer draws it there: Cairo's image
    /// backend puts every glyph's origin on the nearest whole device pixel (halves up), so
    /// a label centred at x.5 is drawn half a pixel right of its layout.
    static func textOutline(_ style: TextStyle, in bounds: Rect, toDevice: PlaneProjection? = nil) -> BezierPath {
        guard !style.string.isEmpty, !bounds.isEmpty, style.fontSize > 0 else { return BezierPath() }
        // An unbounded surface: Pango leaves out glyphs outside a bounded one's extents.
        let ctx = CairoContext(CairoSurface.recording(alphaOnly: false))
        ctx.newPath()
        let snap: ((Point) -> Point)? = toDevice.flatMap { map in
            guard map.affine != nil, let back = map.inverted else { return nil }
            return { p in
                let d = map.apply(to: p)
                return back.apply(to: Point((d.x + 0.5).rounded(.down), (d.y + 0.5).rounded(.down)))
            }
        }
        layOut(style, in: bounds, ctx: ctx) { layout, origin in
            // Colour bitmap glyphs are left out: ``textColorGlyphs`` gives their pixels.
            if let snap, layout.appendPath(in: ctx, at: origin, placingGlyphs: snap, colorGlyphs: { _ in }) { return }
            ctx.newPath()
            layout.appendPath(in: ctx, at: origin)
        }
        return ctx.copyPath()
    }

    /// The colour bitmap glyphs (emoji) `drawText` draws, each as the pixels the renderer
    /// paints for it on a device `toDevice` maps bounds space onto by a translation: a PNG
    /// of its ink box, grown to whole device pixels and a pixel more, and that box in
    /// bounds space (the translation's fraction drawn in, so Cairo rounds as on the canvas). Empty for any other map (the outline keeps them).
    static func textColorGlyphs(_ style: TextStyle, in bounds: Rect, toDevice: PlaneProjection) -> [ColorGlyphImage] {
        guard !style.string.isEmpty, !bounds.isEmpty, style.fontSize > 0, let m = toDevice.affine,
              abs(m.a - 1) < 1e-9, abs(m.b) < 1e-9, abs(m.c) < 1e-9, abs(m.d - 1) < 1e-9 else { return [] }
        let ctx = CairoContext(CairoSurface.recording(alphaOnly: false))
        var placed: [PlacedColorGlyph] = []
        var out: [ColorGlyphImage] = []
        layOut(style, in: bounds, ctx: ctx) { layout, origin in
            guard layout.appendPath(in: ctx, at: origin, placingGlyphs: { $0 }, colorGlyphs: { placed.append($0) }) else { return }
            for glyph in placed {
                let ink = glyph.inkExtents(in: ctx)
                guard ink.width > 0, ink.height > 0 else { continue }
                // The ink box on the device, out to whole pixels and one more each side: Cairo
                // rounds the bitmap's corner, which may move it a pixel past its ink box.
                let x0 = (ink.minX + m.tx).rounded(.down) - 1, y0 = (ink.minY + m.ty).rounded(.down) - 1
                let w = Int((ink.maxX + m.tx).rounded(.up) + 1 - x0), h = Int((ink.maxY + m.ty).rounded(.up) + 1 - y0)
                let surface = CairoSurface.image(.argb32, width: w, height: h)
                guard (try? surface.check()) != nil else { continue }
                do {
                    let pixels = CairoContext(surface)
                    pixels.disableFontHinting()
                    pixels.translate(m.tx - x0, m.ty - y0)
                    pixels.setSource(style.foregroundColor)
                    glyph.show(in: pixels)
                }
                guard let png = try? CairoSurface.encodePNG(PixelImage(width: w, height: h, stride: surface.stride, bytes: surface.bytes()))
                else { continue }
                out.append(ColorGlyphImage(png: png, width: w, height: h,
                                           rect: Rect(x0 - m.tx, y0 - m.ty, Double(w), Double(h))))
            }
        }
        return out
    }

    /// Lays the text out as `drawText` places it and hands the layout and its top-left.
    private static func layOut(_ style: TextStyle, in bounds: Rect, ctx: CairoContext,
                               _ body: (PangoTextLayout, Point) -> Void) {
        let alignment: TextLineAlignment
        switch style.alignmentMode {
        case .natural, .left, .justified: alignment = .left
        case .center: alignment = .center
        case .right: alignment = .right
        }
        let font = Self.font(style.font)
        PangoFonts.shared.refreshThreadFontMap()
        let ellipsis: TextEllipsis? = switch style.truncationMode {
        case .none: nil
        case .start: .start
        case .middle: .middle
        case .end: .end
        }
        let layout = PangoTextLayout(
            context: ctx, text: style.string, font: font, size: style.fontSize,
            wrapWidth: style.isWrapped ? bounds.width : nil, alignment: alignment,
            justify: style.alignmentMode == .justified,
            followsWritingDirection: style.alignmentMode == .natural || style.alignmentMode == .justified,
            ellipsis: ellipsis.map { ($0, bounds.size) })
        var x = bounds.minX
        if !style.isWrapped && ellipsis == nil {
            // Unwrapped lines align within the bounds width, not the text's own width
            // (an ellipsized layout has the bounds' width: Pango aligns its lines).
            let slack = bounds.width - layout.size.width
            switch alignment {
            case .left: break
            case .center: x += slack / 2
            case .right: x += slack
            }
        }
        if let requested = style.font, let family = font.family, PangoFonts.shared.firstCheck(of: requested),
           let warning = Self.fallbackWarning(requested: requested, family: family, resolved: layout.resolvedFamily) {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
        }
        body(layout, Point(x, bounds.minY))
    }

    /// The font `font:` names: a family and face, or the first face of a font file
    /// (its family; the file added to the fonts Pango sees).
    static func font(_ name: String?) -> FontName {
        guard let name, TextStyle.isFontFile(name) else { return FontName(name) }
        var font = FontName(nil)
        font.family = PangoFonts.shared.family(ofFile: name)
        return font
    }

    /// fontconfig's generic families: whatever they resolve to is what they mean.
    static let genericFamilies: Set<String> = ["sans", "sans-serif", "serif", "monospace", "mono", "system-ui"]

    /// The warning for a font that falls back: `family` (what `requested` names) is not
    /// what Pango draws with. nil when it is, or for a generic family.
    static func fallbackWarning(requested: String, family: String, resolved: String?) -> String? {
        guard !genericFamilies.contains(family.lowercased()),
              resolved?.lowercased() != family.lowercased() else { return nil }
        let what = TextStyle.isFontFile(requested) ? "font file '\(requested)'" : "font '\(requested)'"
        return "warning: \(what) (family '\(family)') is not available; text is drawn in '\(resolved ?? "the default font")'"
    }
}

/// A text layer's glyphs as outlines, laid out as the renderer draws them: for exports
/// that must play without the fonts (Lottie).
public enum TextOutlines {
    /// `toDevice`: the bounds' map onto a device of one pixel a unit, whose glyph
    /// placement the outlines follow (`LayerRenderer.textOutline`); nil keeps Pango's.
    public static func path(of style: TextStyle, in bounds: Rect, toDevice: PlaneProjection? = nil) -> BezierPath {
        LayerRenderer.textOutline(style, in: bounds, toDevice: toDevice)
    }

    /// The colour bitmap glyphs the outlines leave out, as pixels placed in bounds space
    /// (`LayerRenderer.textColorGlyphs`).
    public static func colorGlyphs(of style: TextStyle, in bounds: Rect, toDevice: PlaneProjection) -> [ColorGlyphImage] {
        LayerRenderer.textColorGlyphs(style, in: bounds, toDevice: toDevice)
    }
}

/// One colour bitmap glyph as the renderer paints it: a PNG of `width` × `height` pixels
/// covering `rect` (in the text layer's bounds space, one pixel a unit).
public struct ColorGlyphImage: Equatable, Sendable {
    public var png: [UInt8]
    public var width: Int
    public var height: Int
    public var rect: Rect

    public init(png: [UInt8], width: Int, height: Int, rect: Rect) {
        self.png = png; self.width = width; self.height = height; self.rect = rect
    }
}
