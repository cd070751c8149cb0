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
            if let snap, layout.appendPath(in: ctx, at: origin, placingGlyphs: snap) { return }
            ctx.newPath()
            layout.appendPath(in: ctx, at: origin)
        }
        return ctx.copyPath()
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
}
