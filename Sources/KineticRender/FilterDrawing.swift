import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

extension LayerRenderer {
    /// Whether drawing the layer goes through `drawFiltered`.
    static func isFiltered(_ layer: Layer) -> Bool {
        !layer.filters.isEmpty || !layer.backgroundFilters.isEmpty || layer.compositingFilter != nil
    }

    /// A layer with `filters`, `backgroundFilters` or a `compositingFilter`: what lies
    /// behind it is blurred within its outline first (UIVisualEffectView's backdrop); then
    /// the layer's whole rendering (subtree included) is made offscreen in device pixels,
    /// blurred, and composited with the blend mode.
    func drawFiltered(_ layer: Layer, alpha: Double, sublayerSpace: Transform3D, in ctx: CairoContext) {
        var plain = layer
        plain.filters = []; plain.backgroundFilters = []; plain.compositingFilter = nil
        let m = ctx.matrix, d = rasterDensity
        let pointsToPixels = abs(m.a * m.d - m.b * m.c).squareRoot() * d
        if !layer.backgroundFilters.isEmpty {
            blurBackdrop(of: layer, sigma: LayerFilter.blurSigma(layer.backgroundFilters) * pointsToPixels,
                         sublayerSpace: sublayerSpace, in: ctx)
        }
        guard !layer.filters.isEmpty || layer.compositingFilter != nil else {
            draw(plain, alpha: alpha, sublayerSpace: sublayerSpace, in: ctx)
            return
        }
        let sigma = LayerFilter.blurSigma(layer.filters) * pointsToPixels
        // A wide blur loses nothing at a lower resolution: at most σ = 8 raster pixels, so
        // memory and time stay bounded for any radius and scale (as shadows do).
        let k = d / Self.blurCell(sigma)  // raster pixels a device unit
        // The blur reaches ink beyond the canvas edge by 3σ.
        let reach = 3 * sigma / d
        let canvas = deviceCanvas.map { c in
            Rect((c.0 - reach) * k, (c.1 - reach) * k, (c.2 - c.0 + 2 * reach) * k, (c.3 - c.1 + 2 * reach) * k)
        }
        guard let (raster, scale) = rasterize(matrix: (m.a * k, m.b * k, m.c * k, m.d * k, m.tx * k, m.ty * k),
                                              extents: canvas, { target, renderer in
            renderer.draw(plain, alpha: alpha, sublayerSpace: sublayerSpace, in: target)
        }) else { return }
        let out = sigma > 0 ? Self.blurred(raster, sigma: sigma * k / d * scale) : raster
        paint(out, pixelsPerUnit: k * scale, blend: layer.compositingFilter, in: ctx)
    }

    /// `backgroundFilters`: what has been drawn under the layer's outline (its rounded
    /// bounds; the projected bounds quad under a perspective) is replaced by its blur.
    /// Needs a target that can be read back: not drawn in SVG or PDF output.
    private func blurBackdrop(of layer: Layer, sigma: Double, sublayerSpace: Transform3D, in ctx: CairoContext) {
        guard sigma > 0, !layer.bounds.isEmpty, let target = ctx.readableTarget else { return }
        let projection = layer.projectionToSuperlayer(through: sublayerSpace)
        guard projection.isFinite else { return }
        let m = ctx.matrix, d = rasterDensity
        func device(_ p: Point) -> Point { Point(m.a * p.x + m.c * p.y + m.tx, m.b * p.x + m.d * p.y + m.ty) }
        let corners = layer.bounds.corners.map { device(projection.apply(to: $0)) }
        ctx.save()
        defer { ctx.restore() }
        ctx.newPath()
        if let affine = projection.affine {
            guard projection.m33 > 0, ctx.transform(affine) else { return }
            Self.appendRoundedRect(layer.bounds, corners: layer.corners, to: ctx)
        } else {
            // Behind the eye there is nothing to blur.
            guard layer.bounds.corners.allSatisfy({ projection.w(at: $0) > 0 }) else { return }
            Self.appendPath(.polyline(layer.bounds.corners.map(projection.apply(to:)), closed: true), to: ctx)
        }
        ctx.clip()
        // The blur samples 3σ around the outline; only what the clip lets through changes.
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        let clip = ctx.clipExtents
        let margin = (3 * sigma / d).rounded(.up) + 1
        let x0 = max(corners.map(\.x).min() ?? 0, clip.0) - margin, y0 = max(corners.map(\.y).min() ?? 0, clip.1) - margin
        let x1 = min(corners.map(\.x).max() ?? 0, clip.2) + margin, y1 = min(corners.map(\.y).max() ?? 0, clip.3) + margin
        let cell = Self.blurCell(sigma), k = d / cell  // raster pixels a device unit
        let left = (x0 * k).rounded(.down), top = (y0 * k).rounded(.down)
        let width = Int((x1 * k).rounded(.up) - left), height = Int((y1 * k).rounded(.up) - top)
        guard width > 0, height > 0, width * height <= Self.maxOffscreenPixels * 4 else { return }
        func blurredBackdrop() -> Raster {
            let backdrop = CairoSurface.image(.argb32, width: width, height: height)
            do {
                let bc = CairoContext(backdrop)
                bc.scale(k, k)
                // Padded: past the canvas edge the backdrop repeats its edge pixels (Core
                // Image clamps so too), rather than fading the blur to transparent there.
                bc.setSource(target, x: -left / k, y: -top / k)
                bc.paint()
            }
            return Self.blurred(Raster(x: Int(left), y: Int(top), width: width, height: height,
                                       stride: backdrop.stride, bytes: backdrop.bytes()), sigma: sigma / cell, pad: false)
        }
        let raster = backdrops?.raster(sampling: target, region: [left, top, Double(width), Double(height), k, sigma],
                                       make: blurredBackdrop) ?? blurredBackdrop()
        ctx.setReplacing()
        paint(raster, pixelsPerUnit: k, in: ctx)
    }

    /// Pixels of the drawing a blur raster pixel covers for a blur of `sigma` pixels:
    /// one up to σ = 8, then σ / 8 (the blur is made at σ = 8 and scaled back up).
    static func blurCell(_ sigma: Double) -> Double { max(1, sigma / 8) }

    /// The raster's four premultiplied channels blurred (σ in raster pixels), grown by 3σ
    /// each way for the spread (`pad`) or kept to its rectangle.
    static func blurred(_ raster: Raster, sigma: Double, pad: Bool = true) -> Raster {
        let grow = pad ? Int((3 * sigma).rounded(.up)) + 1 : 0
        let width = raster.width + 2 * grow, height = raster.height + 2 * grow
        var planes = [[UInt8]](repeating: [UInt8](repeating: 0, count: width * height), count: 4)
        // Through buffer pointers: indexing the nested arrays checked uniqueness per byte.
        raster.bytes.withUnsafeBufferPointer { src in
            for c in 0..<4 {
                planes[c].withUnsafeMutableBufferPointer { dst in
                    for row in 0..<raster.height {
                        let i = row * raster.stride + c, o = (row + grow) * width + grow
                        for col in 0..<raster.width { dst[o + col] = src[i + col * 4] }
                    }
                }
            }
        }
        for c in 0..<4 { GaussianBlur.apply(to: &planes[c], width: width, height: height, stride: width, sigma: sigma) }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            planes[0].withUnsafeBufferPointer { b in planes[1].withUnsafeBufferPointer { g in
                planes[2].withUnsafeBufferPointer { r in planes[3].withUnsafeBufferPointer { a in
                    for o in 0..<(width * height) {
                        // Premultiplied: no channel may exceed alpha (the rounding of separate blurs).
                        let alpha = a[o]
                        out[o * 4] = min(b[o], alpha)
                        out[o * 4 + 1] = min(g[o], alpha)
                        out[o * 4 + 2] = min(r[o], alpha)
                        out[o * 4 + 3] = alpha
                    }
                } }
            } }
        }
        return Raster(x: raster.x - grow, y: raster.y - grow, width: width, height: height, stride: width * 4, bytes: bytes)
    }
}
