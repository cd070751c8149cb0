import KineticCairo
import KineticGeometry
import KineticLayers

/// The Cairo surfaces of one render call, made on first use from the shared, read-only
/// `ImageCache`. Never shared between calls, so never between threads.
final class ImageSurfaces {
    private let cache: ImageCache
    private var made: [String: CairoSurface] = [:]
    private var documents: [String: RsvgDocument?] = [:]

    init(_ cache: ImageCache) { self.cache = cache }

    /// The SVG contents at `path` as a librsvg document of this call; nil for a PNG.
    func document(for path: String) -> RsvgDocument? {
        if let d = documents[path] { return d }
        let d = cache.vector(path).flatMap { try? RsvgDocument(data: $0.bytes) }
        documents[path] = d
        return d
    }

    /// The size in points contents `path` take before `contentsGravity` (a PNG: its
    /// pixels over `scale`, its contentsScale; an SVG: its own size, at any scale).
    func contentsSize(for path: String, scale: Double) -> Size? {
        if let v = cache.vector(path) { return v.size }
        guard let image = surface(for: path) else { return nil }
        return Size(Double(image.width) / scale, Double(image.height) / scale)
    }

    func surface(for path: String) -> CairoSurface? {
        if let s = made[path] { return s }
        guard let image = cache[path], image.width > 0, image.height > 0 else { return nil }
        let s = CairoSurface.image(copying: image)
        made[path] = s
        return s
    }
}

/// Where `contentsGravity` puts an image of `imageSize` (points: its pixels over its
/// contentsScale) in `bounds`: ``ContentsGravity/rect(forContentsOf:in:)``, which the
/// Lottie export shares.
func contentsRect(gravity: ContentsGravity, imageSize: Size, bounds: Rect) -> Rect {
    gravity.rect(forContentsOf: imageSize, in: bounds)
}

extension LayerRenderer {
    /// Draws a layer's contents, cross-fading from the image a `contents` animation fades
    /// out: (1 − u)·from + u·to, added in a group so overlapping pixels blend linearly.
    func drawContents(of layer: Layer, in bounds: Rect, alpha: Double, ctx: CairoContext) {
        func draw(_ path: String?, alpha: Double) {
            guard let path else { return }
            if let document = images.document(for: path) {
                return drawContents(document, gravity: layer.contentsGravity, in: bounds, alpha: alpha, ctx: ctx)
            }
            guard let image = images.surface(for: path) else { return }
            drawContents(image, scale: layer.contentsScale(for: path), gravity: layer.contentsGravity,
                         in: bounds, alpha: alpha, ctx: ctx, part: layer.contentsRect, center: layer.contentsCenter,
                         filters: (layer.minificationFilter, layer.magnificationFilter))
        }
        guard let fade = layer.contentsCrossFade else { return draw(layer.contents, alpha: alpha) }
        ctx.pushGroup()
        draw(fade.from, alpha: 1 - fade.fraction)
        ctx.setAdditive(true)
        draw(layer.contents, alpha: fade.fraction)
        ctx.setAdditive(false)
        ctx.setSource(ctx.popGroup())
        ctx.paint(alpha: alpha)
    }

    /// Draws a layer's contents image per its gravity. Not clipped to the bounds (unless
    /// masksToBounds), as CALayer lets contents overflow. `part` is the contentsRect (unit
    /// coordinates of the image: the part drawn, as if it were the whole image; beyond the
    /// image its edge pixels repeat); `filters` sample it when it is drawn smaller or
    /// larger than its pixels.
    func drawContents(_ image: CairoSurface, scale: Double, gravity: ContentsGravity, in bounds: Rect,
                      alpha: Double, ctx: CairoContext, part: Rect = Rect(0, 0, 1, 1), center: Rect = Rect(0, 0, 1, 1),
                      filters: (minification: ContentsFilter, magnification: ContentsFilter) = (.linear, .linear)) {
        let whole = Size(Double(image.width), Double(image.height))
        let source = Rect(part.minX * whole.width, part.minY * whole.height,
                          part.width * whole.width, part.height * whole.height)
        guard source.width > 0, source.height > 0, source.width.isFinite, source.height.isFinite else { return }
        // `scale` image pixels make one point (contentsScale).
        let rect = contentsRect(gravity: gravity, imageSize: Size(source.width / scale, source.height / scale), bounds: bounds)
        guard rect.width > 0, rect.height > 0 else { return }
        if center != Rect(0, 0, 1, 1) {
            // The patches' clips meet inside pixels: added up, their coverages make 1 there.
            ctx.pushGroup()
            ctx.setAdditive(true)
            for (from, to) in ninePatches(source: source, center: center, scale: scale, into: rect) {
                drawPart(image, from, into: to, alpha: 1, ctx: ctx, filters: filters)
            }
            ctx.setAdditive(false)
            ctx.setSource(ctx.popGroup())
            ctx.paint(alpha: alpha)
            return
        }
        drawPart(image, source, into: rect, alpha: alpha, ctx: ctx, filters: filters)
    }

    /// Draws the image pixels `source` stretched over `rect`.
    private func drawPart(_ image: CairoSurface, _ source: Rect, into rect: Rect, alpha: Double, ctx: CairoContext,
                          filters: (minification: ContentsFilter, magnification: ContentsFilter)) {
        guard rect.width > 0, rect.height > 0, source.width > 0, source.height > 0 else { return }
        ctx.save()
        ctx.newPath()
        ctx.rectangle(rect)
        ctx.clip()
        ctx.translate(rect.minX, rect.minY)
        ctx.scale(rect.width / source.width, rect.height / source.height)
        // Device pixels per image pixel: above 1 the image is magnified.
        let m = ctx.matrix
        let magnified = abs(m.a * m.d - m.b * m.c) > 1
        let filter = magnified ? filters.magnification : filters.minification
        // 0 − x: the whole image keeps its +0 offset.
        ctx.setSource(image, x: 0 - source.minX, y: 0 - source.minY, nearest: filter == .nearest)
        ctx.paint(alpha: alpha)
        ctx.restore()
    }

    /// Draws SVG contents per their gravity as vector, at the scale the context draws:
    /// in a group, so that the cross-fade's additive operator and `alpha` apply to the
    /// document as a whole, whatever operators librsvg uses inside it.
    func drawContents(_ document: RsvgDocument, gravity: ContentsGravity, in bounds: Rect, alpha: Double,
                      ctx: CairoContext) {
        let rect = contentsRect(gravity: gravity, imageSize: document.size, bounds: bounds)
        guard rect.width > 0, rect.height > 0 else { return }
        ctx.save()
        ctx.newPath()
        ctx.rectangle(rect)
        ctx.clip()
        ctx.pushGroup()
        document.draw(in: rect, ctx: ctx)
        ctx.setSource(ctx.popGroup())
        ctx.paint(alpha: alpha)
        ctx.restore()
    }
}

/// CALayer's nine-part stretching: the image pixels `source` cut by `center` (unit
/// coordinates of `source`) into three columns and rows; the outer ones keep their size in
/// points (pixels over `scale`), shrunk in proportion when they do not fit `rect`, and the
/// middle ones stretch over the rest. Pairs of image pixels and the rect they fill (the
/// Lottie export places one image layer per pair).
package func ninePatches(source: Rect, center: Rect, scale: Double, into rect: Rect) -> [(Rect, Rect)] {
    func cuts(_ start: Double, _ length: Double, _ lo: Double, _ hi: Double) -> [Double] {
        let a = min(max(lo, 0), 1), b = min(max(hi, a), 1)
        return [start, start + a * length, start + b * length, start + length]
    }
    let sx = cuts(source.minX, source.width, center.minX, center.maxX)
    let sy = cuts(source.minY, source.height, center.minY, center.maxY)
    func places(_ s: [Double], _ start: Double, _ length: Double) -> [Double] {
        let first = (s[1] - s[0]) / scale, last = (s[3] - s[2]) / scale
        let shrink = first + last > length && first + last > 0 ? length / (first + last) : 1
        return [start, start + first * shrink, start + length - last * shrink, start + length]
    }
    let dx = places(sx, rect.minX, rect.width), dy = places(sy, rect.minY, rect.height)
    var result: [(Rect, Rect)] = []
    for j in 0..<3 {
        for i in 0..<3 {
            result.append((Rect(sx[i], sy[j], sx[i + 1] - sx[i], sy[j + 1] - sy[j]),
                           Rect(dx[i], dy[j], dx[i + 1] - dx[i], dy[j + 1] - dy[j])))
        }
    }
    return result
}
