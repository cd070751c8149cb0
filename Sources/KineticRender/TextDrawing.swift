import KineticGeometry
import KineticLayers

extension LayerRenderer {
    /// CATextLayer: the string from the top of the bounds, in `fontSize` points,
    /// wrapped at the bounds width when `isWrapped`, else one line per paragraph; clipped
    /// to the bounds, as the layer's backing store is bounds-sized.
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
        let layout = PangoTextLayout(
            context: ctx, text: style.string, font: FontName(style.font), size: style.fontSize,
            wrapWidth: style.isWrapped ? bounds.width : nil, alignment: alignment,
            justify: style.alignmentMode == .justified,
            followsWritingDirection: style.alignmentMode == .natural || style.alignmentMode == .justified)
        var x = bounds.minX
        if !style.isWrapped {
            // Unwrapped lines align within the bounds width, not the text's own width.
            let slack = bounds.width - layout.size.width
            switch alignment {
            case .left: break
            case .center: x += slack / 2
            case .right: x += slack
            }
        }
        ctx.setSource(style.foregroundColor.multiplyingAlpha(alpha))
        layout.show(in: ctx, at: Point(x, bounds.minY))
    }
}
