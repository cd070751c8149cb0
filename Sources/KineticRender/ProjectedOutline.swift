import KineticCairo
import KineticGeometry
import KineticLayers

/// A layer under a projective map that paints nothing but filled outlines — background,
/// border, rounded or masked corners, a shape layer's fill — drawn exactly: its outlines
/// flattened in its own plane, each point projected onto the device, and the polygons
/// filled by Cairo there. Drawing such a layer flat and warping the image
/// (`drawProjected`) would resample its edges, softening them by up to a pixel; a
/// projected outline keeps every edge as sharp as an unprojected one (and as the Lottie
/// export, which bakes the same outlines, is played).
///
/// Anything else — contents, text, gradients, strokes, particles, visible sublayers, a
/// shadow, a mask, rasterization, edges only partly antialiased, a layer reaching to or
/// behind the eye — keeps the warp.
extension LayerRenderer {
    /// The most a flattened outline strays from its curve, in device pixels.
    static let projectedOutlineTolerance = 0.05
    /// Projected points farther than this from the device origin (device units) are
    /// beyond what Cairo's 24.8 fixed point holds: such a layer keeps the warp.
    static let projectedOutlineReach = 1e6

    /// One fill of a layer's own drawing, in its bounds space.
    struct OutlineFill {
        var path: BezierPath
        var evenOdd: Bool
        var color: Color
    }

    /// The fills that make up the layer's own drawing, in CALayer's order (background,
    /// shape fill, border), when that is all it draws; nil when it draws anything else.
    static func outlineFills(of layer: Layer) -> [OutlineFill]? {
        guard layer.contents == nil, layer.contentsCrossFade == nil, !layer.hasMask, !layer.shouldRasterize,
              layer.shadowOpacity <= 0, !isFiltered(layer), layer.colorMultiplier.map({ $0 == .white }) ?? true,
              !layer.sublayers.contains(where: \.isVisible) else { return nil }
        var fills: [OutlineFill] = []
        let bounds = layer.bounds
        if let bg = layer.backgroundColor, bg.alpha > 0, !bounds.isEmpty {
            fills.append(OutlineFill(path: layer.corners.path(in: bounds), evenOdd: false, color: bg))
        }
        switch layer.content {
        case .plain: break
        case .shape(let style):
            // Strokes, the debug overlay and a fill clipped to the bounds are not outlines.
            let strokes = style.strokeColor.map { $0.alpha > 0 && style.lineWidth > 0 } ?? false
            guard !strokes, style.namedShape?.controlPoints == nil, !layer.masksToBounds else { return nil }
            if let fill = style.fillColor, fill.alpha > 0, !style.path.isEmpty {
                fills.append(OutlineFill(path: style.path, evenOdd: style.fillRule == .evenOdd, color: fill))
            }
        case .gradient, .text, .replicator, .emitter: return nil
        }
        if let border = borderOutline(of: layer) {
            var path = border.outer.path(in: bounds)
            if let inner = border.inner { path.append(inner.corners.path(in: inner.rect)) }
            fills.append(OutlineFill(path: path, evenOdd: true, color: layer.borderColor))
        }
        return fills
    }

    /// Draws `layer` through `projection` (its plane → the context's user space) as
    /// projected outlines; false, drawing nothing, when it must be warped instead.
    func drawProjectedOutlines(_ layer: Layer, opacity: Double, through projection: PlaneProjection,
                               in ctx: CairoContext) -> Bool {
        guard let fills = Self.outlineFills(of: layer) else { return false }
        // Edges all antialiased or none: a mix clips by rectangles of the layer's plane.
        let smooth: EdgeAntialiasingMask = layer.allowsEdgeAntialiasing ? layer.edgeAntialiasingMask : []
        guard smooth == .all || smooth.isEmpty else { return false }
        guard !fills.isEmpty else { return true }

        let m = ctx.matrix
        let toDevice = projection.concatenating(PlaneProjection(affine: m.a, m.b, m.c, m.d, m.tx, m.ty))
        // Device pixels per layer point where the outline is magnified most (w is linear,
        // so at a corner of its box), which sets the flattening's tolerance.
        let box = fills.dropFirst().reduce(fills[0].path.boundingBox) { $0.union($1.path.boundingBox) }
        var magnification = 0.0
        for corner in box.corners {
            guard let stretch = Self.magnification(of: toDevice, at: corner) else { return false }
            magnification = max(magnification, stretch * rasterDensity)
        }
        guard magnification > 0, magnification.isFinite else { return true }
        let tolerance = Self.projectedOutlineTolerance / magnification
        // Every flattened point in front of the eye puts every point of its polygons there.
        let epsilon = 1e-9 * max(abs(toDevice.m33), 1)
        var polygons: [[[Point]]] = []
        for fill in fills {
            var projected: [[Point]] = []
            for polyline in fill.path.flattened(tolerance: tolerance) {
                var points: [Point] = []
                points.reserveCapacity(polyline.count)
                for p in polyline {
                    guard toDevice.w(at: p) > epsilon else { return false }
                    let q = toDevice.apply(to: p)
                    guard abs(q.x) < Self.projectedOutlineReach, abs(q.y) < Self.projectedOutlineReach else { return false }
                    points.append(q)
                }
                projected.append(points)
            }
            polygons.append(projected)
        }

        ctx.save()
        defer { ctx.restore() }
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        if smooth.isEmpty { ctx.setAntialias(false) }
        // Several fills fade as one group, as `drawInPlane` fades them.
        let grouped = opacity < 1 && layer.allowsGroupOpacity && Self.drawsSeveralThings(layer)
        if grouped {
            // The group covers the outline's whole pixels only.
            let all = polygons.joined().joined()
            let xs = all.map(\.x), ys = all.map(\.y)
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return true }
            ctx.newPath()
            ctx.rectangle(Rect(x0.rounded(.down) - 1, y0.rounded(.down) - 1,
                               x1.rounded(.up) - x0.rounded(.down) + 2, y1.rounded(.up) - y0.rounded(.down) + 2))
            ctx.clip()
            ctx.pushGroup()
        }
        let alpha = grouped ? 1 : opacity
        for (fill, projected) in zip(fills, polygons) {
            ctx.newPath()
            for polygon in projected {
                guard let first = polygon.first else { continue }
                ctx.move(to: first)
                for p in polygon.dropFirst() { ctx.line(to: p) }
                ctx.closePath()
            }
            ctx.setEvenOddFill(fill.evenOdd)
            ctx.setSource(fill.color.multiplyingAlpha(alpha))
            ctx.fill()
        }
        if grouped {
            ctx.setSource(ctx.popGroup())
            ctx.paint(alpha: opacity)
        }
        return true
    }
}
