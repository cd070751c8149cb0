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
        let alignment: TextLineAlignment
        switch style.alignmentMode {
        case .natural, .left, .justified: alignment = .left
        case .center: alignment = .center
        case .right: alignment = .right
        }
        ctx.save()
        defer { ctx.restore() }
        ctx.newPath()
        ctx.rectangle(bounds)
        ctx.clip()
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
        ctx.setSource(style.foregroundColor.multiplyingAlpha(alpha))
        layout.show(in: ctx, at: Point(x, bounds.minY))
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
