import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// The projected-layer pixel loop: its vector blend against the scalar one, its stepped
/// positions against an exact division per pixel, and exact cases worked by hand.
@Suite struct ProjectiveResamplerTests {
    /// A deterministic pseudo-random raster with a transparent two-pixel border, as
    /// `rasterize` makes them.
    func raster(width: Int, height: Int, seed: UInt64 = 1) -> Raster {
        var state = seed
        func next() -> UInt32 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: state >> 32)
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 2..<(height - 2) {
            for x in 2..<(width - 2) {
                let word = next()
                let a = UInt8(truncatingIfNeeded: word >> 24)
                // Premultiplied: no channel above alpha.
                let i = (y * width + x) * 4
                func channel(_ v: UInt32) -> UInt8 { UInt8((v & 0xFF) % (UInt32(a) + 1)) }
                bytes[i] = channel(word)
                bytes[i + 1] = channel(word >> 8)
                bytes[i + 2] = channel(word >> 16)
                bytes[i + 3] = a
            }
        }
        return Raster(x: 0, y: 0, width: width, height: height, stride: width * 4, bytes: bytes)
    }

    /// Resamples `source` through `fromDestination` (destination pixels → raster pixels,
    /// both with pixel i covering i…i + 1) into a `width` × `height` image, every column
    /// of every row.
    func resample(_ source: Raster, _ fromDestination: PlaneProjection, width: Int, height: Int,
                  behindEye: (PlaneProjection, Double)? = nil, grid: Int = 1) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: width * height)
        guard let resampler = ProjectiveResampler(fromDestination: fromDestination,
                                                  planeToRaster: PlaneProjection(affine: 1, 0, 0, 1, -0.5, -0.5),
                                                  behindEye: behindEye, grid: grid) else { return out }
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            resampler.resample(source, into: base, wordsPerRow: width, width: width, height: height,
                               origin: (0, 0)) { _ in 0..<width }
        }
        return out
    }

    func channels(_ p: UInt32) -> [Int] { (0..<4).map { Int(p >> (8 * UInt32($0)) & 0xFF) } }

    /// How many of `trials` random cases `agree` rejects, given the raster's pixels, its
    /// row length in words and a generator of numbers below n.
    func disagreements(on source: Raster, trials: Int = 2000, seed: UInt64,
                       _ agree: (UnsafePointer<UInt32>, Int, (Int) -> Int) -> Bool) -> Int {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        return source.bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt32.self) else { return -1 }
            return (0..<trials).filter { _ in !agree(base, source.width, next) }.count
        }
    }

    /// `ProjectiveResampler`'s blend at 16.16 `positions` (x and y alternating), clamped
    /// to `source`.
    func clamped(_ base: UnsafePointer<UInt32>, _ words: Int, _ source: Raster, positions: [Int64]) -> [UInt32] {
        let count = positions.count / 2
        var out = [UInt32](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { v in
            ProjectiveResampler.blend(base, words, columns: source.width, rows: source.height, clamping: positions,
                                      count: count, into: v.baseAddress!)
        }
        return out
    }

    /// `ProjectiveResampler`'s blend of spans stepped between `knots` (16.16 positions,
    /// x and y alternating).
    func stepped(_ base: UnsafePointer<UInt32>, _ words: Int, rows: Int, knots: [Int64], avx2: Bool) -> [UInt32] {
        let spans = knots.count / 2 - 1
        var out = [UInt32](repeating: 0, count: spans * ProjectiveResampler.stepLength)
        out.withUnsafeMutableBufferPointer { v in
            ProjectiveResampler.blend(base, words, rows: rows, knots: knots, spans: spans, into: v.baseAddress!,
                                      allowingAVX2: avx2)
        }
        return out
    }

    /// The blend of the texels at `p` by `lerp` on 64-bit words, to compare against.
    func scalarBlend(_ p: UnsafePointer<UInt32>, _ words: Int, weights: UInt32) -> UInt32 {
        let tx = UInt64(weights & 255), ty = UInt64(weights >> 16)
        let top = ProjectiveResampler.lerp(ProjectiveResampler.lanes(p[0]), ProjectiveResampler.lanes(p[1]), tx)
        let bottom = ProjectiveResampler.lerp(ProjectiveResampler.lanes(p[words]), ProjectiveResampler.lanes(p[words + 1]), tx)
        return ProjectiveResampler.packed(ProjectiveResampler.lerp(top, bottom, ty))
    }

    @Test func theClampedBlendGivesTheScalarBlendsBits() {
        // Seven samples (three pairs in vector lanes and one alone), positions up to two
        // pixels beyond each edge, and one without a position.
        let source = raster(width: 40, height: 30)
        let maxU = (source.width - 1) << 16 - 1, maxV = (source.height - 1) << 16 - 1
        let mismatches = disagreements(on: source, seed: 7) { base, words, next in
            var positions = (0..<14).map { i in Int64(next((i % 2 == 0 ? source.width + 4 : source.height + 4) << 16) - (2 << 16)) }
            if next(4) == 0 { positions[2 * next(7)] = .min }
            let vector = clamped(base, words, source, positions: positions)
            return (0..<7).allSatisfy { k in
                let u = Int(max(positions[2 * k], 0)), v = Int(max(positions[2 * k + 1], 0))
                let uc = min(u, maxU), vc = min(v, maxV)
                return scalarBlend(base + (vc >> 16) * words + (uc >> 16), words,
                                   weights: UInt32(uc >> 8 & 255 | (vc >> 8 & 255) << 16)) == vector[k]
            }
        }
        #expect(mismatches == 0)
    }

    /// Spans of up to three, stepped from random knots inside an 80 × 60 raster, against
    /// `lerp` on 64-bit words at the same positions.
    func steppedAgainstScalar(seed: UInt64, avx2: Bool) -> Int {
        let source = raster(width: 80, height: 60, seed: seed)
        return disagreements(on: source, trials: 1000, seed: seed) { base, words, next in
            // From a point well inside, knots up to 6 pixels apart each way.
            var knots: [Int64] = [Int64((24 << 16) + next(16 << 16)), Int64((20 << 16) + next(10 << 16))]
            for _ in 0..<(1 + next(3)) {
                let count = knots.count
                knots += [knots[count - 2] + Int64(next(12 << 16) - (6 << 16)),
                          knots[count - 1] + Int64(next(12 << 16) - (6 << 16))]
            }
            var expected: [UInt32] = []
            for s in 0..<(knots.count / 2 - 1) {
                let u0 = Int(knots[2 * s]), v0 = Int(knots[2 * s + 1])
                let du = (Int(knots[2 * s + 2]) - u0) >> 3, dv = (Int(knots[2 * s + 3]) - v0) >> 3
                for k in 0..<ProjectiveResampler.stepLength {
                    let u = u0 + k * du, v = v0 + k * dv
                    expected.append(scalarBlend(base + (v >> 16) * words + (u >> 16), words,
                                                weights: UInt32(u >> 8 & 255 | (v >> 8 & 255) << 16)))
                }
            }
            return stepped(base, words, rows: source.height, knots: knots, avx2: avx2) == expected
        }
    }

    @Test func theSteppedBlendGivesTheScalarBlendsBits() {
        // Inside runs step positions in vector lanes (edges clamp them: the test above).
        #expect(steppedAgainstScalar(seed: 11, avx2: true) == 0)
        // The path for processors without AVX2.
        #expect(steppedAgainstScalar(seed: 12, avx2: false) == 0)
    }

    @Test func theIdentityCopiesTheRasterExactly() {
        let source = raster(width: 37, height: 23)
        let out = resample(source, .identity, width: 37, height: 23)
        let copied = source.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) == out }
        #expect(copied)
    }

    @Test func aHalfPixelShiftAveragesNeighbours() {
        // Destination pixel centre x + 0.5 lands halfway between texels x and x + 1.
        let source = raster(width: 20, height: 12)
        let out = resample(source, PlaneProjection(affine: 1, 0, 0, 1, 0.5, 0), width: 20, height: 12)
        var worst = 0
        source.bytes.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in 0..<12 {
                for x in 0..<18 {
                    let a = channels(px[y * 20 + x]), b = channels(px[y * 20 + x + 1]), got = channels(out[y * 20 + x])
                    for c in 0..<4 { worst = max(worst, abs(got[c] * 2 - (a[c] + b[c]))) }
                }
            }
        }
        // Exactly (a + b) / 2, rounded half up: within one of twice the mean.
        #expect(worst <= 1)
    }

    /// A steep perspective: w grows by 10 % every 100 pixels along a row (a 60° tilt
    /// under m34 = −1/500 drawn at 2× grows it by under 9 %).
    let steep = PlaneProjection(m11: 1.3, m12: 0.2, m13: 0.001, m21: -0.1, m22: 1.1, m23: 0.0005,
                                m31: 3, m32: 2, m33: 1)

    @Test func positionsAreExactDivisionsUpToTheHorizon() {
        // q = 1 − x/50 (with a tilt in y): the horizon at column 49.5, points beyond it
        // have none. In front, each position is the division's bits, truncated to 16.16.
        let m = PlaneProjection(m11: 1.5, m12: 0.25, m13: -0.02, m21: 0.1, m22: 2, m23: 0.001, m31: 3, m32: -4, m33: 1)
        let map = [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33]
        var out = [Int64](repeating: 0, count: 2 * 61)
        out.withUnsafeMutableBufferPointer { buffer in
            ProjectiveResampler.positions(map, origin: (0, 7), from: 0, to: 60, step: 1, window: (1e6, 1e6),
                                          into: buffer.baseAddress!)
        }
        for col in 0...60 {
            let x = Double(col) + 0.5, y = 7.5
            let q = x * m.m13 + (y * m.m23 + m.m33)
            if q > 0 {
                #expect(out[2 * col] == Int64((x * m.m11 + (y * m.m21 + m.m31)) / q * 65536))
                #expect(out[2 * col + 1] == Int64((x * m.m12 + (y * m.m22 + m.m32)) / q * 65536))
            } else {
                #expect(out[2 * col] == .min && out[2 * col + 1] == .min)
            }
        }
        #expect(out[2 * 49] != .min && out[2 * 50] == .min)
    }

    @Test func positionsEndOnTheLastColumnAndStopAtTheWindow() {
        // Every 8 columns from 3, then column 20; x = 10 × column is outside a window of
        // 150 from column 15 on.
        let map = [10.0, 0, 0, 0, 1, 0, 0, 0, 1]
        var out = [Int64](repeating: 0, count: 2 * 4)
        out.withUnsafeMutableBufferPointer { buffer in
            ProjectiveResampler.positions(map, origin: (0, 0), from: 3, to: 20, step: 8, window: (150, 150),
                                          into: buffer.baseAddress!)
        }
        #expect(out == [35 << 16, 1 << 15, 115 << 16, 1 << 15, .min, .min, .min, .min])
    }

    @Test func steppedPositionsMatchADivisionPerPixel() {
        // The general path divides at every sample; here it is forced with a
        // behind-the-eye test every sample passes. Between exact positions 8 pixels
        // apart the chord departs from the curve by (8² / 8) × |u''| ≈ 0.02 pixel here,
        // so on a raster whose neighbouring texels differ by up to 255 a channel may move
        // by about 255 × 0.02 ≈ 5.
        let source = raster(width: 160, height: 120)
        let stepped = resample(source, steep, width: 100, height: 80)
        let exact = resample(source, steep, width: 100, height: 80,
                             behindEye: (.identity, -1e9))
        var worst = 0
        for i in stepped.indices {
            for (a, b) in zip(channels(stepped[i]), channels(exact[i])) { worst = max(worst, abs(a - b)) }
        }
        #expect(worst <= 8)
        #expect(stepped != [UInt32](repeating: 0, count: stepped.count))
    }

    @Test func samplesBehindTheEyeAreDropped() {
        // w = 1 − x/50 of the raster point: only columns whose preimage has x < 50 count.
        let source = raster(width: 100, height: 10)
        let front = PlaneProjection(m11: 1, m12: 0, m13: -1.0 / 50, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        let out = resample(source, .identity, width: 100, height: 10, behindEye: (front, 1e-9))
        let copied = resample(source, .identity, width: 100, height: 10)
        #expect(out[5 * 100 + 48] == copied[5 * 100 + 48])
        #expect(out[5 * 100 + 52] == 0 && copied[5 * 100 + 52] != 0)
    }

    @Test func rasterScalesStayOnTheLadderAndNeverUnderSample() {
        var keptOneSample = 0
        for magnification in stride(from: 0.3, through: 9.0, by: 0.07) {
            for ratio in [1.0, 1.1, 1.25, 1.5] {
                let minification = magnification / ratio
                let scale = LayerRenderer.rasterScale(magnification: magnification, minification: minification)
                let steps = log2(scale) * 4
                #expect(abs(steps - steps.rounded()) < 1e-9)
                // At least one raster pixel under every destination pixel.
                #expect(scale >= magnification * (1 - 1e-12))
                if scale <= 2 * minification { keptOneSample += 1 }
            }
        }
        // The lower step is taken whenever it keeps one sample a pixel: for a gentle
        // tilt (ratio ≤ 1.25) that is always possible.
        #expect(keptOneSample >= 3 * 127)
    }
}
