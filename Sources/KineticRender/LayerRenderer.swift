import KineticCairo
import KineticGeometry
import KineticLayers

/// Draws presentation trees on one Cairo context, as Core Animation composites a layer
/// tree. One is made per render call; it holds only that call's image surfaces.
struct LayerRenderer {
    let images: ImageSurfaces
    /// Raster pixels per device unit for what this renderer resamples itself (projected
    /// 3D layers, color-multiplied copies): 1 on image surfaces, more on vector ones whose
    /// device unit is a point.
    var rasterDensity = 1.0
    /// A factor on the resolution of projected layers: below 1 while drawing a shadow's
    /// silhouette, whose blur would erase the detail anyway.
    var projectionDetail = 1.0
    /// The canvas in device space (x0, y0, x1, y1), when known: bounds what pixel-buffer
    /// drawing (particles) allocates on surfaces without a clip, such as shadow recordings.
    var deviceCanvas: (Double, Double, Double, Double)? = nil
    /// Flat renderings of projected layers shared by a scene's frames; nil draws each anew.
    var flatRasters: FlatRasterCache? = nil
    /// Blurred shadow silhouettes shared by a scene's frames; nil makes each anew.
    var shadows: ShadowCache? = nil
    /// Blurred backdrops shared by a scene's frames; nil blurs each anew.
    var backdrops: BackdropCache? = nil
    /// Memory for the image surfaces a frame draws in and drops, kept for later frames;
    /// nil allocates each anew (vector files, whose recordings may hold a source).
    var scratch: ScratchImages? = nil
    /// Whether a shadow leaves out what its layer's opaque background paints over (the
    /// same pixels, less work); off only in tests, to compare.
    var skipsCoveredShadow = true

    /// Draws a frame's background over the whole canvas (`size` in points).
    func drawBackground(_ background: Background, size: Size, in ctx: CairoContext) {
        switch background {
        case .color(let color):
            guard color.alpha > 0 else { return }
            ctx.setSource(color)
            ctx.paint()
        case .gradient(let gradient):
            drawGradient(gradient, in: Rect(origin: .zero, size: size), corners: RoundedCorners(radius: 0), alpha: 1, in: ctx)
        }
    }

    /// Whether ``drawBackground(_:size:in:)``, at `scale` pixels per point on a canvas of
    /// `pixels`, sets every pixel to an opaque colour whatever the pixel held (OVER with
    /// alpha 1 writes the source), so the canvas need not be cleared first (issue 42).
    ///
    /// A colour is painted over the whole canvas. A gradient fills the rectangle of `size`,
    /// which covers every pixel unless the canvas rounded its size up (the last column or
    /// row, partly covered, would keep part of what was there); its colours are its stops
    /// and blends of them, opaque when they all are, and past its ends the end colours
    /// (padded). Axial only: a radial one's pattern matrix can fail for a tiny ellipse (and
    /// then nothing is drawn), and a conic one is a mesh of sectors.
    static func backgroundPaintsEveryPixel(_ background: Background, size: Size, scale: Double,
                                           pixels: (width: Int, height: Int)) -> Bool {
        guard !background.mayBeTransparent else { return false }
        switch background {
        case .color:
            return true
        case .gradient(let gradient):
            return gradient.gradientType == .axial && !gradient.colors.isEmpty
                && size.width * scale >= Double(pixels.width) && size.height * scale >= Double(pixels.height)
        }
    }

    /// Draws sibling layers in the context's current space (their superlayer's bounds
    /// space), back to front. `sublayerSpace` is the superlayer's (identity at the root).
    func drawLayers(_ layers: [Layer], alpha: Double, sublayerSpace: Transform3D = .identity,
                    in ctx: CairoContext) {
        Layer.drawOrder(layers).withUnsafeBufferPointer { ordered in
            // Never written through: `draw(inPlace:)` only reads (see there why it is inout).
            guard let layer = ordered.baseAddress.map(UnsafeMutablePointer.init(mutating:)) else { return }
            for i in ordered.indices {
                if layer[i].type == .transformLayer {
                    for leaf in layer[i].sharedSpace(alpha: alpha, space: sublayerSpace) {
                        draw(leaf.layer, alpha: leaf.alpha, sublayerSpace: leaf.space, in: ctx)
                    }
                } else {
                    draw(inPlace: &layer[i], alpha: alpha, sublayerSpace: sublayerSpace, in: ctx)
                }
            }
        }
    }

    /// Draws one layer and its subtree; `alpha` is the opacity inherited from ancestors
    /// that did not need a group of their own, `sublayerSpace` the superlayer's.
    func draw(_ layer: Layer, alpha: Double, sublayerSpace: Transform3D = .identity, in ctx: CairoContext) {
        var layer = layer
        draw(inPlace: &layer, alpha: alpha, sublayerSpace: sublayerSpace, in: ctx)
    }

    /// `draw(_:alpha:sublayerSpace:in:)` reading the layer where it lies: `inout` for its
    /// address alone, never written. Swift copies a `Layer` read from an array (or through a
    /// pointer) before passing it borrowed to a call it cannot see into, with a retain and a
    /// release of every reference the layer holds (~0.4 M instructions a frame for 300
    /// siblings); an inout argument it passes as is.
    private func draw(inPlace layer: inout Layer, alpha: Double, sublayerSpace: Transform3D, in ctx: CairoContext) {
        guard layer.isVisible else { return }
        if let multiplier = layer.colorMultiplier, multiplier != .white {
            var plain = layer
            plain.colorMultiplier = nil
            drawMultiplied(by: multiplier, in: ctx) { target, renderer in
                renderer.draw(plain, alpha: alpha, sublayerSpace: sublayerSpace, in: target)
            }
            return
        }
        if Self.isFiltered(layer) {
            drawFiltered(layer, alpha: alpha, sublayerSpace: sublayerSpace, in: ctx)
            return
        }
        let opacity = alpha * min(layer.opacity, 1)
        let projection = layer.projectionToSuperlayer(through: sublayerSpace)
        guard projection.isFinite else { return }
        guard let affine = projection.affine else {
            // Perspective or a rotation about x or y: outlines projected exactly where
            // that is all the layer draws, else drawn flat, then projected.
            guard !drawProjectedOutlines(layer, opacity: opacity, through: projection, in: ctx) else { return }
            drawProjected(layer, opacity: opacity, through: projection, in: ctx)
            return
        }
        // A constant w ≤ 0 puts the whole layer at or behind the eye.
        guard projection.m33 > 0 else { return }
        ctx.save()
        defer { ctx.restore() }
        guard ctx.transform(affine) else { return }
        drawInPlane(layer, opacity: opacity, in: ctx)
    }

    /// Draws a layer in its own bounds space (the context already maps it), with its
    /// mask and its group opacity.
    func drawInPlane(_ layer: Layer, opacity: Double, in ctx: CairoContext) {
        if layer.shouldRasterize {
            var plain = layer
            plain.shouldRasterize = false
            return drawRasterized(plain, scale: layer.rasterizationScale, opacity: opacity, in: ctx)
        }
        let fadesAsGroup = opacity < 1 && layer.allowsGroupOpacity && Self.drawsSeveralThings(layer)
        let grouped = layer.hasMask || fadesAsGroup
        if grouped {
            ctx.save()
            // Groups cover the layer's ink only, not the canvas.
            guard clipToInk(of: layer, in: ctx) else { return ctx.restore() }
        }
        defer { if grouped { ctx.restore() } }
        if layer.hasMask, let mask = layer.mask {
            // The layer's subtree composited through the mask layer's alpha; the mask
            // carries the group's opacity, which scales that alpha.
            ctx.pushGroup()
            drawBody(layer, alpha: 1, castsShadow: true, in: ctx)
            let content = ctx.popGroup()
            ctx.pushGroup()
            draw(mask, alpha: opacity, sublayerSpace: .identity, in: ctx)
            let maskPattern = ctx.popGroup()
            ctx.setSource(content)
            ctx.mask(maskPattern)
        } else if fadesAsGroup {
            // Opacity applies to the layer and its sublayers as one flattened group:
            // overlapping parts must not show through each other.
            ctx.pushGroup()
            drawBody(layer, alpha: 1, castsShadow: true, in: ctx)
            ctx.setSource(ctx.popGroup())
            ctx.paint(alpha: opacity)
        } else {
            // One drawing operation at most: its own alpha equals the group's; without
            // group opacity each operation and sublayer takes the opacity on its own.
            drawBody(layer, alpha: opacity, castsShadow: true, in: ctx)
        }
    }

    /// Narrows the clip to the device rectangle the layer paints (whole pixels, so no
    /// pixel changes), which sizes the groups pushed under it. False when it paints
    /// nothing; the clip is left as it was when its ink cannot be bounded.
    private func clipToInk(of layer: Layer, in ctx: CairoContext) -> Bool {
        let m = ctx.matrix
        guard let box = deviceInk(of: layer, matrix: m, ownShadow: true) else { return true }
        guard box.x1 > box.x0, box.y1 > box.y0 else { return false }
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        ctx.newPath()
        ctx.rectangle(Rect(box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0))
        ctx.clip()
        ctx.matrix = m
        return true
    }

    /// Whether the layer paints more than one overlapping operation (then opacity needs
    /// a group).
    static func drawsSeveralThings(_ layer: Layer) -> Bool {
        var count = 0
        if layer.shadowOpacity > 0 { count += 1 }
        if let bg = layer.backgroundColor, bg.alpha > 0 { count += 1 }
        if layer.contents != nil { count += 1 }
        if layer.borderWidth > 0 && layer.borderColor.alpha > 0 { count += 1 }
        switch layer.content {
        case .plain: break
        case .shape(let s):
            if s.fillColor != nil { count += 1 }
            if s.strokeColor != nil { count += 1 }
        case .gradient, .text: count += 1
        case .replicator: break
        case .emitter(let e): if e.particles.count > 0 { count += 1 }
        }
        if count > 1 { return true }
        for sublayer in layer.sublayers where sublayer.isVisible {
            count += 1
            if count > 1 { return true }
        }
        return false
    }

    /// Everything a layer paints, in its bounds space, in CALayer's order: shadow,
    /// background, contents, subclass content, sublayers, then the border on top.
    /// `castsShadow` is false while drawing the layer's own shadow silhouette.
    func drawBody(_ layer: Layer, alpha: Double, castsShadow: Bool, in ctx: CairoContext) {
        let bounds = layer.bounds
        if layer.masksToBounds {
            // Clips contents, content and sublayers to the rounded bounds — and the
            // shadow, which is why a masksToBounds layer shows no shadow on iOS.
            ctx.save()
            ctx.newPath()
            Self.appendRoundedRect(bounds, corners: layer.corners, to: ctx)
            ctx.clip()
        }
        // An emitter that paints nothing but particles casts its shadow from their buffer.
        var particleShadow: ShadowLook? = nil
        if castsShadow && layer.shadowOpacity > 0 {
            let look = ShadowLook(of: layer, alpha: alpha, matrix: ctx.matrix)
            if let look, look.cell == 1, Self.paintsOnlyParticles(layer) {
                particleShadow = look
            } else {
                drawShadow(of: layer, alpha: alpha, in: ctx)
            }
        }
        if let bg = layer.backgroundColor, bg.alpha > 0, !bounds.isEmpty {
            let corners = layer.corners, color = bg.multiplyingAlpha(alpha)
            // Every edge antialiased (the default): filled directly, without the closure,
            // whose captures copied the layer and the renderer for every layer drawn.
            if Self.antialiasesEveryEdge(of: layer) {
                Self.fillRoundedRect(bounds, corners: corners, color: color, in: ctx)
            } else {
                withEdgeAntialiasing(of: layer, in: ctx) {
                    Self.fillRoundedRect(bounds, corners: corners, color: color, in: ctx)
                }
            }
        }
        // Without contents there is nothing to draw: skip the closure, which copies the layer.
        if layer.contents != nil || layer.contentsCrossFade != nil {
            withEdgeAntialiasing(of: layer, in: ctx) { drawContents(of: layer, in: bounds, alpha: alpha, ctx: ctx) }
        }
        switch layer.content {
        case .plain: break
        case .shape(let style): drawShape(style, alpha: alpha, in: ctx)
        case .gradient(let gradient):
            drawGradient(gradient, in: bounds, corners: layer.corners, alpha: alpha, in: ctx)
        case .text(let style): drawText(style, in: bounds, alpha: alpha, ctx: ctx)
        case .replicator: break  // its copies are sublayers of the presentation tree
        case .emitter(let style): drawParticles(style, alpha: alpha, shadow: particleShadow, in: ctx)
        }
        drawSublayers(of: layer, alpha: alpha, in: ctx)
        if layer.masksToBounds { ctx.restore() }
        drawBorder(of: layer, alpha: alpha, in: ctx)
    }

    /// An emitter layer with no background, contents, border, shadow path or visible
    /// sublayer: its silhouette is its particles' buffer.
    static func paintsOnlyParticles(_ layer: Layer) -> Bool {
        guard case .emitter = layer.content, layer.shadowPath == nil, layer.contents == nil,
              layer.contentsCrossFade == nil else { return false }
        if let bg = layer.backgroundColor, bg.alpha > 0 { return false }
        if layer.borderWidth > 0 && layer.borderColor.alpha > 0 { return false }
        return !layer.sublayers.contains(where: \.isVisible)
    }

    /// Sublayers live in the layer's bounds space, through `sublayerTransform` applied
    /// about the layer's anchor point (where Core Animation applies it); each sublayer
    /// composes it with its own 4×4 before being flattened into this layer's plane.
    private func drawSublayers(of layer: Layer, alpha: Double, in ctx: CairoContext) {
        guard !layer.sublayers.isEmpty else { return }
        drawLayers(layer.sublayers, alpha: alpha, sublayerSpace: layer.sublayerSpace, in: ctx)
    }

    /// The border lies inside the bounds: the ring between the rounded bounds and the
    /// bounds inset by `borderWidth`, whose corners keep the same centres.
    private func drawBorder(of layer: Layer, alpha: Double, in ctx: CairoContext) {
        guard let border = Self.borderOutline(of: layer) else { return }
        withEdgeAntialiasing(of: layer, in: ctx) {
            ctx.save()
            ctx.newPath()
            Self.appendRoundedRect(layer.bounds, corners: border.outer, to: ctx)
            if let inner = border.inner { Self.appendRoundedRect(inner.rect, corners: inner.corners, to: ctx) }
            ctx.setEvenOddFill(true)
            ctx.setSource(layer.borderColor.multiplyingAlpha(alpha))
            ctx.fill()
            ctx.restore()
        }
    }

    /// The border's outline, filled even-odd: the bounds with the corners' effective
    /// radius, and the bounds inset by `borderWidth` with that radius less the width
    /// (nil when the border fills the layer); nil when there is no border.
    static func borderOutline(of layer: Layer) -> (outer: RoundedCorners, inner: (rect: Rect, corners: RoundedCorners)?)? {
        let width = layer.borderWidth, bounds = layer.bounds
        guard width > 0, layer.borderColor.alpha > 0, !bounds.isEmpty else { return nil }
        var outer = layer.corners
        switch outer.shape(in: bounds) {
        case .square: outer.radius = 0
        case .circular(let r), .continuous(let r): outer.radius = r
        }
        guard width < min(bounds.width, bounds.height) / 2 else { return (outer, nil) }
        var inner = outer
        inner.radius = max(0, outer.radius - width)
        return (outer, (bounds.insetBy(dx: width, dy: width), inner))
    }

    /// Fills the rounded rectangle with `color` (a layer's background).
    static func fillRoundedRect(_ rect: Rect, corners: RoundedCorners, color: Color, in ctx: CairoContext) {
        ctx.newPath()
        Self.appendRoundedRect(rect, corners: corners, to: ctx)
        ctx.setSource(color)
        ctx.fill()
    }

    /// Adds the rounded rectangle as a closed subpath. Four circular corners are drawn
    /// with Cairo's arcs; masked or continuous corners follow `RoundedCorners.path`.
    static func appendRoundedRect(_ rect: Rect, corners: RoundedCorners, to ctx: CairoContext) {
        switch corners.shape(in: rect) {
        case .square:
            ctx.rectangle(rect)
        case .circular(let r) where corners.mask == .all:
            let half = Double.pi / 2
            ctx.move(to: Point(rect.minX + r, rect.minY))
            ctx.arc(center: Point(rect.maxX - r, rect.minY + r), radius: r, from: -half, to: 0)
            ctx.arc(center: Point(rect.maxX - r, rect.maxY - r), radius: r, from: 0, to: half)
            ctx.arc(center: Point(rect.minX + r, rect.maxY - r), radius: r, from: half, to: 2 * half)
            ctx.arc(center: Point(rect.minX + r, rect.minY + r), radius: r, from: 2 * half, to: 3 * half)
            ctx.closePath()
        case .circular, .continuous:
            Self.appendPath(corners.path(in: rect), to: ctx)
        }
    }
}

extension Color {
    /// The color with its alpha scaled by an inherited opacity.
    func multiplyingAlpha(_ factor: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * factor)
    }
}
