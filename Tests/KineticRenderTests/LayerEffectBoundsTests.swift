import Foundation
import Testing
import KineticCairo
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// Shadows and opacity groups are worked out on offscreen images bounded to the layer's
/// ink (issue 15); these check that the bounds hold all of it, and that the faster paths
/// (cached silhouettes, an emitter's shadow from its particle buffer) draw what the
/// general one draws.
@Suite struct LayerEffectBoundsTests {
    /// The largest channel difference between two images of the same size.
    func maxDifference(_ a: PixelImage, _ b: PixelImage) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)),
                            abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
            }
        }
        return worst
    }

    /// A card: rounded white background, a stroked triangle overflowing its top edge
    /// (a miter point), and a turned sublayer.
    func card(at position: Point, shadowRadius: Double = 4) -> Layer {
        var layer = solid(.white, size: Size(60, 40), at: position)
        layer.cornerRadius = 8
        var shape = Layer(place: "s", type: .shape)
        shape.bounds = Rect(0, 0, 60, 40)
        shape.position = Point(30, 20)
        var style = ShapeStyle()
        style.path = .polyline([Point(10, 10), Point(30, 2), Point(50, 10)], closed: true)
        style.fillColor = blue
        style.strokeColor = red
        style.lineWidth = 6
        shape.content = .shape(style)
        var turned = solid(green, size: Size(20, 10), at: Point(45, 35))
        turned.transform = Transform3D.rotation(0.6, 0, 0, 1)
        layer.sublayers = [shape, turned]
        layer.shadowOpacity = 0.8
        layer.shadowRadius = shadowRadius
        layer.shadowOffset = Size(3, 5)
        return layer
    }

    func image(_ layers: [Layer], renderer: Renderer = Renderer(scale: 2)) -> PixelImage {
        renderer.render(frame(layers))
    }

    @Test func theInkBoundsHoldEveryPaintedPixel() {
        for radius in [0.0, 4] {
            let layer = card(at: Point(100, 90), shadowRadius: radius)
            let picture = image([layer])
            let renderer = LayerRenderer(images: ImageSurfaces(ImageCache()))
            // Canvas (points) → device at scale 2, then the layer's own map.
            let affine = layer.projectionToSuperlayer(through: .identity).affine!
            let m = LayerRenderer.concatenate(affine, (2, 0, 0, 2, 0, 0))
            let box = renderer.deviceInk(of: layer, matrix: m, ownShadow: true)!
            var outside = 0, inside = 0
            for y in 0..<picture.height {
                for x in 0..<picture.width where picture.alpha(x, y) > 0 {
                    let within = Double(x) >= box.x0 && Double(x) < box.x1 && Double(y) >= box.y0 && Double(y) < box.y1
                    if within { inside += 1 } else { outside += 1 }
                }
            }
            #expect(outside == 0 && inside > 0, "radius \(radius): \(outside) painted pixels outside \(box)")
        }
    }

    @Test func aMiterReachesAsFarAsItsSharpestJoin() {
        // A square turns 90° at each corner: 1 / cos 45° = √2; a circle of four curves
        // turns nowhere; a 12° spike mitres at 1 / sin 6° = 9.57 under a limit of 10 and
        // is bevelled under 9; a curve whose points all coincide has no direction.
        let square = BezierPath.rect(Rect(0, 0, 10, 10))
        #expect(abs(LayerRenderer.miterSpread(square, miterLimit: 10) - 2.0.squareRoot()) < 1e-9)
        #expect(abs(LayerRenderer.miterSpread(.oval(in: Rect(0, 0, 40, 40)), miterLimit: 10) - 1) < 1e-6)
        let half = 6.0 * .pi / 180
        let spike = BezierPath.polyline([Point(100 * cos(half), 100 * sin(half)), Point(0, 0), Point(100 * cos(half), -100 * sin(half))],
                                        closed: false)
        let tipRatio = 1 / sin(half)
        #expect(abs(LayerRenderer.miterSpread(spike, miterLimit: 10) - tipRatio) < 1e-6)
        #expect(LayerRenderer.miterSpread(spike, miterLimit: 9) == 1)
        let point = BezierPath([.move(to: Point(5, 5)), .curve(to: Point(5, 5), control1: Point(5, 5), control2: Point(5, 5))])
        #expect(LayerRenderer.miterSpread(point, miterLimit: 10) == 10)
    }

    @Test func theInkBoundsHoldASharpMiter() {
        // The spike's tip reaches 9.57 half-widths beyond its point: the bounds must hold it.
        var layer = Layer(place: "spike", type: .shape)
        layer.bounds = Rect(0, 0, 200, 200)
        layer.position = Point(100, 100)
        var style = ShapeStyle()
        let half = 6.0 * .pi / 180
        style.path = .polyline([Point(150, 100), Point(60, 100 + 90 * tan(half)), Point(60, 100 - 90 * tan(half))], closed: true)
        style.fillColor = nil
        style.strokeColor = red
        style.lineWidth = 4
        layer.content = .shape(style)
        let picture = image([layer])
        let renderer = LayerRenderer(images: ImageSurfaces(ImageCache()))
        let box = renderer.deviceInk(of: layer, matrix: (2, 0, 0, 2, 0, 0), ownShadow: false)!
        var outside = 0, beyondTheTip = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture.alpha(x, y) > 0 {
                if Double(x) < box.x0 || Double(x) >= box.x1 || Double(y) < box.y0 || Double(y) >= box.y1 { outside += 1 }
                if x > 2 * 152 { beyondTheTip += 1 }
            }
        }
        #expect(beyondTheTip > 0)  // the miter is drawn (the test covers it)
        #expect(outside == 0, "\(outside) painted pixels outside \(box)")
    }

    @Test func aCardKeepsItsShadowWhileItsContentChanges() {
        // A wide blur (σ 8 px) of an opaque card whose sublayer moves and changes colour
        // inside the card, and whose own colour changes: one cached silhouette, and every
        // frame draws the bytes a fresh renderer (a miss, this frame's own silhouette) draws.
        func card(_ step: Int) -> Layer {
            var layer = solid(step % 2 == 0 ? .white : Color(red: 0.2, green: 0.4, blue: 0.9), size: Size(80, 60),
                              at: Point(100, 90))
            layer.cornerRadius = 8
            layer.shadowOpacity = 0.5
            layer.shadowRadius = 4
            layer.shadowOffset = Size(0, 3)
            layer.sublayers = [solid(step % 2 == 0 ? red : green, size: Size(20, 10), at: Point(20 + 10 * Double(step), 30))]
            return layer
        }
        let cached = Renderer(scale: 2)
        for step in 0..<4 {
            let reused = image([card(step)], renderer: cached)
            let fresh = image([card(step)], renderer: Renderer(scale: 2))
            let differing = zip(reused.bytes, fresh.bytes).filter { $0 != $1 }.count
            #expect(reused.bytes.count == fresh.bytes.count && differing == 0, "step \(step): \(differing) bytes differ")
        }
        #expect(cached.shadows?.count == 1)
        // A sublayer reaching the card's edge can change the silhouette: its own entry.
        var edge = card(0)
        edge.sublayers[0].position = Point(75, 30)
        _ = image([edge], renderer: cached)
        #expect(cached.shadows?.count == 2)
    }

    @Test func aFadedFillAndStrokeIsOneGroup() {
        // Fill blue, stroke red, opacity 0.5 on white: where the stroke covers the fill the
        // group shows red at half strength only (no blue under it), at 50 % over white.
        var layer = Layer(place: "s", type: .shape)
        layer.bounds = Rect(0, 0, 200, 200)
        layer.position = Point(100, 100)
        var style = ShapeStyle()
        style.path = .rect(Rect(50, 50, 100, 100))
        style.fillColor = blue
        style.strokeColor = red
        style.lineWidth = 20
        layer.content = .shape(style)
        layer.opacity = 0.5
        let picture = render([layer], background: .color(.white))
        let onStroke = picture.rgba(x: 55, y: 100), onFill = picture.rgba(x: 100, y: 100), off = picture.rgba(x: 20, y: 20)
        #expect(abs(Int(onStroke.r) - 255) <= 1 && abs(Int(onStroke.g) - 128) <= 1 && abs(Int(onStroke.b) - 128) <= 1)
        #expect(abs(Int(onFill.r) - 128) <= 1 && abs(Int(onFill.g) - 128) <= 1 && abs(Int(onFill.b) - 255) <= 1)
        #expect(off.r == 255 && off.g == 255 && off.b == 255)
    }

    /// The layer with a sublayer that paints nothing but whose ink cannot be bounded (an
    /// emitter with one invisible particle): its shadow takes the recorded, exact path.
    func exactly(_ layer: Layer) -> Layer {
        var copy = layer
        var invisible = snowLayer(radius: 0, withEmptySublayer: false)
        invisible.shadowOpacity = 0
        if case .emitter(var style) = invisible.content {
            style.particles.alpha = style.particles.alpha.map { _ in 0 }
            invisible.content = .emitter(style)
        }
        copy.sublayers.append(invisible)
        return copy
    }

    @Test func aCachedShadowDrawsWhatAnExactOneDoes() {
        // σ = 2 × 4 = 8 px: the cached silhouette is drawn at a quarter-pixel phase, at
        // most ⅛ px from the exact one. A blurred edge's steepest slope is
        // 255 × 0.8 × φ(0) / σ ≈ 10.2 levels a pixel, so the stored (premultiplied) bytes
        // move by at most 1.3 levels, 2 with rounding. Un-premultiplied colours differ
        // more (up to 7 here) only where the canvas is transparent: a card's antialiased
        // edge over the shadow divides by an alpha near 120, doubling a one-level change.
        let cached = Renderer(scale: 2)
        for x in [100.0, 100.3, 117.8, 100.1, 100.44] {
            let reused = image([card(at: Point(x, 90))], renderer: cached)
            let exact = image([exactly(card(at: Point(x, 90)))], renderer: Renderer(scale: 2, shadows: nil))
            let stored = zip(reused.bytes, exact.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(stored <= 2, "x \(x)")
            #expect(maxDifference(reused, exact) <= 8, "x \(x)")  // the golden tolerance
        }
        // 100 and 117.8 (device phases 0 and 0.6 → ½… and 100.3 → ½) share entries by phase.
        #expect((cached.shadows?.count ?? 0) <= 3)
        // A crisp shadow is reused only for whole-pixel moves, and then draws the same bytes.
        let crisp = Renderer(scale: 2)
        for x in [100.0, 103.5, 100.25] {
            let reused = image([card(at: Point(x, 90), shadowRadius: 0)], renderer: crisp)
            let exact = image([exactly(card(at: Point(x, 90), shadowRadius: 0))], renderer: Renderer(scale: 2, shadows: nil))
            #expect(reused.bytes == exact.bytes, "x \(x)")
        }
        #expect(crisp.shadows?.count == 2)  // 100 and 103.5 share an entry, 100.25 has its own
    }

    @Test func aShadowLeftOutUnderAnOpaqueBackgroundDrawsTheSameBytes() {
        // The covered part of the shadow is painted over by the background: leaving it out
        // must change no byte, for every corner shape, blur, fractional place and a turn.
        var layers: [Layer] = []
        for (i, radius) in [0.0, 1.5, 4].enumerated() {
            var round = card(at: Point(40.3 + 60 * Double(i), 40.7), shadowRadius: radius)
            round.sublayers = []
            var continuous = round
            continuous.position = Point(40.6 + 60 * Double(i), 100.2)
            continuous.cornerRadius = 12
            continuous.cornerCurve = .continuous
            var square = round
            square.position = Point(41.1 + 60 * Double(i), 155.4)
            square.cornerRadius = 0
            square.maskedCorners = []
            layers += [round, continuous, square]
        }
        var turned = card(at: Point(150, 150), shadowRadius: 2)
        turned.transform = Transform3D.rotation(0.3, 0, 0, 1)
        var faded = card(at: Point(100, 100), shadowRadius: 3)
        faded.opacity = 0.6
        layers += [turned, faded]
        func draw(skipping: Bool) -> [UInt8] {
            let surface = CairoSurface.image(.argb32, width: 400, height: 400)
            let ctx = CairoContext(surface)
            ctx.setSource(Color(red: 0.9, green: 0.9, blue: 0.95, alpha: 1))
            ctx.paint()
            ctx.scale(2, 2)
            var renderer = LayerRenderer(images: ImageSurfaces(ImageCache()))
            renderer.skipsCoveredShadow = skipping
            renderer.drawLayers(layers, alpha: 1, in: ctx)
            return surface.bytes()
        }
        let skipped = draw(skipping: true), whole = draw(skipping: false)
        let differing = zip(skipped, whole).filter { $0 != $1 }.count
        #expect(skipped.count == whole.count && differing == 0, "\(differing) bytes differ")
        // The comparison covers the skipping: an unturned opaque card leaves out a box.
        #expect(LayerRenderer.coveredBox(of: layers[0], alpha: 1, matrix: (2, 0, 0, 2, 20, 20)) != nil)
        #expect(LayerRenderer.coveredBox(of: turned, alpha: 1, matrix: (1.9, 0.6, -0.6, 1.9, 0, 0)) == nil)
    }

    /// Particles drawn by an emitter layer casting a shadow.
    func snowLayer(radius: Double, withEmptySublayer: Bool) -> Layer {
        var p = ParticleSnapshot()
        let items: [(Double, Double, Double)] = [(40, 50, 0), (47, 55, 0.5), (150, 3, 1), (120, 196, 0.2)]
        p.alive = [items.count]; p.born = [items.count]
        for (i, it) in items.enumerated() {
            p.appendResting(x: it.0, y: it.1, age: Double(i), angle: it.2, color: (0.6, 0.7, 0.8, 0.9))
        }
        var layer = squareEmitter(side: 10, particles: p)
        layer.shadowOpacity = 0.7
        layer.shadowRadius = radius
        layer.shadowOffset = Size(0, -4)
        layer.shadowColor = red
        if withEmptySublayer {
            // Paints nothing, but sends the shadow down the general path.
            var empty = Layer(place: "x")
            empty.bounds = Rect(0, 0, 10, 10)
            layer.sublayers = [empty]
        }
        return layer
    }

    @Test func anEmitterCastsItsShadowFromItsParticleBuffer() {
        for radius in [0.0, 2] {
            let fast = render([snowLayer(radius: radius, withEmptySublayer: false)], scale: 2, background: .color(.black))
            let general = render([snowLayer(radius: radius, withEmptySublayer: true)], scale: 2, background: .color(.black))
            #expect(LayerRenderer.paintsOnlyParticles(snowLayer(radius: radius, withEmptySublayer: false)))
            #expect(!LayerRenderer.paintsOnlyParticles(snowLayer(radius: radius, withEmptySublayer: true)))
            #expect(maxDifference(fast, general) <= 1, "radius \(radius)")
            // The shadow is there: red above the particle at (40, 50) pt, 4 pt up.
            #expect(fast.rgba(x: 80, y: 84).r > 100)
        }
    }
}
