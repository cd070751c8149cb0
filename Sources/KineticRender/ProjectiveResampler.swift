import CResample
import KineticLayers

/// Resamples a flat raster through a projective map, one destination row at a time: the
/// pixel loop of `LayerRenderer.drawProjected`.
///
/// Each destination pixel averages a `grid` × `grid` pattern of bilinear samples (one
/// for a gentle tilt; more where the projection minifies strongly, so no sample skips
/// source pixels). A sample blends its four texels in 16-bit lanes, weights in 1/256ths
/// of a pixel: here as packed integers (four lanes in a 64-bit word), for the one-sample
/// case in `CResample`'s vector kernels, to the same bits. Sums of up to 16 samples still
/// fit the lanes.
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
        let buffers = RowBuffers(map: toRaster, width: width)
        defer { buffers.deallocate() }
        source.bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt32.self) else { return }
            for row in 0..<height {
                guard let range = columns(row), !range.isEmpty else { continue }
                let columns = max(range.lowerBound, 0)..<min(range.upperBound, width)
                let rowOrigin = (x: origin.x, y: origin.y + Double(row))
                if grid == 1 && inFront == nil {
                    resampleRow(source, base, into: dst + row * wordsPerRow, columns: columns, origin: rowOrigin,
                                buffers: buffers)
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
    static let stepLength = Int(KN_BILINEAR_SPAN)

    /// What `resampleRow` reuses row after row.
    struct RowBuffers {
        /// The map to the raster as `kn_projective_positions` takes it.
        let map: [Double]
        /// A row's knots: positions every `stepLength` pixels, x and y alternating.
        let knots: UnsafeMutablePointer<Int64>
        /// An edge span's positions, pixel by pixel, x and y alternating.
        let positions: UnsafeMutablePointer<Int64>

        init(map m: PlaneProjection, width: Int) {
            map = [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33]
            knots = .allocate(capacity: 2 * (width / ProjectiveResampler.stepLength + 2))
            positions = .allocate(capacity: 2 * (ProjectiveResampler.stepLength + 1))
        }

        func deallocate() {
            knots.deallocate(); positions.deallocate()
        }
    }

    /// One sample per pixel, everything in front of the eye — the common case. Along a
    /// row, sample positions are exact every `stepLength` pixels (the knots) and stepped
    /// linearly in 16.16 fixed point between, without a division or a float conversion
    /// per pixel. The full spans between knots inside the raster (the inside of the
    /// layer) are blended by `CResample` in one call as they are stepped; the rest —
    /// edges, and where the chord is no guide — have their positions clamped to the
    /// raster first. Both give the same bits for the same position.
    private func resampleRow(_ source: Raster, _ base: UnsafePointer<UInt32>, into row: UnsafeMutablePointer<UInt32>,
                             columns: Range<Int>, origin: (x: Double, y: Double), buffers b: RowBuffers) {
        let words = source.stride / 4, span = Self.stepLength
        // Beyond this window around the raster a position only ever clamps to its edge.
        let window = (x: Double(2 * source.width + 16), y: Double(2 * source.height + 16))
        // Stepping from one knot passes the next by at most `stepLength` units (the steps
        // are floored): a span whose knots are that far inside needs no clamp. One
        // unsigned comparison a coordinate: below the range wraps round to above it (and
        // so does Int64.min, a knot without a position).
        let margin = Int64(span)
        let rangeU = UInt64((source.width - 1) << 16 - 1) &- 2 &* UInt64(margin)
        let rangeV = UInt64((source.height - 1) << 16 - 1) &- 2 &* UInt64(margin)
        @inline(__always) func inside(_ k: Int) -> Int {
            let u = UInt64(bitPattern: b.knots[2 &* k] &- margin), v = UInt64(bitPattern: b.knots[2 &* k &+ 1] &- margin)
            return (u <= rangeU ? 1 : 0) & (v <= rangeV ? 1 : 0)
        }
        let spans = (columns.count + span - 1) / span
        Self.positions(b.map, origin: origin, from: columns.lowerBound, to: columns.upperBound, step: span,
                       window: window, into: b.knots)
        // The full spans between inside knots go to the vector kernel in one call. A row's
        // preimage is a line and the raster convex, so the inside knots are consecutive;
        // where rounding at a corner breaks that, every span takes the clamped path.
        var firstInside = Int.max, lastInside = -1, insideCount = 0
        for k in 0...spans {
            let isInside = inside(k)
            firstInside = min(firstInside, isInside == 1 ? k : .max)
            lastInside = isInside == 1 ? k : lastInside
            insideCount &+= isInside
        }
        let end = min(lastInside, columns.count / span)  // the last span may be short
        let run = insideCount == lastInside &- firstInside &+ 1 && end > firstInside ? firstInside..<end : 0..<0
        if !run.isEmpty {
            Self.blend(base, words, rows: source.height, knots: b.knots + 2 * run.lowerBound, spans: run.count,
                       into: row + columns.lowerBound + run.lowerBound * span)
        }
        // The edges, clamped.
        @inline(__always) func edge(_ k: Int) {
            let col = columns.lowerBound + k * span, n = min(span, columns.upperBound - col)
            let u0 = b.knots[2 * k], v0 = b.knots[2 * k + 1], u1 = b.knots[2 * k + 2], v1 = b.knots[2 * k + 3]
            if u0 != .min, u1 != .min {
                // A full span divides by a shift (flooring, where `/` truncates: either
                // is deterministic, and they differ by under 2⁻¹⁶ pixel a step).
                let du = n == span ? (u1 - u0) >> 3 : (u1 - u0) / Int64(n)
                let dv = n == span ? (v1 - v0) >> 3 : (v1 - v0) / Int64(n)
                for i in 0..<n {
                    b.positions[2 * i] = u0 &+ Int64(i) &* du
                    b.positions[2 * i + 1] = v0 &+ Int64(i) &* dv
                }
            } else {
                // Near the horizon or far off the raster the chord is no guide: each
                // pixel gets its own division (and one without a position, the
                // transparent corner).
                Self.positions(b.map, origin: origin, from: col, to: col + n, step: 1, window: window, into: b.positions)
            }
            Self.blend(base, words, columns: source.width, rows: source.height, clamping: b.positions, count: n,
                       into: row + col)
        }
        for k in 0..<run.lowerBound { edge(k) }
        for k in run.upperBound..<spans { edge(k) }
    }

    /// The 16.16 positions where `map` (a `PlaneProjection`'s entries, m11 to m33) sends
    /// the centres of the columns `first`, `first + step`, … and `last` of the destination
    /// row whose top-left corner is `origin`, x and y alternating into `out`. Int64.min
    /// for both where there is none: at or behind the horizon, or farther than `window`
    /// raster pixels from the raster's origin, where a position only ever clamps.
    @inline(__always)
    static func positions(_ map: [Double], origin: (x: Double, y: Double), from first: Int, to last: Int, step: Int,
                          window: (x: Double, y: Double), into out: UnsafeMutablePointer<Int64>) {
        kn_projective_positions(map, origin.x, origin.y, first, step, last, (last - first + step - 1) / step,
                                window.x, window.y, out)
    }

    /// `spans` × `stepLength` bilinear samples written to `out`: span s steps from the
    /// 16.16 position (knots[2s], knots[2s + 1]) towards the next knot by a `stepLength`th
    /// of the way, floored. Every sample's texels must lie inside the raster of `rows` rows.
    /// AVX2 is used where the processor has it unless `allowingAVX2` is false (for tests:
    /// either way gives the same bits).
    @inline(__always)
    static func blend(_ base: UnsafePointer<UInt32>, _ words: Int, rows: Int, knots: UnsafePointer<Int64>, spans: Int,
                      into out: UnsafeMutablePointer<UInt32>, allowingAVX2: Bool = true) {
        kn_bilinear_spans(base, words, rows, knots, spans, out, allowingAVX2 ? 1 : 0)
    }

    /// `count` bilinear samples at the 16.16 `positions` (x and y alternating), each
    /// clamped first to the raster of `columns` × `rows` pixels, written to
    /// `out[0..<count]`: the same bits as stepping to them where no clamp is needed.
    @inline(__always)
    static func blend(_ base: UnsafePointer<UInt32>, _ words: Int, columns: Int, rows: Int,
                      clamping positions: UnsafePointer<Int64>, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        kn_bilinear_clamped(base, words, columns, rows, positions, count, out)
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
