import Foundation

/// A particle image pre-scaled to one size: premultiplied samples 0…1 with a one-pixel
/// transparent border (so bilinear sampling fades out at the edges, antialiasing them).
/// `channels` is 1 for a single-colour image (coverage only; `color` is its colour) and 4
/// for a many-coloured one (premultiplied B, G, R, A, as ARGB32 stores them).
struct Sprite {
    var width: Int
    var height: Int
    var channels: Int
    /// Four-channel samples (empty for a coverage sprite).
    var samples: [Float]
    /// Coverage 0…255 of a one-channel sprite (empty otherwise).
    var coverage: [UInt8]
    /// The image's colour when `channels` is 1 (straight, 0…1).
    var color: (r: Float, g: Float, b: Float)
    /// Sprite pixels per content point.
    var pixelsPerPoint: Double
    /// Per row of a coverage sprite, the columns `rowStart[y]..<rowEnd[y]` holding all its
    /// non-zero coverage (start ≥ end for an empty row): drawing skips the rest unvisited.
    var rowStart: [Int32] = []
    var rowEnd: [Int32] = []

    /// Fills `rowStart` and `rowEnd` from `coverage`.
    mutating func findRowExtents() {
        rowStart = Array(repeating: Int32(width), count: height)
        rowEnd = Array(repeating: 0, count: height)
        for y in 0..<height {
            for x in 0..<width where coverage[y * width + x] != 0 {
                rowStart[y] = min(rowStart[y], Int32(x)); rowEnd[y] = Int32(x + 1)
            }
        }
    }
}

/// A map from sprite pixel coordinates to buffer pixels, as CGAffineTransform's fields.
typealias SpriteMap = (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)

/// Draws sprites into an ARGB32 pixel buffer through an affine map with bilinear sampling,
/// tinted by a colour (multiplied, as CAEmitterCell's `color` multiplies its contents).
/// Straight loops over the covered pixels only: no allocation, no per-particle Cairo call.
struct SpriteCompositor {
    let pixels: UnsafeMutablePointer<UInt32>
    let wordsPerRow: Int
    let width: Int
    let height: Int
    /// `additive` adds colours (CAEmitterLayer's additive mode); otherwise source-over.
    let additive: Bool

    /// Draws `sprite` with `map` taking sprite pixel coordinates to buffer pixel
    /// coordinates (a, b, c, d, tx, ty as CGAffineTransform), tinted by straight `tint`.
    /// Only rows `rows` are touched: drawing a frame band by band keeps the destination
    /// rows in cache (scattered particles otherwise miss it on nearly every row).
    func draw(_ sprite: Sprite, map m: SpriteMap, tint: (r: Float, g: Float, b: Float, a: Float),
              rows: Range<Int>? = nil) {
        let det = m.a * m.d - m.b * m.c
        guard det != 0, det.isFinite, tint.a > 0 else { return }
        let sw = Double(sprite.width), sh = Double(sprite.height)
        // The sprite's corners on the buffer give the rows and columns to visit.
        let ax = m.a * sw, cx = m.c * sh, by = m.b * sw, dy = m.d * sh
        let minX = m.tx + min(0, ax) + min(0, cx), maxX = m.tx + max(0, ax) + max(0, cx)
        let minY = m.ty + min(0, by) + min(0, dy), maxY = m.ty + max(0, by) + max(0, dy)
        guard minX < Double(width), maxX > 0, minY < Double(height), maxY > 0 else { return }
        // Clamped before converting: a huge particle must not overflow Int.
        let x0 = Int(max(minX, 0).rounded(.down)), x1 = Int(min(maxX, Double(width)).rounded(.up))
        let y0 = max(rows?.lowerBound ?? 0, Int(max(minY, 0).rounded(.down)))
        let y1 = min(rows?.upperBound ?? height, Int(min(maxY, Double(height)).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        // The inverse map: buffer pixel → sprite pixel.
        let ia = m.d / det, ib = -m.b / det, ic = -m.c / det, id = m.a / det
        let itx = -(ia * m.tx + ic * m.ty), ity = -(ib * m.tx + id * m.ty)
        let umax = sw - 1, vmax = sh - 1
        let tintR = tint.r * tint.a, tintG = tint.g * tint.a, tintB = tint.b * tint.a, tintA = tint.a
        let sprW = sprite.width
        if sprite.channels == 1 {
            // The colour, premultiplied, packed as a pixel: each covered pixel is it × coverage.
            let packed = Self.packedColor(sprite, tint: tint)
            drawCoverage(sprite.coverage, width: sprW, x0: x0, x1: x1, y0: y0, y1: y1,
                         inverse: (ia, ib, ic, id, itx, ity), umax: umax, vmax: vmax, color: packed)
            return
        }
        sprite.samples.withUnsafeBufferPointer { samples in
            guard let s = samples.baseAddress else { return }
            for y in y0..<y1 {
                guard let (start, end, u0, v0) = Self.span(y: y, x0: x0, x1: x1, inverse: (ia, ib, ic, id, itx, ity),
                                                             umax: umax, vmax: vmax) else { continue }
                let row = pixels + y * wordsPerRow + x0
                var u = u0, v = v0
                for x in start..<end {
                    defer { u += ia; v += ib }
                    // Rounding at the span's ends can step a hair outside: clamp.
                    let uc = min(max(u, 0), umax - 1e-9), vc = min(max(v, 0), vmax - 1e-9)
                    let iu = Int(uc), iv = Int(vc)
                    let fu = Float(uc - Double(iu)), fv = Float(vc - Double(iv))
                    let w00 = (1 - fu) * (1 - fv), w10 = fu * (1 - fv), w01 = (1 - fu) * fv, w11 = fu * fv
                    let k = (iv * sprW + iu) * 4, k2 = k + sprW * 4
                    func lerp(_ o: Int) -> Float { s[k + o] * w00 + s[k + 4 + o] * w10 + s[k2 + o] * w01 + s[k2 + 4 + o] * w11 }
                    let sa = lerp(3) * tintA
                    guard sa > 0 else { continue }
                    let sb = lerp(0) * tintB, sg = lerp(1) * tintG, sr = lerp(2) * tintR
                    let d = row[x]
                    let db = Float(d & 0xFF), dg = Float((d >> 8) & 0xFF), dr = Float((d >> 16) & 0xFF), da = Float(d >> 24)
                    let keep: Float = additive ? 1 : 1 - sa
                    func out(_ src: Float, _ dst: Float) -> UInt32 { UInt32(min(255, src * 255 + dst * keep + 0.5)) }
                    row[x] = out(sb, db) | out(sg, dg) << 8 | out(sr, dr) << 16 | out(sa, da) << 24
                }
            }
        }
    }

    /// Draws coverage `sprite` (with row extents) scaled by `s` and moved by (`tx`, `ty`)
    /// (sprite pixel → buffer pixel), in colour `packed` (premultiplied ARGB), rows `rows`.
    /// The unrotated case needs no per-row clipping: each row samples two sprite rows whose
    /// known non-empty columns bound the pixels visited.
    func drawScaled(_ sprite: borrowing Sprite, scale s: Double, tx: Double, ty: Double, color packed: UInt32, rows: Range<Int>) {
        guard s > 0, s.isFinite, tx.isFinite, ty.isFinite, sprite.width > 1, sprite.height > 1,
              sprite.rowStart.count == sprite.height else { return }
        let sw = Double(sprite.width), sh = Double(sprite.height)
        guard tx < Double(width), tx + s * sw > 0, ty < Double(height), ty + s * sh > 0 else { return }
        let y0 = max(rows.lowerBound, max(0, Int(ty.rounded(.down))))
        let y1 = min(rows.upperBound, height, Int(min(ty + s * sh, Double(height)).rounded(.up)))
        guard y0 < y1 else { return }
        let inv = 1 / s, umax = sw - 1, vmax = sh - 1
        let du = Int((inv * 65536).rounded())
        let uLimit = Int(umax * 65536) - 1
        guard uLimit >= 0 else { return }
        let sprW = sprite.width
        sprite.coverage.withUnsafeBufferPointer { cov in
            sprite.rowStart.withUnsafeBufferPointer { starts in
                sprite.rowEnd.withUnsafeBufferPointer { ends in
                    guard let c = cov.baseAddress else { return }
                    for y in y0..<y1 {
                        // Samples sit at pixel centres: sprite coordinate v maps to sample v − 0.5.
                        let v = (Double(y) + 0.5 - ty) * inv - 0.5
                        guard v >= 0, v < vmax else { continue }
                        let iv = Int(v), fv = Int((v - Double(iv)) * 256) & 0xFF
                        let lo = Int(min(starts[iv], starts[iv + 1])), hi = Int(max(ends[iv], ends[iv + 1]))
                        guard lo < hi else { continue }
                        // Sample columns iu and iu + 1 reach non-zero coverage for iu in lo − 1 ..< hi.
                        let uLo = max(Double(lo - 1), 0), uHi = min(Double(hi), umax)
                        let fx0 = (uLo + 0.5) * s + tx - 0.5, fx1 = (uHi + 0.5) * s + tx - 0.5
                        guard fx1 > 0, fx0 < Double(width) else { continue }
                        let xs = max(0, Int(max(fx0, 0).rounded(.up))), xe = min(width, Int(min(fx1, Double(width)).rounded(.up)))
                        guard xs < xe else { continue }
                        let row = pixels + y * wordsPerRow
                        let top = c + iv * sprW
                        let u = Int(((Double(xs) + 0.5 - tx) * inv - 0.5) * 65536)
                        // Two copies of the loop: the mode is not re-tested per pixel.
                        if additive {
                            Self.blendRow(row, xs, xe, top, sprW, u, du, uLimit, fv, packed) { Self.addSaturating($0, $1) }
                        } else {
                            Self.blendRow(row, xs, xe, top, sprW, u, du, uLimit, fv, packed) { $0 &+ Self.scale($1, 255 &- ($0 >> 24)) }
                        }
                    }
                }
            }
        }
    }

    /// One buffer row's pixels `xs..<xe` of an unrotated sprite: samples between sprite rows
    /// `top` and the next (weight `fv` / 256), u in 16.16 from `u` by `du`, combined by `op`
    /// (source, destination).
    @inline(__always)
    private static func blendRow(_ row: UnsafeMutablePointer<UInt32>, _ xs: Int, _ xe: Int, _ top: UnsafePointer<UInt8>,
                                 _ sprW: Int, _ u0: Int, _ du: Int, _ uLimit: Int, _ fv: Int, _ packed: UInt32,
                                 _ op: (UInt32, UInt32) -> UInt32) {
        let bottom = top + sprW
        let wTop = 256 &- fv
        var u = u0
        for x in xs..<xe {
            let uc = min(max(u, 0), uLimit)
            u &+= du
            let iu = uc >> 16, fu = (uc >> 8) & 0xFF
            let c00 = top[iu], c10 = top[iu &+ 1], c01 = bottom[iu], c11 = bottom[iu &+ 1]
            guard c00 | c10 | c01 | c11 != 0 else { continue }
            let t = Int(c00) &* (256 &- fu) &+ Int(c10) &* fu
            let b = Int(c01) &* (256 &- fu) &+ Int(c11) &* fu
            let a = (t &* wTop &+ b &* fv) >> 16
            guard a > 0 else { continue }
            row[x] = op(scale(packed, UInt32(a)), row[x])
        }
    }

    /// `tint` (straight) times the sprite colour, premultiplied and packed as ARGB32.
    static func packedColor(_ sprite: Sprite, tint: (r: Float, g: Float, b: Float, a: Float)) -> UInt32 {
        func byte(_ v: Float) -> UInt32 { UInt32(min(max(v * 255 + 0.5, 0), 255)) }
        return byte(sprite.color.b * tint.b * tint.a) | byte(sprite.color.g * tint.g * tint.a) << 8
            | byte(sprite.color.r * tint.r * tint.a) << 16 | byte(tint.a) << 24
    }

    typealias Inverse = (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)

    /// The pixels of row `y` (offsets from `x0`, `start..<end`) whose samples fall inside the
    /// sprite (0 ≤ u < umax, 0 ≤ v < vmax), with u and v at `start`.
    static func span(y: Int, x0: Int, x1: Int, inverse i: Inverse, umax: Double, vmax: Double)
        -> (Int, Int, Double, Double)? {
        let py = Double(y) + 0.5
        // Samples sit at pixel centres: sprite coordinate u maps to sample u − 0.5.
        let u0 = i.a * (Double(x0) + 0.5) + i.c * py + i.tx - 0.5
        let v0 = i.b * (Double(x0) + 0.5) + i.d * py + i.ty - 0.5
        var lo = 0.0, hi = Double(x1 - x0)
        @inline(__always) func clip(_ start: Double, _ step: Double, _ limit: Double) {
            if step == 0 {
                if !(start >= 0 && start < limit) { hi = -1 }
            } else {
                let r = 1 / step
                let t0 = (0 - start) * r, t1 = (limit - start) * r
                lo = max(lo, min(t0, t1)); hi = min(hi, max(t0, t1))
            }
        }
        clip(u0, i.a, umax)
        clip(v0, i.b, vmax)
        guard hi > lo, hi > 0 else { return nil }
        // Ceilings of non-negative values without a library call.
        @inline(__always) func ceiling(_ v: Double) -> Int { let t = Int(v); return Double(t) < v ? t + 1 : t }
        let start = ceiling(lo), end = min(x1 - x0, ceiling(hi))
        guard start < end else { return nil }
        return (start, end, u0 + i.a * Double(start), v0 + i.b * Double(start))
    }

    /// The one-channel case in integers: 16.16 fixed-point sampling, 8-bit bilinear
    /// weights, and two colour channels a multiply (the classic packed-pixel blend).
    private func drawCoverage(_ coverage: [UInt8], width sprW: Int, x0: Int, x1: Int, y0: Int, y1: Int,
                              inverse: Inverse, umax: Double, vmax: Double, color: UInt32) {
        let du = Int((inverse.a * 65536).rounded()), dv = Int((inverse.b * 65536).rounded())
        // Keep iu + 1 and iv + 1 inside the sprite.
        let uLimit = Int(umax * 65536) - 1, vLimit = Int(vmax * 65536) - 1
        guard uLimit >= 0, vLimit >= 0 else { return }
        coverage.withUnsafeBufferPointer { cov in
            guard let c = cov.baseAddress else { return }
            for y in y0..<y1 {
                guard let (start, end, u0, v0) = Self.span(y: y, x0: x0, x1: x1, inverse: inverse,
                                                             umax: umax, vmax: vmax) else { continue }
                let row = pixels + y * wordsPerRow + x0
                // Truncation, not rounding (a library call): u0, v0 ≥ 0 here, up to a hair.
                var u = Int(u0 * 65536), v = Int(v0 * 65536)
                for x in start..<end {
                    let uc = min(max(u, 0), uLimit), vc = min(max(v, 0), vLimit)
                    u &+= du; v &+= dv
                    let iu = uc >> 16, iv = vc >> 16
                    let fu = (uc >> 8) & 0xFF, fv = (vc >> 8) & 0xFF
                    let k = iv &* sprW &+ iu
                    let c00 = c[k], c10 = c[k &+ 1], c01 = c[k &+ sprW], c11 = c[k &+ sprW &+ 1]
                    // Most of a sprite's square is empty: skip it before any multiply.
                    guard c00 | c10 | c01 | c11 != 0 else { continue }
                    let top = Int(c00) &* (256 &- fu) &+ Int(c10) &* fu
                    let bottom = Int(c01) &* (256 &- fu) &+ Int(c11) &* fu
                    let a = (top &* (256 &- fv) &+ bottom &* fv) >> 16
                    guard a > 0 else { continue }
                    let src = Self.scale(color, UInt32(a))
                    let d = row[x]
                    row[x] = additive ? Self.addSaturating(src, d) : src &+ Self.scale(d, 255 &- (src >> 24))
                }
            }
        }
    }

    /// Each 8-bit channel of `p` × a / 255, rounded (two channels a multiply).
    @inline(__always) static func scale(_ p: UInt32, _ a: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// Channel-wise a + b, saturating at 255.
    @inline(__always) static func addSaturating(_ a: UInt32, _ b: UInt32) -> UInt32 {
        func lanes(_ x: UInt32, _ y: UInt32) -> UInt32 {
            var s = x &+ y
            let over = s & 0x0100_0100
            s |= over &- (over >> 8)
            return s & 0x00FF_00FF
        }
        return lanes(a & 0x00FF_00FF, b & 0x00FF_00FF) | lanes((a >> 8) & 0x00FF_00FF, (b >> 8) & 0x00FF_00FF) << 8
    }
}
