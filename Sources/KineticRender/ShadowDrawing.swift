import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

extension LayerRenderer {
    /// CALayer's shadow: the layer's alpha silhouette (or its `shadowPath`), blurred,
    /// tinted `shadowColor` × `shadowOpacity`, moved by `shadowOffset`. Offset and radius
    /// are in the layer's space, so they turn and scale with it.
    ///
    /// Core Animation's `shadowRadius` is the standard deviation of the Gaussian blur,
    /// σ = r (WebKit hands CSS drop-shadow's standard deviation to `shadowRadius` as is;
    /// docs/extensions.md has the evidence), approximated here by three box blurs on
    /// device pixels.
    ///
    /// The silhouette is drawn on an alpha image covering just its ink (plus the blur's
    /// reach), found from the layer's geometry; only when that is unknown (particles,
    /// projected sublayers…) is it recorded and probed. Blurred silhouettes are kept in
    /// `shadows` and reused while the layer draws the same thing under the same device
    /// map up to a translation: whole pixels for a crisp shadow, any amount (to the
    /// nearest quarter pixel) once σ is four pixels or more.
    func drawShadow(of layer: Layer, alpha: Double, in ctx: CairoContext) {
        let m = ctx.matrix
        guard let shadow = ShadowLook(of: layer, alpha: alpha, matrix: m) else { return }
        ctx.save()
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        let clip = ctx.clipExtents
        ctx.restore()
        let mask = knownSilhouette(of: layer, shadow: shadow, matrix: m, clip: clip)
            ?? recordedSilhouette(of: layer, shadow: shadow, matrix: m, clip: clip)
        guard let mask else { return }
        let covered = skipsCoveredShadow ? Self.coveredBox(of: layer, alpha: alpha, matrix: m) : nil
        paintShadow(mask, shadow: shadow, except: covered, in: ctx)
    }

    /// Paints a blurred silhouette (placed, its offset included) tinted with the shadow's
    /// color, leaving out `covered` (whole device pixels the layer paints over opaquely).
    func paintShadow(_ mask: ShadowMask, shadow: ShadowLook, except covered: DeviceBox? = nil, in ctx: CairoContext) {
        var within: PixelBox?
        if let faint = mask.faintFringe(alpha: shadow.color.alpha) {
            within = Self.pixels((mask.x + Double(faint.x0) * mask.cell - 1, mask.y + Double(faint.y0) * mask.cell - 1,
                                  mask.x + Double(faint.x1) * mask.cell + 1, mask.y + Double(faint.y1) * mask.cell + 1))
        }
        mask.withSurface { image in
            ctx.paint(shadow.color, through: image, x: mask.x, y: mask.y, cell: mask.cell,
                      within: within, except: covered.flatMap(Self.pixels))
        }
    }

    /// The whole device pixels covering `box`; nil beyond ±2³⁰ (a layer that far off
    /// is drawn without the box's help).
    static func pixels(_ box: DeviceBox) -> PixelBox? {
        let limit = Double(1 << 30)
        guard [box.x0, box.y0, box.x1, box.y1].allSatisfy({ abs($0) < limit }) else { return nil }
        return PixelBox(x0: Int(box.x0.rounded(.down)), y0: Int(box.y0.rounded(.down)),
                        x1: Int(box.x1.rounded(.up)), y1: Int(box.y1.rounded(.up)))
    }

    /// The whole device pixels an unturned layer's opaque background covers, which
    /// hide its shadow there (the background is painted over it, nothing paints in
    /// between); nil when there are none worth leaving out. The box is the bounds inset
    /// by 0.3 corner radii (a circular corner crosses the diagonal 0.293 radii in, a
    /// continuous one 0.2915), less a pixel for the edge's antialiasing.
    static func coveredBox(of layer: Layer, alpha: Double, matrix m: Affine) -> DeviceBox? {
        guard alpha >= 1, m.b == 0, m.c == 0, let bg = layer.backgroundColor, bg.alpha >= 1 else { return nil }
        let bounds = layer.bounds
        let r: Double
        switch layer.corners.shape(in: bounds) {
        case .square: r = 0
        case .circular(let radius), .continuous(let radius): r = radius
        }
        let inner = bounds.insetBy(dx: 0.3 * r, dy: 0.3 * r)
        guard inner.width > 0, inner.height > 0 else { return nil }
        let b = device(inner, m)
        let box: DeviceBox = ((b.x0 + 1).rounded(.up), (b.y0 + 1).rounded(.up), (b.x1 - 1).rounded(.down), (b.y1 - 1).rounded(.down))
        // A small hole saves less than the clip's boxes cost.
        guard box.x1 - box.x0 >= 8, box.y1 - box.y0 >= 8, (box.x1 - box.x0) * (box.y1 - box.y0) < 1e12 else { return nil }
        return box
    }

    /// The silhouette drawn straight on its alpha image, when the layer's ink can be
    /// bounded from its geometry; cached when it does not depend on the clip.
    private func knownSilhouette(of layer: Layer, shadow: ShadowLook, matrix m: Affine,
                                 clip: (Double, Double, Double, Double)) -> ShadowMask? {
        // The silhouette is drawn under the device map moved by whole pixels, and put
        // back by `displacement` when painted. A wide blur is drawn with the offset folded in and
        // its phase rounded to a quarter pixel (a shift of at most ⅛ px: a unit test holds
        // the stored bytes within 2 levels of an exact redraw), then brought to device
        // resolution once: every later frame masks with it at whole pixels, the fast path.
        // A wide blur is also drawn with its linear map rounded to 1/8192 (under ⅛ px
        // across 1000 px): a body the dynamics barely turn (rope) keeps its entry. A
        // crisp shadow is cached only unturned. The choices depend on the layer and its
        // map alone, so every thread draws the same bytes.
        let wide = shadows != nil && shadow.sigma >= ShadowLook.wideSigma
        let cacheable = wide || (shadows != nil && m.b == 0 && m.c == 0)
        func linear(_ v: Double) -> Double { wide ? (v * 8192).rounded() / 8192 : v }
        let t = wide ? Point(m.tx + shadow.offset.x, m.ty + shadow.offset.y) : Point(m.tx, m.ty)
        func quantized(_ v: Double) -> Double { wide ? (v * 4).rounded() / 4 : v }
        let q = Point(quantized(t.x), quantized(t.y))
        let base = Point(q.x.rounded(.down), q.y.rounded(.down))
        let moved: Affine = (linear(m.a), linear(m.b), linear(m.c), linear(m.d), q.x - base.x, q.y - base.y)
        // Mask space to device: the shadow lands `displacement` from where it is drawn.
        let displacement = wide ? base : Point(base.x + shadow.offset.x, base.y + shadow.offset.y)
        var key: ShadowCache.Key?
        if let shadows, cacheable {
            let k = ShadowCache.Key(layer: silhouetteKeyLayer(layer, matrix: moved), matrix: moved, sigma: shadow.sigma)
            // A hit needs no ink: its entry was drawn from the same silhouette under the same
            // map, so from the same ink and within the size kept (a card grid's frames hit).
            if var found = shadows.pixels(for: k).map(ShadowMask.init) {
                found.x += displacement.x; found.y += displacement.y
                return found
            }
            key = k
        }
        let ink: DeviceBox?
        if let path = layer.shadowPath {
            ink = Self.controlBounds(path).map { r in
                let b = Self.device(r, moved)
                return ((b.x0 - 1).rounded(.down), (b.y0 - 1).rounded(.down), (b.x1 + 1).rounded(.up), (b.y1 + 1).rounded(.up))
            } ?? (0, 0, 0, 0)
        } else {
            ink = deviceInk(of: layer, matrix: moved, ownShadow: false)
        }
        guard let ink else { return nil }
        guard ink.x1 > ink.x0, ink.y1 > ink.y0 else { return ShadowMask.none }
        let margin = shadow.margin, cell = shadow.cell
        let whole: DeviceBox = (ink.x0 - margin, ink.y0 - margin, ink.x1 + margin, ink.y1 + margin)
        // Only the part whose shadow can land inside the clip matters.
        let reach: DeviceBox = (clip.0 - displacement.x - margin, clip.1 - displacement.y - margin,
                                clip.2 - displacement.x + margin, clip.3 - displacement.y + margin)
        let clipped: DeviceBox = (max(whole.x0, reach.x0), max(whole.y0, reach.y0), min(whole.x1, reach.x1), min(whole.y1, reach.y1))
        guard clipped.x1 > clipped.x0, clipped.y1 > clipped.y0 else { return ShadowMask.none }
        func make(_ box: DeviceBox) -> ShadowMask {
            let left = box.x0.rounded(.down), top = box.y0.rounded(.down)
            let width = Int(((box.x1 - left) / cell).rounded(.up)), height = Int(((box.y1 - top) / cell).rounded(.up))
            let image = CairoSurface.image(.a8, width: width, height: height)
            do {
                let sc = CairoContext(image)
                sc.matrix = Self.concatenate(moved, (1 / cell, 0, 0, 1 / cell, -left / cell, -top / cell))
                drawSilhouette(of: layer, sigma: shadow.sigma, in: sc)
            }
            blur(image, sigma: shadow.sigma / cell)
            guard wide, cell > 1 else { return ShadowMask(surface: image, x: left, y: top, cell: cell) }
            // Bilinear, as masking with the coarse image would sample it.
            let full = CairoSurface.image(.a8, width: Int((Double(width) * cell).rounded(.up)),
                                          height: Int((Double(height) * cell).rounded(.up)))
            do {
                let fc = CairoContext(full)
                fc.scale(cell, cell)
                fc.setSource(replaying: image, x: 0, y: 0)
                fc.paint()
            }
            return ShadowMask(surface: full, x: left, y: top, cell: 1)
        }
        let area = (whole.x1 - whole.x0) * (whole.y1 - whole.y0)
        var found: ShadowMask
        if let shadows, let key, area <= Double(ShadowCache.maxEntryPixels) {
            // The cache holds plain bytes: each render call makes its own Cairo surface.
            // Painted from the stored bytes, as every hit will be (the faint fringe left out alike).
            let pixels = ShadowPixels(make(whole))
            shadows.store(pixels, for: key)
            found = ShadowMask(pixels)
        } else {
            found = make(clipped)
        }
        found.x += displacement.x; found.y += displacement.y
        return found
    }

    /// What of `layer` its silhouette depends on, for the shadow cache's key (which also
    /// ignores an opaque background's colour, ``ShadowCache/Key``): none of the sublayers
    /// when all their ink lies within the whole device pixels an opaque background
    /// covers, where the silhouette is opaque whatever they draw (an alpha image
    /// saturates). A card whose content animates keeps its blurred shadow; a miss draws
    /// the layer as it is, and those pixels are the same.
    private func silhouetteKeyLayer(_ layer: Layer, matrix m: Affine) -> Layer {
        guard layer.shadowPath == nil, let background = layer.backgroundColor, background.alpha >= 1,
              !layer.sublayers.isEmpty, layer.mask == nil, case .plain = layer.content,
              let covered = Self.coveredBox(of: layer, alpha: 1, matrix: m) else { return layer }
        var children = layer
        children.backgroundColor = nil
        children.borderWidth = 0
        children.contents = nil
        children.contentsCrossFade = nil
        guard let ink = deviceInk(of: children, matrix: m, ownShadow: false), ink.x1 > ink.x0, ink.y1 > ink.y0,
              ink.x0 >= covered.x0, ink.y0 >= covered.y0, ink.x1 <= covered.x1, ink.y1 <= covered.y1
        else { return layer }
        var key = layer
        key.sublayers = []
        return key
    }

    /// The silhouette recorded, its ink probed, then painted on its alpha image: for
    /// layers whose ink cannot be bounded from their geometry.
    private func recordedSilhouette(of layer: Layer, shadow: ShadowLook, matrix m: Affine,
                                    clip: (Double, Double, Double, Double)) -> ShadowMask? {
        let margin = shadow.margin, offset = shadow.offset
        // Record the silhouette in device space, bounded to that part: on an unbounded
        // recording a masked sublayer's group reports no ink (and cast no shadow).
        let reach = Rect(clip.0 - offset.x - margin, clip.1 - offset.y - margin,
                         clip.2 - clip.0 + 2 * margin, clip.3 - clip.1 + 2 * margin)
        let recording = CairoSurface.recording(alphaOnly: true, extents: reach)
        do {
            let rc = CairoContext(recording)
            rc.matrix = m
            drawSilhouette(of: layer, sigma: shadow.sigma, in: rc)
        }
        // A bounded recording reports a group's whole extents as ink: measure it.
        let recorded = recording.inkExtents
        guard recorded.width > 0, recorded.height > 0, let ink = Self.measuredInk(of: recording, within: recorded) else {
            return nil
        }
        let x0 = max(ink.x, clip.0 - offset.x) - margin
        let y0 = max(ink.y, clip.1 - offset.y) - margin
        let x1 = min(ink.x + ink.width, clip.2 - offset.x) + margin
        let y1 = min(ink.y + ink.height, clip.3 - offset.y) + margin
        guard x1 > x0, y1 > y0 else { return nil }
        let cell = shadow.cell
        let left = x0.rounded(.down), top = y0.rounded(.down)
        let width = Int(((x1 - left) / cell).rounded(.up)), height = Int(((y1 - top) / cell).rounded(.up))
        let image = CairoSurface.image(.a8, width: width, height: height)
        do {
            let sc = CairoContext(image)
            sc.scale(1 / cell, 1 / cell)
            sc.setSource(replaying: recording, x: -left, y: -top)
            sc.paint()
        }
        blur(image, sigma: shadow.sigma / cell)
        return ShadowMask(surface: image, x: left + offset.x, y: top + offset.y, cell: cell)
    }

    /// The layer's alpha silhouette (or its `shadowPath`) in the context's space.
    private func drawSilhouette(of layer: Layer, sigma: Double, in ctx: CairoContext) {
        if let path = layer.shadowPath {
            Self.appendPath(path, to: ctx)
            ctx.setSource(.black)
            ctx.fill()
        } else {
            // Projected sublayers need no more detail than the blur keeps.
            var silhouette = self
            silhouette.projectionDetail = 1 / max(1, sigma / 2)
            silhouette.drawBody(layer, alpha: 1, castsShadow: false, in: ctx)
        }
    }

    /// Blurs an alpha image in place (σ in its pixels).
    func blur(_ image: CairoSurface, sigma: Double) {
        guard sigma > GaussianBlur.minimumSigma else { return }
        let width = image.width, height = image.height
        image.withBytes { GaussianBlur.apply(to: $0, width: width, height: height, stride: $1, sigma: sigma) }
    }
}

/// How a layer's shadow looks on the device: its tint, its offset and blur in device
/// pixels, the crop margin the blur needs and the raster cell it is blurred on.
struct ShadowLook {
    var color: Color
    var offset: Point
    var sigma: Double

    /// nil when the shadow is invisible.
    init?(of layer: Layer, alpha: Double, matrix m: Affine) {
        color = layer.shadowColor.multiplyingAlpha(min(layer.shadowOpacity, 1) * alpha)
        guard color.alpha > 0 else { return nil }
        let deviceScale = abs(m.a * m.d - m.b * m.c).squareRoot()
        sigma = max(0, layer.shadowRadius) * deviceScale
        offset = Point(m.a * layer.shadowOffset.width + m.c * layer.shadowOffset.height,
                       m.b * layer.shadowOffset.width + m.d * layer.shadowOffset.height)
    }

    /// From this σ (device pixels) a cached silhouette is reused at any translation.
    static let wideSigma = 4.0

    /// The blur's reach beyond the silhouette, device pixels.
    var margin: Double { (3 * sigma).rounded(.up) + 2 }
    /// A wide blur loses nothing at lower resolution: blur at most σ = 8 cells, one cell
    /// `cell` device pixels, which keeps memory and time bounded for any radius.
    var cell: Double { max(1, sigma / 8) }
}

/// A blurred silhouette: an alpha image whose top-left corner goes at device (`x`, `y`)
/// (the shadow's offset included), one pixel `cell` device pixels.
struct ShadowMask {
    /// Drawn for this paint, or the cache's bytes: those are lent to Cairo while painting,
    /// not copied into a surface of their own (a card grid hits the cache once a card a frame).
    enum Image {
        case drawn(CairoSurface)
        case cached(ShadowPixels)
    }
    var image: Image
    var x: Double, y: Double, cell: Double

    init(surface: CairoSurface, x: Double, y: Double, cell: Double) {
        image = .drawn(surface); self.x = x; self.y = y; self.cell = cell
    }

    init(_ pixels: ShadowPixels) {
        image = .cached(pixels)
        x = pixels.x; y = pixels.y; cell = pixels.cell
    }

    var width: Int {
        switch image {
        case .drawn(let s): return s.width
        case .cached(let p): return p.width
        }
    }

    var height: Int {
        switch image {
        case .drawn(let s): return s.height
        case .cached(let p): return p.height
        }
    }

    /// The part of a cached image worth compositing under a tint of this alpha: what lies
    /// outside holds only values the tint turns into at most one level's change (a wide
    /// blur's faint fringe, a fifth of its ring or more); nil to composite it all.
    func faintFringe(alpha: Double) -> ShadowPixels.Box? {
        guard case .cached(let pixels) = image, !pixels.reach.isEmpty, alpha > 0 else { return nil }
        // Values below t change the target by under α·t levels.
        let t = min(pixels.reach.count, Int((1 / alpha).rounded(.down)))
        return t >= 1 ? pixels.reach[t - 1] : nil
    }

    /// The image as a Cairo surface, valid during `body` only.
    func withSurface(_ body: (CairoSurface) -> Void) {
        switch image {
        case .drawn(let s): body(s)
        case .cached(let p): CairoSurface.reading(.a8, bytes: p.bytes, width: p.width, height: p.height, stride: p.stride, body)
        }
    }

    /// A silhouette with no ink.
    static var none: ShadowMask { ShadowMask(surface: CairoSurface.image(.a8, width: 0, height: 0), x: 0, y: 0, cell: 1) }
}

/// A blurred silhouette's bytes, as ``ShadowCache`` keeps them between frames.
struct ShadowPixels: Sendable {
    typealias Box = (x0: Int, y0: Int, x1: Int, y1: Int)
    var bytes: [UInt8]
    var width: Int, height: Int, stride: Int
    var x: Double, y: Double, cell: Double
    /// `reach[k]`: the pixels holding a value above k + 1, bounded (empty when none is).
    var reach: [Box] = []

    init(_ mask: ShadowMask) {
        switch mask.image {
        case .drawn(let surface):
            bytes = surface.bytes()
            width = surface.width; height = surface.height; stride = surface.stride
            reach = Self.reach(bytes, width: width, height: height, stride: stride)
        case .cached(let pixels):
            self = pixels
        }
        x = mask.x; y = mask.y; cell = mask.cell
    }

    /// Bounds of the values above 1…8 (whole image when all are empty): one pass, once
    /// a cache entry.
    static func reach(_ bytes: [UInt8], width: Int, height: Int, stride: Int) -> [Box] {
        guard width > 0, height > 0, bytes.count >= stride * height else { return [] }
        var rowMax = [UInt8](repeating: 0, count: height), columnMax = [UInt8](repeating: 0, count: width)
        for y in 0..<height {
            var m: UInt8 = 0
            for x in 0..<width {
                let v = bytes[y * stride + x]
                m = max(m, v)
                columnMax[x] = max(columnMax[x], v)
            }
            rowMax[y] = m
        }
        return (1...8).map { k in
            let above = UInt8(k)
            guard let y0 = rowMax.firstIndex(where: { $0 > above }), let y1 = rowMax.lastIndex(where: { $0 > above }),
                  let x0 = columnMax.firstIndex(where: { $0 > above }), let x1 = columnMax.lastIndex(where: { $0 > above })
            else { return (0, 0, 0, 0) }
            return (x0, y0, x1 + 1, y1 + 1)
        }
    }
}
