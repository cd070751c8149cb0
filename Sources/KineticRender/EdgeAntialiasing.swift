import KineticCairo
import KineticGeometry
import KineticLayers

/// CALayer's `allowsEdgeAntialiasing` and `edgeAntialiasingMask` on the layer's own
/// drawing (background, contents, border): the edges not antialiased come out as whole
/// pixels, on or off, as Cairo's CAIRO_ANTIALIAS_NONE rasterizes them (a pixel is
/// covered when its centre is inside).
///
/// With some edges antialiased and others not, the drawing is done twice into two
/// regions that share no pixel, both clipped without antialiasing: aliased inside the
/// rectangle that reaches two device pixels past the bounds across the aliased edges and
/// stops two device pixels inside the antialiased ones; antialiased everywhere else.
/// So each aliased edge is hard and each antialiased one soft, except within two device
/// pixels of a corner where the two kinds meet (drawn antialiased).
extension LayerRenderer {
    /// Runs `draw` (part of the layer's own drawing, in its bounds space) with the
    /// layer's edge antialiasing.
    func withEdgeAntialiasing(of layer: Layer, in ctx: CairoContext, _ draw: () -> Void) {
        guard !Self.antialiasesEveryEdge(of: layer) else { return draw() }
        let smooth = Self.smoothEdges(of: layer)
        ctx.save()
        defer { ctx.restore() }
        ctx.setAntialias(false)
        guard !smooth.isEmpty, let margin = Self.twoDevicePixels(ctx.matrix) else { return draw() }
        let b = layer.bounds
        let (x1, y1, x2, y2) = ctx.clipExtents
        let outer = Rect(min(x1, b.minX) - margin, min(y1, b.minY) - margin,
                         max(x2, b.maxX) - min(x1, b.minX) + 2 * margin, max(y2, b.maxY) - min(y1, b.minY) + 2 * margin)
        func side(_ edge: EdgeAntialiasingMask, _ inner: Double, _ beyond: Double) -> Double {
            smooth.contains(edge) ? inner : beyond
        }
        let minX = side(.layerLeftEdge, b.minX + margin, outer.minX), maxX = side(.layerRightEdge, b.maxX - margin, outer.maxX)
        let minY = side(.layerBottomEdge, b.minY + margin, outer.minY), maxY = side(.layerTopEdge, b.maxY - margin, outer.maxY)
        let aliased = Rect(minX, minY, max(0, maxX - minX), max(0, maxY - minY))
        // Aliased inside `aliased`…
        ctx.save()
        ctx.newPath()
        ctx.rectangle(aliased)
        ctx.clip()
        draw()
        ctx.restore()
        // …antialiased outside it: the even-odd ring between `outer` and `aliased`.
        ctx.newPath()
        ctx.rectangle(outer)
        ctx.rectangle(aliased)
        ctx.setEvenOddFill(true)
        ctx.clip()
        ctx.setEvenOddFill(false)
        ctx.setAntialias(true)
        draw()
    }

    /// The edges the layer draws antialiased.
    static func smoothEdges(of layer: Layer) -> EdgeAntialiasingMask {
        layer.allowsEdgeAntialiasing ? layer.edgeAntialiasingMask : []
    }

    /// Whether every edge is antialiased (the default): then ``withEdgeAntialiasing(of:in:_:)``
    /// only runs its closure.
    static func antialiasesEveryEdge(of layer: Layer) -> Bool { smoothEdges(of: layer) == .all }

    /// Two device pixels in user units, at least, in any direction; nil when the matrix
    /// is degenerate (nothing is drawn then anyway).
    static func twoDevicePixels(_ m: Affine) -> Double? {
        // The smallest stretch σ₁ = |det| / σ₂, and the largest σ₂ is at most the
        // Frobenius norm: so σ₁ ≥ |det| / ‖m‖, and 2‖m‖ / |det| user units cover two pixels.
        let det = abs(m.a * m.d - m.b * m.c)
        let norm = (m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d).squareRoot()
        guard det > 0, det.isFinite, norm.isFinite else { return nil }
        return 2 * norm / det
    }
}
