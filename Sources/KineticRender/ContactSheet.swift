import KineticCairo
import KineticGeometry

/// A grid of labelled thumbnails (`kinetic --contact-sheet`).
public enum ContactSheet {
    /// Frames are scaled down alike so the largest fits `thumbnailSize` pixels a side
    /// (never scaled up), laid out `columns` to a row in order, each with its label
    /// centred below it, on `background`.
    public static func compose(_ frames: [(label: String, image: PixelImage)], columns: Int,
                               background: Color, thumbnailSize: Int = 240) -> PixelImage {
        let columns = max(1, columns)
        let rows = (frames.count + columns - 1) / columns
        let maxW = frames.map(\.image.width).max() ?? 0
        let maxH = frames.map(\.image.height).max() ?? 0
        let largest = max(maxW, maxH)
        let s = largest > thumbnailSize ? Double(thumbnailSize) / Double(largest) : 1
        let cellW = (Double(maxW) * s).rounded(.up), cellH = (Double(maxH) * s).rounded(.up)
        let padding = 8.0, labelHeight = 18.0, fontSize = 12.0
        let pitchX = cellW + padding, pitchY = cellH + labelHeight + padding
        let width = Int(padding + Double(columns) * pitchX)
        let height = Int(padding + Double(rows) * pitchY)

        let surface = CairoSurface.image(.argb32, width: width, height: height)
        do {
            let ctx = CairoContext(surface)
            ctx.setSource(background)
            ctx.paint()
            let luminance = 0.2126 * background.red + 0.7152 * background.green + 0.0722 * background.blue
            let ink: Color = background.alpha > 0.5 && luminance > 0.5 ? .black : .white
            for (i, frame) in frames.enumerated() {
                let x = padding + Double(i % columns) * pitchX
                let y = padding + Double(i / columns) * pitchY
                let w = Double(frame.image.width) * s, h = Double(frame.image.height) * s
                if frame.image.width > 0 && frame.image.height > 0 {
                    ctx.save()
                    ctx.newPath()
                    ctx.rectangle(Rect(x, y, w, h))
                    ctx.clip()
                    ctx.translate(x, y)
                    ctx.scale(s, s)
                    ctx.setSource(CairoSurface.image(copying: frame.image), x: 0, y: 0)
                    ctx.paint()
                    ctx.restore()
                }
                let label = PangoTextLayout(context: ctx, text: frame.label, font: FontName(nil), size: fontSize,
                                            wrapWidth: nil, alignment: .left, justify: false)
                ctx.save()
                ctx.newPath()
                ctx.rectangle(Rect(x, y + cellH, cellW, labelHeight))
                ctx.clip()
                ctx.setSource(ink)
                label.show(in: ctx, at: Point(x + max(0, (cellW - label.size.width) / 2), y + cellH + 2))
                ctx.restore()
            }
        }
        return PixelImage(width: width, height: height, stride: surface.stride, bytes: surface.bytes())
    }
}
