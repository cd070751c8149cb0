import KineticCairo
import KineticGeometry
import KineticLayers

extension LayerRenderer {
    /// CALayer.shouldRasterize: the layer and its subtree drawn into a bitmap of `scale`
    /// pixels per point of the layer's own space (its bounds space, before its transform),
    /// then composited with `opacity` through the context's map — as Core Animation
    /// caches the layer at `rasterizationScale`, so a scale below the one drawn at shows
    /// blurred. The bitmap covers the layer's ink within `flatExtents`, at most
    /// `maxOffscreenPixels` (beyond, its resolution drops).
    func drawRasterized(_ layer: Layer, scale: Double, opacity: Double, in ctx: CairoContext) {
        guard scale > 0, scale.isFinite else { return }
        let extents = Self.flatExtents(of: layer, scale: scale)
        guard let (raster, reduction) = rasterize(matrix: (scale, 0, 0, scale, 0, 0), extents: extents, { rc, renderer in
            renderer.drawInPlane(layer, opacity: 1, in: rc)
        }) else { return }
        let surface = CairoSurface.image(.argb32, width: raster.width, height: raster.height)
        surface.replaceBytes(raster.bytes, stride: raster.stride)
        // Raster pixel (i, j) is layer point ((x + i), (y + j)) / density.
        let density = scale * reduction
        ctx.save()
        ctx.scale(1 / density, 1 / density)
        ctx.newPath()
        ctx.rectangle(Rect(Double(raster.x), Double(raster.y), Double(raster.width), Double(raster.height)))
        ctx.clip()
        ctx.setSource(surface, x: Double(raster.x), y: Double(raster.y))
        ctx.paint(alpha: opacity)
        ctx.restore()
    }
}
