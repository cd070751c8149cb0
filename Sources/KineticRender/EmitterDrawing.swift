import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

/// The sprites of one emitter drawing, made on first use: each cell's contents pre-scaled
/// to sizes a factor √2 apart, so a particle is resampled by at most √2 (bilinear is then
/// enough) whatever its scale.
private struct SpriteSet {
    /// Indices into the drawing's sprite list by cell index × 64 + level.
    var made: [Int: Int] = [:]

    /// Level k has 2^(k/2) sprite pixels per content point; k is stored offset by 32.
    static func level(pixelsPerPoint f: Double) -> Int { Int((2 * log2(f)).rounded(.up)) }
}

extension LayerRenderer {
    /// The largest sprite side made, in pixels; bigger particles are upsampled from it.
    static let maxSpriteSide = 1024.0
    /// Path sprites are also made turned, at this many angles a full turn (1.4° apart: a
    /// particle's edge moves under a tenth of a pixel per step at these sizes)…
    static let spriteTurns = 256
    /// …when their diagonal is at most this many pixels (larger ones are drawn rotated).
    static let maxTurnedSpriteSide = 64.0

    /// Draws an emitter's live particles (its presentation `particles`) in the layer's
    /// bounds space: each cell's contents centred on the particle, scaled, turned by its
    /// angle and multiplied by its colour, in the render mode's order.
    ///
    /// Particles are composited by `SpriteCompositor` into one buffer covering them, which
    /// is then painted through Cairo in a single operation (so clips, groups and opacity
    /// apply as to any layer content); `additive` adds both inside the buffer and onto
    /// what lies below (CAIRO_OPERATOR_ADD).
    ///
    /// With a `shadow`, the layer's shadow is painted first from the same buffer's alpha
    /// (the layer paints nothing else), which then also holds the particles whose shadow
    /// falls inside the clip.
    func drawParticles(_ style: EmitterStyle, alpha: Double, shadow: ShadowLook? = nil, in ctx: CairoContext) {
        let p = style.particles
        guard p.count > 0, alpha > 0 else { return }
        let cells = style.flattenedCells.map(\.cell)
        let m = ctx.matrix
        let devicePerPoint = abs(m.a * m.d - m.b * m.c).squareRoot()
        guard devicePerPoint > 0, devicePerPoint.isFinite else { return }

        // The buffer covers the particles' reach, within the clip (device pixels).
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let extents = cells.map { c -> Double in
            guard c.contents != nil else { return 0 }
            let s = partSize(c)
            return (s.width * s.width + s.height * s.height).squareRoot() / 2
        }
        for i in 0..<p.count where p.x[i].isFinite && p.y[i].isFinite {
            let r = extents[Int(p.cell[i])] * p.scale[i] * devicePerPoint + 2
            let dx = m.a * p.x[i] + m.c * p.y[i] + m.tx, dy = m.b * p.x[i] + m.d * p.y[i] + m.ty
            minX = min(minX, dx - r); maxX = max(maxX, dx + r)
            minY = min(minY, dy - r); maxY = max(maxY, dy + r)
        }
        ctx.save()
        defer { ctx.restore() }
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        var clip = ctx.clipExtents
        // The shadow's silhouette: the particles within its reach of the clip.
        let blurs = (shadow?.sigma ?? 0) > GaussianBlur.minimumSigma
        if let shadow {
            let margin = blurs ? shadow.margin : 0
            clip = (min(clip.0, clip.0 - shadow.offset.x - margin), min(clip.1, clip.1 - shadow.offset.y - margin),
                    max(clip.2, clip.2 - shadow.offset.x + margin), max(clip.3, clip.3 - shadow.offset.y + margin))
        }
        if let canvas = deviceCanvas {
            clip = (max(clip.0, canvas.0), max(clip.1, canvas.1), min(clip.2, canvas.2), min(clip.3, canvas.3))
        }
        let x0 = max(minX, clip.0), y0 = max(minY, clip.1), x1 = min(maxX, clip.2), y1 = min(maxY, clip.3)
        guard x1 > x0, y1 > y0, x1 - x0 <= 65536, y1 - y0 <= 65536 else { return }
        let bx = Int(x0.rounded(.down)), by = Int(y0.rounded(.down))
        let bw = Int(x1.rounded(.up)) - bx, bh = Int(y1.rounded(.up)) - by
        guard bw > 0, bh > 0 else { return }

        // Pass 1, in drawing order: each particle's sprite, map onto the buffer and rows.
        let order = drawOrder(p, mode: style.renderMode)
        var sprites = SpriteSet()
        var spriteList: [Sprite] = []
        var drawn: [SpriteDraw] = []
        drawn.reserveCapacity(order.count)
        // Per cell, once: whether it draws, its contents' size and largest side.
        let sizes = cells.map { c in c.contents == nil ? Size(0, 0) : partSize(c) }
        let draws = cells.map { $0.enabled && $0.contents != nil }
        let diagonals = sizes.map { ($0.width * $0.width + $0.height * $0.height).squareRoot() }
        let isPath = cells.map { c in if case .path = c.contents { true } else { false } }
        // An unrotated, uniformly scaling device map lets a particle's turn be taken from a
        // sprite rasterized already turned (at one of `turns` angles), so it is drawn
        // unrotated: rows of known extent, no per-row clipping.
        let uniform = m.b == 0 && m.c == 0 && m.a > 0 && m.a == m.d
        let turns = Self.spriteTurns
        // Sprite list index + 1 by (cell × 64 + level) × turns + turn (0: not fetched yet).
        var turned = [Int32](repeating: 0, count: cells.count * 64 * turns)
        // Per cell, its contents' number in `TurnedSprites` (nil: not fetched yet).
        var sources = [Int?](repeating: nil, count: cells.count)
        // 2^(k/2) for each level k in −32…31.
        let sigmas = (0..<64).map { pow(2, Double($0 - 32) / 2) }
        for i in order {
            let c = Int(p.cell[i])
            guard draws[c], p.x[i].isFinite, p.y[i].isFinite else { continue }
            let scale = p.scale[i]
            let size = sizes[c], side = max(size.width, size.height)
            let f = scale * devicePerPoint
            guard f * side >= 0.05 else { continue }
            var k = SpriteSet.level(pixelsPerPoint: f)
            k = min(max(k, -31), 31)
            while k > -31, sigmas[k + 32] * side > Self.maxSpriteSide { k -= 1 }
            let key = c * 64 + k + 32
            let sigma = sigmas[k + 32]
            if uniform, diagonals[c] * sigma <= Self.maxTurnedSpriteSide, p.angle[i].isFinite, isPath[c] {
                let a = p.angle[i].truncatingRemainder(dividingBy: 2 * .pi) / (2 * .pi)
                var turn = Int((a * Double(turns)).rounded()) % turns
                if turn < 0 { turn += turns }
                let tkey = key * turns + turn
                let si: Int
                if turned[tkey] > 0 { si = Int(turned[tkey]) - 1 } else {
                    si = spriteList.count
                    let contents = cells[c].contents, part = cells[c].contentsRect
                    let source = sources[c] ?? TurnedSprites.shared.source(contents, part: part)
                    sources[c] = source
                    spriteList.append(TurnedSprites.shared.sprite(source: source, level: k, turn: turn) {
                        contents.map { sprite($0, part: part, pixelsPerPoint: sigma, angle: 2 * .pi * Double(turn) / Double(turns)) }
                    })
                    turned[tkey] = Int32(si + 1)
                }
                let w = Double(spriteList[si].width), h = Double(spriteList[si].height)
                guard w > 2, h > 2 else { continue }
                // Sprite pixel → buffer pixel: the sprite's centre on the particle.
                let s = m.a * scale / sigma
                let tx = m.a * p.x[i] + m.tx - Double(bx) - s * w / 2, ty = m.d * p.y[i] + m.ty - Double(by) - s * h / 2
                let top = ty, bottom = ty + s * h
                guard top.isFinite, bottom.isFinite else { continue }
                let r0 = Int(min(max(top, 0), Double(bh)).rounded(.down)), r1 = Int(min(max(bottom, 0), Double(bh)).rounded(.up))
                guard r0 < r1 else { continue }
                drawn.append(SpriteDraw(sprite: Int32(si), scaled: true, rows: (Int32(r0), Int32(r1)), map: (s, 0, 0, s, tx, ty),
                                        tint: (p.red[i], p.green[i], p.blue[i], p.alpha[i])))
                continue
            }
            guard let contents = cells[c].contents else { continue }
            let si: Int
            if let known = sprites.made[key] { si = known } else {
                si = spriteList.count
                spriteList.append(sprite(contents, part: cells[c].contentsRect, pixelsPerPoint: sigma))
                sprites.made[key] = si
            }
            guard spriteList[si].width > 2, spriteList[si].height > 2 else { continue }
            // Sprite pixel → layer point → buffer pixel.
            let kk = scale / sigma, cosA = cos(p.angle[i]) * kk, sinA = sin(p.angle[i]) * kk
            let ox = 1 + sigma * size.width / 2, oy = 1 + sigma * size.height / 2
            let l = (a: cosA, b: sinA, c: -sinA, d: cosA,
                     tx: p.x[i] - (cosA * ox - sinA * oy), ty: p.y[i] - (sinA * ox + cosA * oy))
            let map: SpriteMap = (a: m.a * l.a + m.c * l.b, b: m.b * l.a + m.d * l.b,
                                  c: m.a * l.c + m.c * l.d, d: m.b * l.c + m.d * l.d,
                                  tx: m.a * l.tx + m.c * l.ty + m.tx - Double(bx), ty: m.b * l.tx + m.d * l.ty + m.ty - Double(by))
            let h = Double(spriteList[si].height), w = Double(spriteList[si].width)
            let top = map.ty + min(0, map.b * w) + min(0, map.d * h), bottom = map.ty + max(0, map.b * w) + max(0, map.d * h)
            guard top.isFinite, bottom.isFinite else { continue }
            let r0 = Int(min(max(top, 0), Double(bh)).rounded(.down)), r1 = Int(min(max(bottom, 0), Double(bh)).rounded(.up))
            guard r0 < r1 else { continue }
            drawn.append(SpriteDraw(sprite: Int32(si), scaled: false, rows: (Int32(r0), Int32(r1)), map: map,
                                    tint: (p.red[i], p.green[i], p.blue[i], p.alpha[i])))
        }

        // Pass 2: bands of rows, each listing its particles in drawing order (a counting
        // sort, so the order within a band is kept).
        let bandHeight = 32
        let bands = (bh + bandHeight - 1) / bandHeight
        var start = [Int](repeating: 0, count: bands + 1)
        for d in drawn {
            for band in Int(d.rows.0) / bandHeight...(Int(d.rows.1) - 1) / bandHeight { start[band + 1] += 1 }
        }
        for band in 0..<bands { start[band + 1] += start[band] }
        var fill = start
        // The draws themselves are copied band by band, so compositing reads them in order
        // (looking them up by index misses the cache on nearly every particle).
        var members = [SpriteDraw](repeating: SpriteDraw(), count: start[bands])
        for d in drawn {
            for band in Int(d.rows.0) / bandHeight...(Int(d.rows.1) - 1) / bandHeight {
                members[fill[band]] = d; fill[band] += 1
            }
        }

        // Pass 3: composite band by band, in a buffer of the render's scratch memory (a
        // canvas-wide buffer made fresh each frame faulted in its pages: ScratchImages),
        // which is cleared for the next frame only where the sprites were drawn.
        withScratchImage(.argb32, width: bw, height: bh) { buffer in
            var written: [PixelBox] = []
            written.reserveCapacity(members.count)
            // Read in place (a copy of a sprite would retain and release each of its arrays).
            buffer.withPixels { pixels, wordsPerRow in spriteList.withUnsafeBufferPointer { list in
                let compositor = SpriteCompositor(pixels: pixels, wordsPerRow: wordsPerRow, width: bw, height: bh,
                                                  additive: style.renderMode == .additive)
                for band in 0..<bands {
                    let rows = band * bandHeight..<min(bh, (band + 1) * bandHeight)
                    for k in start[band]..<start[band + 1] {
                        let d = members[k], tint = d.tint
                        let visited: PixelBox?
                        if d.scaled {
                            guard tint.3 > 0 else { continue }
                            visited = compositor.drawScaled(list[Int(d.sprite)], scale: d.map.a, tx: d.map.tx, ty: d.map.ty,
                                                            color: SpriteCompositor.packedColor(list[Int(d.sprite)], tint: tint),
                                                            rows: rows)
                        } else {
                            visited = compositor.draw(list[Int(d.sprite)], map: d.map, tint: tint, rows: rows)
                        }
                        if let visited { written.append(visited) }
                    }
                }
            } }
            if let shadow {
                if blurs {
                    let margin = Int(shadow.margin)
                    withScratchImage(.a8, width: bw + 2 * margin, height: bh + 2 * margin) { silhouette in
                        silhouette.withBytes { alphas, stride in
                            buffer.withPixels { pixels, wordsPerRow in
                                for y in 0..<bh {
                                    let row = (y + margin) * stride + margin
                                    for x in 0..<bw { alphas[row + x] = UInt8(truncatingIfNeeded: pixels[y * wordsPerRow + x] >> 24) }
                                }
                            }
                            GaussianBlur.apply(to: alphas, width: bw + 2 * margin, height: bh + 2 * margin, stride: stride, sigma: shadow.sigma)
                        }
                        paintShadow(ShadowMask(surface: silhouette, x: Double(bx - margin) + shadow.offset.x,
                                               y: Double(by - margin) + shadow.offset.y, cell: 1),
                                    shadow: shadow, in: ctx)
                        // The blur wrote its margins too: all of it is cleared.
                        return nil
                    }
                } else {
                    // A crisp shadow: the buffer's own alpha is the mask.
                    paintShadow(ShadowMask(surface: buffer, x: Double(bx) + shadow.offset.x, y: Double(by) + shadow.offset.y, cell: 1),
                                shadow: shadow, in: ctx)
                }
            }
            ctx.setSource(replaying: buffer, x: Double(bx), y: Double(by))
            ctx.setAdditive(style.renderMode == .additive)
            ctx.paint(alpha: alpha)
            return written
        }
    }

    /// A cleared image surface for `body`, in the render's scratch memory when it has
    /// some (``ScratchImages``), else its own. `body` returns the boxes holding every
    /// pixel it wrote in the surface (nil: any), where the memory is cleared after.
    func withScratchImage(_ format: SurfaceFormat, width: Int, height: Int, _ body: (CairoSurface) -> [PixelBox]?) {
        guard let scratch else { _ = body(CairoSurface.image(format, width: width, height: height)); return }
        scratch.withWrittenImage(format, width: width, height: height, body)
    }

    /// Particle indices in drawing order: CAEmitterLayer's `oldestFirst` draws the oldest
    /// first (behind), `oldestLast` on top, `backToFront` by z (the farthest first);
    /// `unordered` and `additive` keep the snapshot's order (cell by cell, by birth).
    private func drawOrder(_ p: ParticleSnapshot, mode: EmitterRenderMode) -> [Int] {
        var order = Array(0..<p.count)
        switch mode {
        case .unordered, .additive: break
        case .oldestFirst: order.sort { (p.age[$0], $1) > (p.age[$1], $0) }
        case .oldestLast: order.sort { (p.age[$0], $0) < (p.age[$1], $1) }
        case .backToFront: order.sort { (p.z[$0], $0) < (p.z[$1], $1) }
        }
        return order
    }

    /// The contents' size in points (an image: one pixel a point, as layer contents).
    private func contentsSize(_ contents: ParticleContents) -> Size {
        switch contents {
        case .path(_, let size, _): return size
        case .image(let path):
            guard let s = images.surface(for: path) else { return Size(0, 0) }
            return Size(Double(s.width), Double(s.height))
        }
    }

    /// The size a cell's particle draws in points: the part of its contents its
    /// `contentsRect` selects (CAEmitterCell draws that part alone, a sprite sheet's cell).
    private func partSize(_ cell: EmitterCell) -> Size {
        cell.contents.map { Self.size(of: cell.contentsRect, in: contentsSize($0)) } ?? Size(0, 0)
    }

    /// The size of `part` (unit coordinates) of contents `whole` points large.
    private static func size(of part: Rect, in whole: Size) -> Size {
        part == wholeContents ? whole : Size(whole.width * part.width, whole.height * part.height)
    }

    /// The unit rectangle: a `contentsRect` drawing all of the contents.
    static let wholeContents = Rect(0, 0, 1, 1)

    /// The `part` of the contents (unit coordinates, `contentsRect`) rasterized at
    /// `pixelsPerPoint`, with a one-pixel transparent border; past an image's edges the
    /// part repeats its edge pixels, past a path's box it is transparent. A path fills
    /// a coverage sprite of its fill colour; an image becomes a coverage sprite when all
    /// its pixels share one colour (the tinted-white-image case), and a four-channel
    /// sprite otherwise.
    ///
    /// With an `angle`, the part is turned by it about its centre, which is the sprite's
    /// centre, on a square sprite wide enough for any angle.
    private func sprite(_ contents: ParticleContents, part: Rect, pixelsPerPoint sigma: Double, angle: Double? = nil) -> Sprite {
        let whole = contentsSize(contents), size = Self.size(of: part, in: whole)
        var w = Int((size.width * sigma).rounded(.up)) + 2, h = Int((size.height * sigma).rounded(.up)) + 2
        if angle != nil {
            w = Int(((size.width * size.width + size.height * size.height).squareRoot() * sigma).rounded(.up)) + 2
            h = w
        }
        let surface = CairoSurface.image(.argb32, width: w, height: h)
        var single: (r: Float, g: Float, b: Float)? = nil
        var coverageScale: Float = 1
        do {
            let ctx = CairoContext(surface)
            if let angle {
                ctx.translate(Double(w) / 2, Double(h) / 2)
                ctx.transform((cos(angle), sin(angle), -sin(angle), cos(angle), 0, 0))
                ctx.scale(sigma, sigma)
                ctx.translate(-size.width / 2, -size.height / 2)
            } else {
                ctx.translate(1, 1)
                ctx.scale(sigma, sigma)
            }
            if part != Self.wholeContents {
                // The part's top-left at the sprite's origin, and nothing outside the part.
                ctx.rectangle(Rect(0, 0, size.width, size.height))
                ctx.clip()
                ctx.translate(-part.minX * whole.width, -part.minY * whole.height)
            }
            switch contents {
            case .path(let path, _, let fill):
                ctx.newPath()
                Self.appendPath(path, to: ctx)
                ctx.setSource(Color.white)
                ctx.fill()
                single = (Float(fill.red), Float(fill.green), Float(fill.blue))
                coverageScale = Float(fill.alpha)
            case .image(let path):
                if let image = images.surface(for: path) {
                    ctx.setSource(image, x: 0, y: 0)
                    // The part, which past the image's edges repeats its edge pixels (the
                    // source is padded), as a layer's contentsRect does.
                    ctx.rectangle(Rect(part.minX * whole.width, part.minY * whole.height, size.width, size.height))
                    ctx.fill()
                }
            }
        }
        let bytes = surface.bytes(), stride = surface.stride
        if single == nil { single = Self.singleColor(bytes, width: w, height: h, stride: stride) }
        if let color = single {
            var coverage = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w { coverage[y * w + x] = UInt8((Float(bytes[y * stride + x * 4 + 3]) * coverageScale).rounded()) }
            }
            var made = Sprite(width: w, height: h, channels: 1, samples: [], coverage: coverage, color: color, pixelsPerPoint: sigma)
            made.findRowExtents()
            // Turned sprites are drawn by `drawScaled`, which reads row pairs.
            if angle != nil { made.interleaveRowPairs() }
            return made
        }
        var samples = [Float](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for ch in 0..<4 { samples[(y * w + x) * 4 + ch] = Float(bytes[y * stride + x * 4 + ch]) / 255 }
            }
        }
        return Sprite(width: w, height: h, channels: 4, samples: samples, coverage: [], color: (1, 1, 1), pixelsPerPoint: sigma)
    }

    /// The one straight colour of every (mostly) opaque pixel, or nil when they differ.
    private static func singleColor(_ bytes: [UInt8], width: Int, height: Int, stride: Int) -> (r: Float, g: Float, b: Float)? {
        var first: (Int, Int, Int)? = nil
        for y in 0..<height {
            for x in 0..<width {
                let i = y * stride + x * 4
                let a = Int(bytes[i + 3])
                guard a >= 128 else { continue }
                let c = (Int(bytes[i + 2]) * 255 / a, Int(bytes[i + 1]) * 255 / a, Int(bytes[i]) * 255 / a)
                if let f = first {
                    if abs(f.0 - c.0) > 4 || abs(f.1 - c.1) > 4 || abs(f.2 - c.2) > 4 { return nil }
                } else { first = c }
            }
        }
        guard let f = first else { return (1, 1, 1) }
        return (Float(f.0) / 255, Float(f.1) / 255, Float(f.2) / 255)
    }
}

/// One particle's draw: its sprite (index in the drawing's list), the buffer rows it
/// covers, its map onto the buffer (a pure scale and offset when `scaled`) and its tint.
private struct SpriteDraw {
    var sprite: Int32 = 0
    var scaled = false
    var rows: (Int32, Int32) = (0, 0)
    var map: SpriteMap = (0, 0, 0, 0, 0, 0)
    var tint: (Float, Float, Float, Float) = (0, 0, 0, 0)
}

/// Turned path sprites, kept across frames and renders: rasterizing a cell's contents at
/// every angle each frame would cost more than drawing the particles.
///
/// A cell's contents and part (a whole path, say) are hashed once per drawing, to a number
/// standing for them (`source`); each sprite is then found by that number, its level and
/// turn, so a particle's lookup hashes three integers, not its contents.
// @unchecked: `sources`, `made` and `nextSource` are only touched with `lock` held.
final class TurnedSprites: @unchecked Sendable {
    static let shared = TurnedSprites()
    private struct Source: Hashable {
        var contents: ParticleContents?
        var part: Rect
    }
    private struct Key: Hashable {
        var source: Int
        var level: Int
        var turn: Int
    }
    /// Guards the tables (frames may render on several threads).
    private let lock = NSLock()
    private var sources: [Source: Int] = [:]
    private var made: [Key: Sprite] = [:]
    /// Never reused, even when the tables start over: a number a drawing still holds
    /// keeps standing for its own contents, so no lookup can get another contents' sprite.
    private var nextSource = 0
    /// Past this many sprites the tables start over, bounding their memory.
    private let capacity: Int

    init(capacity: Int = 16384) { self.capacity = capacity }

    /// The number standing for the `part` of `contents` (equal contents and part, equal number).
    func source(_ contents: ParticleContents?, part: Rect) -> Int {
        let key = Source(contents: contents, part: part)
        lock.lock()
        defer { lock.unlock() }
        if let known = sources[key] { return known }
        let number = nextSource
        nextSource += 1
        sources[key] = number
        return number
    }

    /// The sprite of `source` at `level` and `turn`, made by `make` if not known yet.
    func sprite(source: Int, level: Int, turn: Int, make: () -> Sprite?) -> Sprite {
        let key = Key(source: source, level: level, turn: turn)
        lock.lock()
        defer { lock.unlock() }
        if let known = made[key] { return known }
        let sprite = make() ?? Sprite(width: 0, height: 0, channels: 1, samples: [], coverage: [], color: (1, 1, 1), pixelsPerPoint: 1)
        if made.count >= capacity {
            made.removeAll()
            sources.removeAll()
        }
        made[key] = sprite
        return sprite
    }
}
