import KineticLayers

/// Resamples a flat raster through a projective map, one destination row at a time: the
/// pixel loop of `LayerRenderer.drawProjected`.
///
/// Each destination pixel averages a `grid` × `grid` pattern of bilinear samples (one
/// for a gentle tilt; more where the projection minifies strongly, so no sample skips
/// source pixels). A sample blends its four texels as packed integers — four 16-bit lanes
/// in a 64-bit word, weights in 1/256ths of a pixel — which keeps the loop at a few
/// nanoseconds a sample; sums of up to 16 samples still fit the lanes.
struct ProjectiveResampler {
    /// Destination pixel → raster pixel centres (pixel i's centre is i).
    let toRaster: PlaneProjection
    /// When part of the layer lies behind the eye: the w the layer's map to the
    /// destination gives a raster point's preimage (linear in raster coordinates), which
    /// must exceed `epsilon` for a sample to count.
    let inFront: (w: (x: Double, y: Double, constant: Double), epsilon: Double)?
    /// Samples per pixel along each axis: 1, 2 or 4.
    let grid: Int

    /// `fromDestination`: destination pixel → layer plane; `planeToRaster`: layer plane →
    /// raster pixel centres (affine); `toDestination`, with `epsilon`, when part of the
    /// plane lies behind the eye. `grid` is rounded up to a power of two, at most 4.
    init?(fromDestination: PlaneProjection, planeToRaster: PlaneProjection,
          behindEye: (toDestination: PlaneProjection, epsilon: Double)?, grid: Int) {
        toRaster = fromDestination.concatenating(planeToRaster)
        if let (toDestination, epsilon) = behindEye {
            guard let rasterToPlane = planeToRaster.inverted else { return nil }
            let w = rasterToPlane.concatenating(toDestination)
            inFront = ((w.m13, w.m23, w.m33), epsilon)
        } else {
            inFront = nil
        }
        self.grid = grid <= 1 ? 1 : grid <= 2 ? 2 : 4
    }

    /// Writes the destination image `dst` (`height` rows, `wordsPerRow` apart, pixel
    /// (0, 0) with its top-left corner at destination raster position `origin`): in each
    /// row the pixels `columns(row)` (nil for none), leaving those whose samples are all
    /// transparent untouched. `source` must have a transparent border of at least one
    /// pixel (`rasterize` leaves two): a sample clamped to the raster then reads what
    /// the texels beyond the edge would give.
    func resample(_ source: Raster, into dst: UnsafeMutablePointer<UInt32>, wordsPerRow: Int, width: Int, height: Int,
                  origin: (x: Double, y: Double), columns: (Int) -> Range<Int>?) {
        guard source.width >= 2, source.height >= 2, source.stride >= source.width * 4,
              source.bytes.count >= source.stride * source.height, width > 0 else { return }
        // Per-pixel texel offsets and weights of a row, reused row after row.
        let offsets = UnsafeMutablePointer<Int>.allocate(capacity: width + 4)
        let weights = UnsafeMutablePointer<UInt32>.allocate(capacity: width + 4)
        defer { offsets.deallocate(); weights.deallocate() }
        source.bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt32.self) else { return }
            for row in 0..<height {
                guard let range = columns(row), !range.isEmpty else { continue }
                let columns = max(range.lowerBound, 0)..<min(range.upperBound, width)
                let rowOrigin = (x: origin.x, y: origin.y + Double(row))
                if grid == 1 && inFront == nil {
                    resampleRow(source, base, into: dst + row * wordsPerRow, columns: columns, origin: rowOrigin,
                                offsets: offsets, weights: weights)
                } else {
                    resampleGrid(source, base, into: dst + row * wordsPerRow, columns: columns, origin: rowOrigin)
                }
            }
        }
    }

    /// The general case: a grid of samples per pixel, and the test for samples behind
    /// the eye when part of the layer is there.
    private func resampleGrid(_ source: Raster, _ base: UnsafePointer<UInt32>, into row: UnsafeMutablePointer<UInt32>,
                              columns: Range<Int>, origin: (x: Double, y: Double)) {
        let h = toRaster, words = source.stride / 4, grid = grid
        let maxX = Double(source.width - 1) - 1.0 / 256, maxY = Double(source.height - 1) - 1.0 / 256
        let step = 1 / Double(grid)
        // A mean of grid² samples is a shift: grid is a power of two.
        let shift = UInt64(grid == 1 ? 0 : grid == 2 ? 2 : 4)
        let half = shift == 0 ? 0 : (UInt64(1) << (shift - 1)) &* 0x0001_0001_0001_0001
        let front = inFront
        for col in columns {
            var sum: UInt64 = 0
            for j in 0..<grid {
                let y = origin.y + (Double(j) + 0.5) * step
                for i in 0..<grid {
                    let x = origin.x + Double(col) + (Double(i) + 0.5) * step
                    let inverse = 1 / (x * h.m13 + (y * h.m23 + h.m33))
                    let sx = (x * h.m11 + (y * h.m21 + h.m31)) * inverse
                    let sy = (x * h.m12 + (y * h.m22 + h.m32)) * inverse
                    if let (w, epsilon) = front, !(sx * w.x + sy * w.y + w.constant > epsilon) { continue }
                    if let pixel = Self.sample(base, words, sx, sy, maxX, maxY) { sum &+= pixel }
                }
            }
            guard sum != 0 else { continue }
            row[col] = Self.packed((sum &+ half) >> shift & 0x00FF_00FF_00FF_00FF)
        }
    }

    /// Pixels along a row between exact positions `stepLength` apart are stepped linearly in
    /// 16.16 fixed point. Over 8 pixels the projective curve departs from its chord by
    /// (8² / 8) × |u''|, about 0.01 raster pixel for a 20° tilt under m34 = −1/500 at 2×
    /// and 0.03 at 60°: below what a byte of output can show.
    static let stepLength = 8

    /// One sample per pixel, everything in front of the eye — the common case. Along a
    /// row, sample positions are exact every `stepLength` pixels and stepped linearly in
    /// 16.16 fixed point between, without a division or a float conversion per pixel. A
    /// full span whose ends lie inside the raster (the inside of the layer) is blended as
    /// it is stepped; the rest — edges, and where the chord is no guide — get clamped
    /// positions (`offsets`: the top-left texel's index; `weights`: the bilinear weights
    /// in 1/256ths, x in the low half, y in the high) and are blended from those. Both
    /// give the same bits for the same position.
    private func resampleRow(_ source: Raster, _ base: UnsafePointer<UInt32>, into row: UnsafeMutablePointer<UInt32>,
                             columns: Range<Int>, origin: (x: Double, y: Double),
                             offsets: UnsafeMutablePointer<Int>, weights: UnsafeMutablePointer<UInt32>) {
        let h = toRaster, words = source.stride / 4
        let y = origin.y + 0.5, cx = y * h.m21 + h.m31, cy = y * h.m22 + h.m32, cq = y * h.m23 + h.m33
        // Beyond this window around the raster a position only ever clamps to its edge.
        let windowX = Double(2 * source.width + 16), windowY = Double(2 * source.height + 16)
        // The exact position of column `col`'s centre in 16.16; nil outside the window,
        // at or behind the horizon (q ≤ 0) or for a NaN.
        @inline(__always) func position(_ col: Int) -> (u: Int, v: Int)? {
            let x = origin.x + Double(col) + 0.5
            let q = x * h.m13 + cq
            guard q > 0 else { return nil }
            let sx = (x * h.m11 + cx) / q, sy = (x * h.m12 + cy) / q
            guard abs(sx) < windowX, abs(sy) < windowY else { return nil }
            return (Int(sx * 65536), Int(sy * 65536))
        }
        // Clamping keeps all four texels inside; the transparent border makes a clamped
        // sample equal to what the texels beyond the edge would give.
        let maxU = (source.width - 1) << 16 - 1, maxV = (source.height - 1) << 16 - 1
        @inline(__always) func record(_ i: Int, _ u: Int, _ v: Int) {
            let uc = min(max(u, 0), maxU), vc = min(max(v, 0), maxV)
            offsets[i] = (vc >> 16) &* words &+ (uc >> 16)
            weights[i] = UInt32(truncatingIfNeeded: uc >> 8 & 255 | (vc >> 8 & 255) << 16)
        }
        // Stepping from one end passes the other by at most `stepLength` units (the steps
        // are floored): a span whose ends are that far inside needs no clamp.
        let margin = Self.stepLength
        var col = columns.lowerBound
        var start = position(col)
        while col < columns.upperBound {
            let n = min(Self.stepLength, columns.upperBound - col)
            let end = position(col + n)
            if let (u0, v0) = start, let (u1, v1) = end {
                // A full span divides by a shift (flooring, where `/` truncates: either
                // is deterministic, and they differ by under 2⁻¹⁶ pixel a step).
                let du = n == Self.stepLength ? (u1 - u0) >> 3 : (u1 - u0) / n
                let dv = n == Self.stepLength ? (v1 - v0) >> 3 : (v1 - v0) / n
                if n == Self.stepLength, min(u0, u1) >= margin, max(u0, u1) <= maxU - margin,
                   min(v0, v1) >= margin, max(v0, v1) <= maxV - margin {
                    Self.blend4(base, words, stepping: (u0, v0, du, dv), into: row + col)
                    Self.blend4(base, words, stepping: (u0 &+ 4 &* du, v0 &+ 4 &* dv, du, dv), into: row + col + 4)
                } else {
                    var u = u0, v = v0
                    for i in 0..<n {
                        record(i, u, v)
                        u &+= du; v &+= dv
                    }
                    Self.blend(base, words, offsets, weights, into: row + col, columns: 0..<n)
                }
            } else {
                // Near the horizon or far off the raster the chord is no guide: each
                // pixel gets its own division (and a point beyond the horizon, the
                // transparent corner).
                for i in 0..<n {
                    let (u, v) = position(col + i) ?? (-1, -1)
                    record(i, u, v)
                }
                Self.blend(base, words, offsets, weights, into: row + col, columns: 0..<n)
            }
            start = end
            col += n
        }
    }

    /// Writes the bilinear samples `offsets` and `weights` describe to `row[columns]`:
    /// four pixels at a time in vector lanes, the rest one by one, to the same bits.
    private static func blend(_ base: UnsafePointer<UInt32>, _ words: Int, _ offsets: UnsafeMutablePointer<Int>,
                              _ weights: UnsafeMutablePointer<UInt32>, into row: UnsafeMutablePointer<UInt32>,
                              columns: Range<Int>) {
        let count = columns.count, out = row + columns.lowerBound
        var i = 0
        while i + 4 <= count {
            blend4(base, words, offsets + i, weights + i, into: out + i)
            i += 4
        }
        while i < count {
            let p = base + offsets[i], w = weights[i]
            let tx = UInt64(w & 255), ty = UInt64(w >> 16)
            let top = lerp(lanes(p[0]), lanes(p[1]), tx)
            let bottom = lerp(lanes(p[words]), lanes(p[words &+ 1]), tx)
            out[i] = packed(lerp(top, bottom, ty))
            i += 1
        }
    }

    /// Four bilinear samples (texel `offsets`, `weights` as `resampleRow` records them)
    /// written to `out[0...3]`.
    @inline(__always)
    static func blend4(_ base: UnsafePointer<UInt32>, _ words: Int, _ offsets: UnsafeMutablePointer<Int>,
                       _ weights: UnsafeMutablePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>) {
        blend4(base + offsets[0], base + offsets[1], base + offsets[2], base + offsets[3], words,
               weights: UnsafeRawPointer(weights).loadUnaligned(as: SIMD4<UInt32>.self), into: out)
    }

    /// Four bilinear samples at the 16.16 positions (u, v), (u + du, v + dv), … — all
    /// inside the raster — written to `out[0...3]`.
    @inline(__always)
    static func blend4(_ base: UnsafePointer<UInt32>, _ words: Int, stepping s: (u: Int, v: Int, du: Int, dv: Int),
                       into out: UnsafeMutablePointer<UInt32>) {
        let u1 = s.u &+ s.du, u2 = u1 &+ s.du, u3 = u2 &+ s.du
        let v1 = s.v &+ s.dv, v2 = v1 &+ s.dv, v3 = v2 &+ s.dv
        @inline(__always) func texel(_ u: Int, _ v: Int) -> UnsafePointer<UInt32> { base + ((v >> 16) &* words &+ (u >> 16)) }
        let us = SIMD4<UInt32>(truncatingIfNeeded: SIMD4<Int>(s.u, u1, u2, u3) &>> 8)
        let vs = SIMD4<UInt32>(truncatingIfNeeded: SIMD4<Int>(s.v, v1, v2, v3) &>> 8)
        blend4(texel(s.u, s.v), texel(u1, v1), texel(u2, v2), texel(u3, v3), words,
               weights: us & 0xFF | (vs & 0xFF) &<< 16, into: out)
    }

    /// Four bilinear samples whose top-left texels are `a`…`d`, with `weights` as
    /// `resampleRow` records them, written to `out[0...3]`: the arithmetic of `lerp` on
    /// vectors of 16-bit lanes, the blue and red channels of four pixels in one, green and
    /// alpha in the other, so the results are the scalar path's to the bit. Only
    /// lane-wise arithmetic and bit casts (no lane conversions, which compile to loops).
    /// A transparent result is written too: the destination starts cleared.
    @inline(__always)
    static func blend4(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, _ c: UnsafePointer<UInt32>,
                       _ d: UnsafePointer<UInt32>, _ words: Int, weights w: SIMD4<UInt32>,
                       into out: UnsafeMutablePointer<UInt32>) {
        @inline(__always) func gather(_ k: Int) -> SIMD8<UInt16> {
            unsafeBitCast(SIMD4<UInt32>(a[k], b[k], c[k], d[k]), to: SIMD8<UInt16>.self)
        }
        // Each pixel's weight in both 16-bit halves of its word.
        let x = w & 0xFF, y = w &>> 16
        let tx = unsafeBitCast(x | x &<< 16, to: SIMD8<UInt16>.self)
        let ty = unsafeBitCast(y | y &<< 16, to: SIMD8<UInt16>.self)
        let p00 = gather(0), p10 = gather(1), p01 = gather(words), p11 = gather(words &+ 1)
        let low: SIMD8<UInt16> = SIMD8(repeating: 0xFF)
        let br = lerp8(lerp8(p00 & low, p10 & low, tx), lerp8(p01 & low, p11 & low, tx), ty)
        let ga = lerp8(lerp8(p00 &>> 8, p10 &>> 8, tx), lerp8(p01 &>> 8, p11 &>> 8, tx), ty)
        UnsafeMutableRawPointer(out).storeBytes(of: unsafeBitCast(br | ga &<< 8, to: SIMD4<UInt32>.self),
                                                as: SIMD4<UInt32>.self)
    }

    /// `lerp` in vector lanes.
    @inline(__always) static func lerp8(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
        (a &* (256 &- t) &+ b &* t &+ 128) &>> 8
    }

    /// The bilinear sample at raster position (`sx`, `sy`) in lanes, nil when its four
    /// texels are transparent. The position is clamped to the raster (a NaN, from a point
    /// at infinity, goes to the transparent corner) and taken in 1/256ths of a pixel.
    @inline(__always)
    static func sample(_ base: UnsafePointer<UInt32>, _ words: Int, _ sx: Double, _ sy: Double,
                       _ maxX: Double, _ maxY: Double) -> UInt64? {
        // ≥ 0, so truncation floors.
        let fx = Int((sx > 0 ? min(sx, maxX) : 0) * 256), fy = Int((sy > 0 ? min(sy, maxY) : 0) * 256)
        let p = base + ((fy >> 8) &* words &+ (fx >> 8))
        let p00 = p[0], p10 = p[1], p01 = p[words], p11 = p[words &+ 1]
        guard p00 | p10 | p01 | p11 != 0 else { return nil }
        let tx = UInt64(fx & 255), ty = UInt64(fy & 255)
        let top = lerp(lanes(p00), lanes(p10), tx)
        let bottom = lerp(lanes(p01), lanes(p11), tx)
        return lerp(top, bottom, ty)
    }

    /// A premultiplied ARGB32 word spread over four 16-bit lanes: B, R, G, A from the low end.
    @inline(__always) static func lanes(_ p: UInt32) -> UInt64 {
        let v = UInt64(p)
        return (v | v << 24) & 0x00FF_00FF_00FF_00FF
    }

    /// The inverse of `lanes` (every lane ≤ 255).
    @inline(__always) static func packed(_ v: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (v & 0x00FF_00FF) | (v >> 24 & 0xFF00_FF00))
    }

    /// a + (b − a) × t / 256 in every lane, rounded; lanes stay ≤ 255 (each term is at most
    /// 255 × 256 and the weights sum to 256, so no lane carries into the next).
    @inline(__always) static func lerp(_ a: UInt64, _ b: UInt64, _ t: UInt64) -> UInt64 {
        (a &* (256 &- t) &+ b &* t &+ 0x0080_0080_0080_0080) >> 8 & 0x00FF_00FF_00FF_00FF
    }
}
