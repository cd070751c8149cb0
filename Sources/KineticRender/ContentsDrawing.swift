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
/// contentsScale) in `bounds`.
///
/// As on iOS, the vertical names refer to Core Animation's unflipped axis (y up): a
/// standalone layer's `contentsAreFlipped()` is false, so `top` puts the image against
/// the bottom edge on screen and `bottom` against the top — the documented iOS behaviour
/// scenes ported from iOS rely on.
func contentsRect(gravity: ContentsGravity, imageSize: Size, bounds: Rect) -> Rect {
    let (w, h) = (imageSize.width, imageSize.height)
    let (bw, bh) = (bounds.width, bounds.height)
    func place(_ size: Size, _ ux: Double, _ uy: Double) -> Rect {
        Rect(bounds.minX + (bw - size.width) * ux, bounds.minY + (bh - size.height) * uy,
             size.width, size.height)
    }
    switch gravity {
    case .resize: return Rect(bounds.minX, bounds.minY, bw, bh)
    case .resizeAspect, .resizeAspectFill:
        guard w > 0, h > 0 else { return Rect(bounds.minX, bounds.minY, 0, 0) }
        let s = gravity == .resizeAspect ? min(bw / w, bh / h) : max(bw / w, bh / h)
        return place(Size(w * s, h * s), 0.5, 0.5)
    case .center: return place(imageSize, 0.5, 0.5)
    case .top: return place(imageSize, 0.5, 1)
    case .bottom: return place(imageSize, 0.5, 0)
    case .left: return place(imageSize, 0, 0.5)
    case .right: return place(imageSize, 1, 0.5)
    case .topLeft: return place(imageSize, 0, 1)
    case .topRight: return place(imageSize, 1, 1)
    case .bottomLeft: return place(imageSize, 0, 0)
    case .bottomRight: return place(imageSize, 1, 0)
    }
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
                         in: bounds, alpha: alpha, ctx: ctx)
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
    /// masksToBounds), as CALayer lets contents overflow.
    func drawContents(_ image: CairoSurface, scale: Double, gravity: ContentsGravity, in bounds: Rect,
                      alpha: Double, ctx: CairoContext) {
        let size = Size(Double(image.width), Double(image.height))
        // `scale` image pixels make one point (contentsScale).
        let rect = contentsRect(gravity: gravity, imageSize: Size(size.width / scale, size.height / scale), bounds: bounds)
        guard rect.width > 0, rect.height > 0 else { return }
        ctx.save()
        ctx.newPath()
        ctx.rectangle(rect)
        ctx.clip()
        ctx.translate(rect.minX, rect.minY)
        ctx.scale(rect.width / size.width, rect.height / size.height)
        ctx.setSource(image, x: 0, y: 0)
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
