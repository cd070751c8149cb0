import Foundation
import KineticCairo

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
    /// The coverage of rows y and y + 1 interleaved, for y in 0 ..< height − 1: bytes
    /// 2 × (y × width + x) and the next are rows y and y + 1 at column x, so one 32-bit load
    /// holds the four texels of a bilinear sample (`drawScaled`; empty until
    /// `interleaveRowPairs` fills it).
    var rowPairs: [UInt8] = []

    /// Fills `rowPairs` from `coverage`.
    mutating func interleaveRowPairs() {
        guard channels == 1, width > 0, height > 1 else { rowPairs = []; return }
        rowPairs = [UInt8](repeating: 0, count: 2 * width * (height - 1))
        for y in 0..<(height - 1) {
            for x in 0..<width {
                rowPairs[2 * (y * width + x)] = coverage[y * width + x]
                rowPairs[2 * (y * width + x) + 1] = coverage[(y + 1) * width + x]
            }
        }
    }

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
    /// rows in cache (scattered particles otherwise miss it on nearly every row). Returns
    /// the pixels visited, which hold every pixel written (nil: none).
    @discardableResult
    func draw(_ sprite: Sprite, map m: SpriteMap, tint: (r: Float, g: Float, b: Float, a: Float),
              rows: Range<Int>? = nil) -> PixelBox? {
        let det = m.a * m.d - m.b * m.c
        guard det != 0, det.isFinite, tint.a > 0 else { return nil }
        let sw = Double(sprite.width), sh = Double(sprite.height)
        // The sprite's corners on the buffer give the rows and columns to visit.
        let ax = m.a * sw, cx = m.c * sh, by = m.b * sw, dy = m.d * sh
        let minX = m.tx + min(0, ax) + min(0, cx), maxX = m.tx + max(0, ax) + max(0, cx)
        let minY = m.ty + min(0, by) + min(0, dy), maxY = m.ty + max(0, by) + max(0, dy)
        guard minX < Double(width), maxX > 0, minY < Double(height), maxY > 0 else { return nil }
        // Clamped before converting: a huge particle must not overflow Int.
        let x0 = Int(max(minX, 0).rounded(.down)), x1 = Int(min(maxX, Double(width)).rounded(.up))
        let y0 = max(rows?.lowerBound ?? 0, Int(max(minY, 0).rounded(.down)))
        let y1 = min(rows?.upperBound ?? height, Int(min(maxY, Double(height)).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return nil }
        let visited = PixelBox(x0: x0, y0: y0, x1: x1, y1: y1)
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
            return visited
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
        return visited
    }

    /// Draws coverage `sprite` (with row extents and row pairs) scaled by `s` and moved by
    /// (`tx`, `ty`) (sprite pixel → buffer pixel), in colour `packed` (premultiplied ARGB),
    /// rows `rows`.
    ///
    /// Unrotated, a buffer column samples the same sprite column on every row: samples step
    /// by 1/`s` in 16.16 from the first column and row whose sample lies on the sprite
    /// (whichever band is drawn, so bands join seamlessly), and the pixels of a row are
    /// those whose samples reach its two sprite rows' known non-empty columns. No sample
    /// needs clamping. Returns the pixels visited, which hold every pixel written (nil: none).
    @discardableResult
    func drawScaled(_ sprite: borrowing Sprite, scale s: Double, tx: Double, ty: Double, color packed: UInt32,
                    rows: Range<Int>) -> PixelBox? {
        let sprW = sprite.width, sprH = sprite.height
        guard s > 0, s.isFinite, tx.isFinite, ty.isFinite, sprW > 1, sprH > 1,
              ty < Double(min(rows.upperBound, height)), ty + s * Double(sprH) > Double(max(rows.lowerBound, 0)),
              tx < Double(width), tx + s * Double(sprW) > 0,
              sprite.rowStart.count == sprH, sprite.rowEnd.count == sprH, sprite.rowPairs.count == 2 * sprW * (sprH - 1)
        else { return nil }
        // A sprite shrunk below a millionth of its size draws nothing (and its step fits Int).
        guard s >= 1e-6 else { return nil }
        let inv = 1 / s, step = Int((inv * 65536).rounded())
        guard step > 0 else { return nil }
        // Samples sit at pixel centres: buffer column x samples sprite position
        // (x + 0.5 − tx) / s − 0.5, which is ≥ 0 from column ⌈tx + s / 2 − 0.5⌉ on.
        // (Clamped before converting: a huge particle must not overflow Int.)
        @inline(__always) func first(_ t: Double, limit: Int) -> (index: Int, sample: Int) {
            let index = Int(min(max((t + s / 2 - 0.5).rounded(.up), 0), Double(limit)))
            return (index, max(0, Int(((Double(index) + 0.5 - t) * inv - 0.5) * 65536)))
        }
        let (yFirst, v0) = first(ty, limit: height), (x0, u0) = first(tx, limit: width)
        let uLimit = (sprW - 1) << 16 - 1, vLimit = (sprH - 1) << 16 - 1
        guard u0 <= uLimit, v0 <= vLimit else { return nil }
        // One past the last column and row whose samples stay inside (iu + 1 < sprW).
        let x1 = min(width, x0 + (uLimit - u0) / step + 1)
        let y0 = max(rows.lowerBound, yFirst)
        let y1 = min(rows.upperBound, height, yFirst + (vLimit - v0) / step + 1)
        guard x0 < x1, y0 < y1 else { return nil }
        // The first column whose sample reaches sprite column j (j < 2²³ and step ≥ 1
        // keep the quotient's error far below the 1/step a non-integer one is away from
        // the next integer; at an exact integer either answer starts or ends at a pixel of
        // no coverage). Clamped to the columns sampling inside.
        let perStep = 1 / Double(step)
        @inline(__always) func firstColumn(_ j: Int) -> Int {
            let q = Double(j << 16 &- u0) * perStep
            guard q > 0 else { return x0 }
            let t = Int(q)
            return min(x1, x0 &+ (Double(t) < q ? t &+ 1 : t))
        }
        let paint = CoveragePaint(packed)
        sprite.rowPairs.withUnsafeBufferPointer { pairs in
            sprite.rowStart.withUnsafeBufferPointer { starts in
                sprite.rowEnd.withUnsafeBufferPointer { ends in
                    guard let pairs = pairs.baseAddress, let starts = starts.baseAddress, let ends = ends.baseAddress
                    else { return }
                    var v = v0 &+ (y0 - yFirst) &* step
                    for y in y0..<y1 {
                        defer { v &+= step }
                        let iv = v >> 16, fv = UInt64(truncatingIfNeeded: v >> 8) & 0xFF
                        let lo = Int(min(starts[iv], starts[iv &+ 1])), hi = Int(max(ends[iv], ends[iv &+ 1]))
                        guard lo < hi else { continue }
                        // Sample column iu reaches non-zero coverage (at iu or iu + 1) for
                        // iu in lo − 1 ..< hi.
                        let xs = firstColumn(lo - 1), xe = firstColumn(hi)
                        guard xs < xe else { continue }
                        let texels = UnsafeRawPointer(pairs + 2 &* iv &* sprW)
                        let rowWeights = fv | (256 &- fv) << 32
                        func coverage(_ x: Int) -> UInt16 {
                            let u = u0 &+ (x &- x0) &* step
                            let iu = u >> 16, fu = UInt64(truncatingIfNeeded: u >> 8) & 0xFF
                            return Self.bilinear(texels.loadUnaligned(fromByteOffset: 2 &* iu, as: UInt32.self),
                                                 fu: fu, rowWeights: rowWeights)
                        }
                        let row = pixels + y &* wordsPerRow
                        // Two copies of the loop: the mode is not re-tested per pixel.
                        if additive {
                            paint.fill(row, xs..<xe, additive: true, coverage: coverage)
                        } else {
                            paint.fill(row, xs..<xe, additive: false, coverage: coverage)
                        }
                    }
                }
            }
        }
        return PixelBox(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// The bilinear coverage 0…255 of a sample between four texels, `texels` holding them as
    /// `rowPairs` does (bytes: upper and lower row at column iu, then at iu + 1), `fu` / 256
    /// of the way to column iu + 1 and with `rowWeights` = fv | (256 − fv) << 32 for a
    /// sample fv / 256 of the way to the lower row.
    ///
    /// Two multiplies on 16-bit lanes of a 64-bit word instead of six: spread to lanes
    /// (upper iu, upper iu + 1, lower iu, lower iu + 1), one multiply by fu | (256 − fu) << 16
    /// leaves each row's horizontal mix (at most 255 × 256) in lanes 1 and 3, and a second
    /// multiply sums them weighted by row into bits 32…55. No lane carries into the next,
    /// so the result is exactly (upper × (256 − fv) + lower × fv) >> 16 of the scalar mixes.
    @inline(__always)
    static func bilinear(_ texels: UInt32, fu: UInt64, rowWeights: UInt64) -> UInt16 {
        let x = UInt64(texels)
        let lanes = (x | x << 24) & 0x00FF_00FF_00FF_00FF
        let rows = (lanes &* (fu | (256 &- fu) << 16)) >> 16 & 0x0000_FFFF_0000_FFFF
        return UInt16(truncatingIfNeeded: (rows &* rowWeights) >> 48)
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
    /// weights, painted by `CoveragePaint`.
    private func drawCoverage(_ coverage: [UInt8], width sprW: Int, x0: Int, x1: Int, y0: Int, y1: Int,
                              inverse: Inverse, umax: Double, vmax: Double, color: UInt32) {
        let du = Int((inverse.a * 65536).rounded()), dv = Int((inverse.b * 65536).rounded())
        // Keep iu + 1 and iv + 1 inside the sprite.
        let uLimit = Int(umax * 65536) - 1, vLimit = Int(vmax * 65536) - 1
        guard uLimit >= 0, vLimit >= 0 else { return }
        let paint = CoveragePaint(color)
        coverage.withUnsafeBufferPointer { cov in
            guard let c = cov.baseAddress else { return }
            for y in y0..<y1 {
                guard let (start, end, u0, v0) = Self.span(y: y, x0: x0, x1: x1, inverse: inverse,
                                                             umax: umax, vmax: vmax) else { continue }
                let row = pixels + y * wordsPerRow + x0
                // Truncation, not rounding (a library call): u0, v0 ≥ 0 here, up to a hair.
                let uStart = Int(u0 * 65536), vStart = Int(v0 * 65536)
                // The bilinear coverage of column x, u and v stepping in 16.16 from `start`.
                func coverage(_ x: Int) -> UInt16 {
                    let n = x &- start, u = uStart &+ n &* du, v = vStart &+ n &* dv
                    let uc = min(max(u, 0), uLimit), vc = min(max(v, 0), vLimit)
                    let iu = uc >> 16, iv = vc >> 16
                    let fu = (uc >> 8) & 0xFF, fv = (vc >> 8) & 0xFF
                    let k = iv &* sprW &+ iu
                    let top = Int(c[k]) &* (256 &- fu) &+ Int(c[k &+ 1]) &* fu
                    let bottom = Int(c[k &+ sprW]) &* (256 &- fu) &+ Int(c[k &+ sprW &+ 1]) &* fu
                    return UInt16(truncatingIfNeeded: (top &* (256 &- fv) &+ bottom &* fv) >> 16)
                }
                // Two copies of the loop: the mode is not re-tested per pixel.
                if additive {
                    paint.fill(row, start..<end, additive: true, coverage: coverage)
                } else {
                    paint.fill(row, start..<end, additive: false, coverage: coverage)
                }
            }
        }
    }
}

/// A premultiplied colour painted through 8-bit coverage onto ARGB32 pixels, two pixels
/// at a time: each pixel's four channels in 16-bit vector lanes (B, G, R, A, then the
/// next pixel's), so one multiply scales eight channels.
///
/// Every product x × a / 255 is rounded as (y + y >> 8) >> 8 with y = x × a + 128, exact
/// for all 8-bit x and a; source-over keeps d × (255 − source alpha) / 255 of the
/// destination, additive adds and saturates at 255. Lanes follow memory order (B, G, R, A
/// on the little-endian hosts Kinetic builds for).
struct CoveragePaint {
    /// The colour's channels, twice.
    let color: SIMD8<UInt16>
    /// Its alpha in every lane: the source alpha of a pixel is alpha × coverage / 255.
    let alpha: SIMD8<UInt16>

    init(_ packed: UInt32) {
        let channels = SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(packed, to: SIMD4<UInt8>.self))
        color = SIMD8(lowHalf: channels, highHalf: channels)
        alpha = SIMD8(repeating: channels[3])
    }

    /// x × a / 255 in every lane, rounded (x, a ≤ 255).
    @inline(__always) static func divide255(_ product: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let y = product &+ 128
        return (y &+ (y &>> 8)) &>> 8
    }

    /// Both pixels' channels after painting with coverage `lanes` (each pixel's in its
    /// four lanes) over `destination`.
    @inline(__always)
    func painted(_ destination: SIMD8<UInt16>, coverage lanes: SIMD8<UInt16>, additive: Bool) -> SIMD8<UInt16> {
        let source = Self.divide255(color &* lanes)
        if additive { return pointwiseMin(source &+ destination, SIMD8(repeating: 255)) }
        return source &+ Self.divide255(destination &* (255 &- Self.divide255(alpha &* lanes)))
    }

    /// Paints `row[range]`, the coverage of column x given by `coverage(x)`.
    /// `additive` is a constant at every call site, so each mode gets its own loop.
    /// `coverage` is a function of the column, not a counter it advances: a closure
    /// mutating a captured variable kept a runtime exclusivity check a pixel (7.8 million
    /// `swift_beginAccess` calls in 30 frames of snow at scale 4, a fifth of its drawing's
    /// instructions).
    @inline(__always)
    func fill(_ row: UnsafeMutablePointer<UInt32>, _ range: Range<Int>, additive: Bool, coverage: (Int) -> UInt16) {
        var x = range.lowerBound
        while x &+ 2 <= range.upperBound {
            let a0 = coverage(x), a1 = coverage(x &+ 1)
            if a0 | a1 != 0 {
                let p = UnsafeMutableRawPointer(row + x)
                let d = SIMD8<UInt16>(truncatingIfNeeded: p.loadUnaligned(as: SIMD8<UInt8>.self))
                let out = painted(d, coverage: SIMD8(a0, a0, a0, a0, a1, a1, a1, a1), additive: additive)
                p.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: out), as: SIMD8<UInt8>.self)
            }
            x &+= 2
        }
        if x < range.upperBound {
            let a = coverage(x)
            guard a != 0 else { return }
            let d = SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(row[x], to: SIMD4<UInt8>.self))
            let out = painted(SIMD8(lowHalf: d, highHalf: .zero), coverage: SIMD8(repeating: a), additive: additive)
            row[x] = unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: out.lowHalf), to: UInt32.self)
        }
    }
}
