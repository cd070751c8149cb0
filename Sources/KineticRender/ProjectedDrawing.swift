import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

/// Premultiplied ARGB32 pixels (Cairo's native-endian layout) covering the device-space
/// rectangle at (`x`, `y`), `width` × `height` pixels.
struct Raster {
    var x: Int, y: Int, width: Int, height: Int, stride: Int
    var bytes: [UInt8]
}

extension LayerRenderer {
    /// Pixel budget of one offscreen image (a 2048² surface, 16 MB): beyond it the
    /// offscreen resolution drops rather than memory growing with a projection's size.
    static let maxOffscreenPixels = 2048 * 2048
    /// Offscreen pixels per destination pixel at the most magnified corner of a
    /// projected layer (the far side, minified, keeps more): one, as Core Animation keeps
    /// a layer's backing store at screen scale. 1.5 gave crisper straight edges at 25 %
    /// more time a frame (the flat image is 2.25 × larger).
    static let projectionSupersampling = 1.0

    /// Draws `body` (which draws in a space the matrix `matrix` maps to device units) on
    /// an offscreen image covering just its ink, one pixel per device unit, with two
    /// transparent pixels of margin. When that image would exceed the budget it is made
    /// at a lower resolution: `scale` says how many raster pixels a device unit got.
    ///
    /// `extents` (device units) bounds the recording: masks and groups on an unbounded
    /// recording report no ink, and on a bounded one they report all of it.
    func rasterize(matrix: Affine, extents: Rect? = nil,
                   _ body: (CairoContext, LayerRenderer) -> Void) -> (raster: Raster, scale: Double)? {
        let recording = CairoSurface.recording(alphaOnly: false, extents: extents)
        do {
            let rc = CairoContext(recording)
            rc.matrix = matrix
            // Inside the offscreen a device unit is a raster pixel.
            body(rc, LayerRenderer(images: images, rasterDensity: 1, flatRasters: flatRasters, shadows: shadows))
        }
        var ink = recording.inkExtents
        guard ink.width > 0, ink.height > 0, ink.width.isFinite, ink.height.isFinite else { return nil }
        if extents != nil {
            // A bounded recording reports a mask or group's whole extents as ink: most of
            // that may be empty, and would be rasterized and resampled for nothing.
            guard let measured = Self.measuredInk(of: recording, within: ink) else { return nil }
            ink = measured
        }
        let area = (ink.width + 4) * (ink.height + 4)
        let scale = area > Double(Self.maxOffscreenPixels) ? (Double(Self.maxOffscreenPixels) / area).squareRoot() : 1
        let x0 = (ink.x * scale).rounded(.down) - 2, y0 = (ink.y * scale).rounded(.down) - 2
        let x1 = ((ink.x + ink.width) * scale).rounded(.up) + 2, y1 = ((ink.y + ink.height) * scale).rounded(.up) + 2
        let width = Int(x1 - x0), height = Int(y1 - y0)
        guard width > 0, height > 0 else { return nil }
        let image = CairoSurface.image(.argb32, width: width, height: height)
        do {
            let ic = CairoContext(image)
            ic.translate(-x0, -y0)
            ic.scale(scale, scale)
            ic.setSource(replaying: recording, x: 0, y: 0)
            ic.paint()
        }
        return (Raster(x: Int(x0), y: Int(y0), width: width, height: height,
                       stride: image.stride, bytes: image.bytes()), scale)
    }

    /// Pixels of the coarse alpha image `measuredInk` paints a recording on.
    static let inkProbePixels = 512 * 512

    /// The part of `ink` (device units) where `recording` leaves any alpha, found on a
    /// coarse alpha image of at most `inkProbePixels` and grown by one of its pixels each
    /// way (coverage under 1/255 of a probe pixel rounds to nothing there); nil when
    /// nothing is painted. Small extents are returned as they are.
    static func measuredInk(of recording: CairoSurface, within ink: (x: Double, y: Double, width: Double, height: Double))
        -> (x: Double, y: Double, width: Double, height: Double)? {
        let cell = (ink.width * ink.height / Double(inkProbePixels)).squareRoot()  // device units a probe pixel
        guard cell > 1 else { return ink }
        let width = Int((ink.width / cell).rounded(.up)), height = Int((ink.height / cell).rounded(.up))
        let probe = CairoSurface.image(.a8, width: width, height: height)
        do {
            let pc = CairoContext(probe)
            pc.scale(1 / cell, 1 / cell)
            pc.setSource(replaying: recording, x: -ink.x, y: -ink.y)
            pc.paint()
        }
        let stride = probe.stride
        var minX = width, minY = height, maxX = -1, maxY = -1
        probe.bytes().withUnsafeBufferPointer { alpha in
            for row in 0..<height {
                let base = row * stride
                guard let first = (0..<width).first(where: { alpha[base + $0] != 0 }) else { continue }
                let last = (first..<width).last(where: { alpha[base + $0] != 0 }) ?? first
                minX = min(minX, first); maxX = max(maxX, last)
                minY = min(minY, row); maxY = row
            }
        }
        guard maxX >= 0 else { return nil }
        let x0 = max(ink.x, ink.x + Double(minX - 1) * cell), y0 = max(ink.y, ink.y + Double(minY - 1) * cell)
        let x1 = min(ink.x + ink.width, ink.x + Double(maxX + 2) * cell)
        let y1 = min(ink.y + ink.height, ink.y + Double(maxY + 2) * cell)
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// Paints raster pixels at their device position, `pixelsPerUnit` raster pixels a
    /// device unit, through the context's clip.
    /// `blend`: a compositing filter's blend mode (nil: source over).
    func paint(_ raster: Raster, pixelsPerUnit: Double, blend: BlendMode? = nil, in ctx: CairoContext) {
        let surface = CairoSurface.image(.argb32, width: raster.width, height: raster.height)
        surface.replaceBytes(raster.bytes, stride: raster.stride)
        paint(surface, x: raster.x, y: raster.y, pixelsPerUnit: pixelsPerUnit, blend: blend, in: ctx)
    }

    /// Paints an image surface whose top-left pixel sits at raster position (`x`, `y`),
    /// `pixelsPerUnit` raster pixels a device unit, through the context's clip.
    func paint(_ surface: CairoSurface, x: Int, y: Int, pixelsPerUnit: Double, blend: BlendMode? = nil,
               in ctx: CairoContext) {
        ctx.save()
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        ctx.scale(1 / pixelsPerUnit, 1 / pixelsPerUnit)
        ctx.setSource(replaying: surface, x: Double(x), y: Double(y))
        if let blend { ctx.setBlendMode(blend) }
        ctx.paint()
        ctx.restore()
    }

    /// Where a projected layer's flat rendering may have ink: its bounds grown by their
    /// larger side and its shadow's reach (sublayers beyond that are cut), scaled.
    static func flatExtents(of layer: Layer, scale: Double) -> Rect {
        let b = layer.bounds
        let margin = max(b.width, b.height) + 3 * layer.shadowRadius
            + abs(layer.shadowOffset.width) + abs(layer.shadowOffset.height) + 8
        return Rect((b.minX - margin) * scale, (b.minY - margin) * scale,
                    (b.width + 2 * margin) * scale, (b.height + 2 * margin) * scale)
    }

    // MARK: Color multiplication (CAReplicatorLayer's instanceColor)

    /// Draws `body` multiplied channel by channel by `color`: a copy's instance color.
    ///
    /// The copy is rasterized in device space and its premultiplied pixels scaled, which
    /// multiplies everything it draws — fills, strokes, gradients, images, text, shadows
    /// — in one place, rather than every drawing routine learning about a tint.
    func drawMultiplied(by color: Color, in ctx: CairoContext,
                        _ body: (CairoContext, LayerRenderer) -> Void) {
        let m = ctx.matrix, d = rasterDensity
        let canvas = deviceCanvas.map { c in Rect(c.0 * d, c.1 * d, (c.2 - c.0) * d, (c.3 - c.1) * d) }
        guard let (raster, scale) = rasterize(matrix: (m.a * d, m.b * d, m.c * d, m.d * d, m.tx * d, m.ty * d),
                                              extents: canvas, body)
        else { return }
        var out = raster
        let clamp = { (v: Double) in min(max(v, 0), 1) }
        let a = clamp(color.alpha)
        // Cairo's ARGB32 is a native-endian word: bytes B, G, R, A on little-endian hosts.
        let factors = [clamp(color.blue) * a, clamp(color.green) * a, clamp(color.red) * a, a]
        out.bytes.withUnsafeMutableBufferPointer { px in
            for row in 0..<out.height {
                var i = row * out.stride
                for _ in 0..<out.width {
                    for c in 0..<4 { px[i + c] = UInt8((Double(px[i + c]) * factors[c]).rounded()) }
                    i += 4
                }
            }
        }
        paint(out, pixelsPerUnit: d * scale, in: ctx)
    }

    // MARK: Projection (perspective, rotation about x or y)

    /// Draws a layer whose map to the device is projective, as Core Animation does: the
    /// layer's subtree is rendered flat in its own bounds space (`drawInPlane`), then that
    /// image is projected through the 4×4 onto the device.
    ///
    /// The projection is resampled here, per destination pixel, by the inverse
    /// homography — not by a mesh of affine triangles drawn with Cairo, whose
    /// antialiased shared edges would show as seams and whose piecewise-affine mapping
    /// bends straight lines. The flat image is made at `projectionSupersampling` × the
    /// largest magnification the projection reaches over the layer's bounds, rounded up
    /// to a step of `rasterScale(for:)` so that a layer turning from frame to frame keeps
    /// one flat image (`FlatRasterCache`); content edges arrive antialiased and the
    /// quad's own edge is a fade over a transparent margin. Each destination pixel
    /// averages an n × n grid of bilinear samples, n chosen so that no sample skips
    /// source pixels where the projection minifies most (the far side of a strongly
    /// tilted layer): one sample for a gentle tilt, more for a steep one. Points whose
    /// w ≤ 0 lie behind the eye and are not drawn.
    func drawProjected(_ layer: Layer, opacity: Double, through projection: PlaneProjection, in ctx: CairoContext) {
        let m = ctx.matrix, d = rasterDensity * projectionDetail
        // Layer plane → destination raster pixels.
        let toDestination = projection.concatenating(
            PlaneProjection(affine: m.a * d, m.b * d, m.c * d, m.d * d, m.tx * d, m.ty * d))
        guard let fromDestination = toDestination.inverted else { return }

        let deviceScale = abs(m.a * m.d - m.b * m.c).squareRoot() * d
        let corners = layer.bounds.isEmpty ? [layer.anchorInBounds] : layer.bounds.corners
        let magnifications = corners.compactMap { Self.magnification(of: toDestination, at: $0) }
        let magnification = magnifications.max() ?? deviceScale
        // Near the horizon the magnification grows without bound: cap it.
        let sourceScale = Self.rasterScale(
            magnification: min(max(magnification, deviceScale / 4), deviceScale * 8),
            minification: min(magnifications.min() ?? magnification, magnification))
        guard sourceScale > 0, sourceScale.isFinite else { return }
        let make = {
            let made = rasterize(matrix: (sourceScale, 0, 0, sourceScale, 0, 0),
                                 extents: Self.flatExtents(of: layer, scale: sourceScale)) { target, renderer in
                renderer.drawInPlane(layer, opacity: opacity, in: target)
            }
            return FlatRasterCache.Entry(raster: made?.raster, extra: made?.scale ?? 1)
        }
        let flat = flatRasters?.entry(for: FlatRasterCache.Key(layer: layer, opacity: opacity, scale: sourceScale),
                                      make: make) ?? make()
        guard let source = flat.raster else { return }
        let scale = sourceScale * flat.extra  // raster pixels per layer point

        // The raster's rectangle in the layer plane, cut where it crosses behind the eye.
        let rect = Rect(Double(source.x) / scale, Double(source.y) / scale,
                        Double(source.width) / scale, Double(source.height) / scale)
        let epsilon = 1e-9 * max(abs(toDestination.m33), 1)
        let front = Self.clip(rect.corners, toFront: toDestination, epsilon: epsilon)
        guard front.count >= 3 else { return }
        let projected = front.map { toDestination.apply(to: $0) }
        ctx.save()
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        let clip = ctx.clipExtents
        ctx.restore()
        let minX = max(projected.map(\.x).min() ?? 0, clip.0 * d).rounded(.down)
        let minY = max(projected.map(\.y).min() ?? 0, clip.1 * d).rounded(.down)
        let maxX = min(projected.map(\.x).max() ?? 0, clip.2 * d).rounded(.up)
        let maxY = min(projected.map(\.y).max() ?? 0, clip.3 * d).rounded(.up)
        guard maxX > minX, maxY > minY, (maxX - minX) * (maxY - minY) <= Double(Self.maxOffscreenPixels) * 4 else { return }

        // Source pixels per destination pixel where the projection shrinks most; a
        // bilinear sample covers two of them.
        let minification = scale / max(magnifications.min() ?? magnification, 1e-9)
        let grid = Int(min(max((minification / 2).rounded(.up), 1), 4))
        // w is linear over the plane: when the raster's corners are all in front, so is
        // every preimage that lands on it, and the per-sample test can go.
        let allInFront = rect.corners.allSatisfy { toDestination.w(at: $0) > epsilon }
        guard let resampler = ProjectiveResampler(
            fromDestination: fromDestination,
            planeToRaster: PlaneProjection(affine: scale, 0, 0, scale, -Double(source.x) - 0.5, -Double(source.y) - 0.5),
            behindEye: allInFront ? nil : (toDestination, epsilon), grid: grid) else { return }
        let width = Int(maxX - minX), height = Int(maxY - minY)
        // Written straight into a cleared image surface: no intermediate copy.
        let out = CairoSurface.image(.argb32, width: width, height: height)
        out.withPixels { dst, wordsPerRow in
            resampler.resample(source, into: dst, wordsPerRow: wordsPerRow, width: width, height: height,
                               origin: (minX, minY)) { row in
                // Only the columns the projected outline crosses in this row.
                guard let span = Self.span(of: projected, from: minY + Double(row), to: minY + Double(row + 1))
                else { return nil }
                return max(0, Int(max(span.lower - minX, 0)) - 1)..<max(0, min(width, Int(max(span.upper - minX, 0)) + 2))
            }
        }
        paint(out, x: Int(minX), y: Int(minY), pixelsPerUnit: d, in: ctx)
    }

    /// The flat image's scale (raster pixels per layer point) for a projection that
    /// magnifies the layer between `minification` and `magnification` device pixels per
    /// point: about `projectionSupersampling` × `magnification`, on a ladder of steps of
    /// 2^¼ (19 %) so that a layer whose tilt changes a little from frame to frame keeps
    /// its flat image (`FlatRasterCache`). Of the two steps around the ideal, the upper
    /// one is taken unless it would put more than two raster pixels under a destination
    /// pixel where the projection shrinks most (then a pixel needs several samples)
    /// while the lower one still gives every destination pixel at least one.
    static func rasterScale(magnification: Double, minification: Double) -> Double {
        let ideal = magnification * projectionSupersampling
        guard ideal > 0, ideal.isFinite else { return ideal }
        let upper = exp2((log2(ideal) * 4 - 1e-9).rounded(.up) / 4)
        let lower = upper / exp2(0.25)
        return upper > 2 * minification && lower >= magnification ? lower : upper
    }

    /// The largest stretch (device pixels per layer point along an axis) of `h` at `p`,
    /// nil behind the eye.
    static func magnification(of h: PlaneProjection, at p: Point) -> Double? {
        let w = h.w(at: p)
        guard w > 0 else { return nil }
        let q = h.apply(to: p)
        // Derivatives of (x/w, y/w) with respect to the plane's x and y.
        let dxdx = (h.m11 - q.x * h.m13) / w, dydx = (h.m12 - q.y * h.m13) / w
        let dxdy = (h.m21 - q.x * h.m23) / w, dydy = (h.m22 - q.y * h.m23) / w
        let m = max((dxdx * dxdx + dydx * dydx).squareRoot(), (dxdy * dxdy + dydy * dydy).squareRoot())
        return m.isFinite ? m : nil
    }

    /// The x extent of the convex polygon `points` within the band y0 ≤ y ≤ y1.
    static func span(of points: [Point], from y0: Double, to y1: Double) -> (lower: Double, upper: Double)? {
        var lower = Double.infinity, upper = -Double.infinity
        for (i, p) in points.enumerated() {
            let q = points[(i + 1) % points.count]
            let top = max(min(p.y, q.y), y0), bottom = min(max(p.y, q.y), y1)
            guard top <= bottom else { continue }
            // The edge's x at the ends of its part inside the band (no array: this runs
            // for every row of every projected layer).
            if p.y == q.y {
                lower = min(lower, p.x, q.x); upper = max(upper, p.x, q.x)
            } else {
                let x0 = p.x + (q.x - p.x) * (top - p.y) / (q.y - p.y)
                let x1 = p.x + (q.x - p.x) * (bottom - p.y) / (q.y - p.y)
                lower = min(lower, x0, x1); upper = max(upper, x0, x1)
            }
        }
        return lower <= upper ? (lower, upper) : nil
    }

    /// The polygon `points` cut to the half-plane where `h`'s w ≥ epsilon
    /// (Sutherland–Hodgman against one line).
    static func clip(_ points: [Point], toFront h: PlaneProjection, epsilon: Double) -> [Point] {
        var out: [Point] = []
        for (i, p) in points.enumerated() {
            let q = points[(i + 1) % points.count]
            let wp = h.w(at: p) - epsilon, wq = h.w(at: q) - epsilon
            if wp >= 0 { out.append(p) }
            if (wp >= 0) != (wq >= 0) {
                let t = wp / (wp - wq)
                out.append(Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t))
            }
        }
        return out
    }
}

