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

    /// `ProjectiveResampler.blend4` from recorded offsets and weights.
    func blend4(_ base: UnsafePointer<UInt32>, _ words: Int, offsets: [Int], weights: [UInt32]) -> [UInt32] {
        var offsets = offsets, weights = weights, out = [UInt32](repeating: 0, count: 4)
        offsets.withUnsafeMutableBufferPointer { o in
            weights.withUnsafeMutableBufferPointer { w in
                out.withUnsafeMutableBufferPointer { v in
                    ProjectiveResampler.blend4(base, words, o.baseAddress!, w.baseAddress!, into: v.baseAddress!)
                }
            }
        }
        return out
    }

    @Test func theVectorBlendGivesTheScalarBlendsBits() {
        let source = raster(width: 40, height: 30)
        let mismatches = disagreements(on: source, seed: 7) { base, words, next in
            let offsets = (0..<4).map { _ in next(source.height - 1) * words + next(source.width - 1) }
            let weights = (0..<4).map { _ in UInt32(next(256) | next(256) << 16) }
            let vector = blend4(base, words, offsets: offsets, weights: weights)
            return (0..<4).allSatisfy { k in
                let p = base + offsets[k], tx = UInt64(weights[k] & 255), ty = UInt64(weights[k] >> 16)
                let top = ProjectiveResampler.lerp(ProjectiveResampler.lanes(p[0]), ProjectiveResampler.lanes(p[1]), tx)
                let bottom = ProjectiveResampler.lerp(ProjectiveResampler.lanes(p[words]),
                                                      ProjectiveResampler.lanes(p[words + 1]), tx)
                return ProjectiveResampler.packed(ProjectiveResampler.lerp(top, bottom, ty)) == vector[k]
            }
        }
        #expect(mismatches == 0)
    }

    @Test func theSteppedBlendGivesTheRecordedBlendsBits() {
        // Inside spans step positions in registers; edges record them first. Same bits.
        let mismatches = disagreements(on: raster(width: 50, height: 40), seed: 11) { base, words, next in
            // Four steps of up to ±2 pixels from a point 10 pixels inside the edges.
            let u = (10 << 16) + next(30 << 16), v = (10 << 16) + next(20 << 16)
            let du = next(4 << 16) - (2 << 16), dv = next(4 << 16) - (2 << 16)
            var stepped = [UInt32](repeating: 0, count: 4)
            stepped.withUnsafeMutableBufferPointer { out in
                ProjectiveResampler.blend4(base, words, stepping: (u, v, du, dv), into: out.baseAddress!)
            }
            let offsets = (0..<4).map { k in ((v + k * dv) >> 16) * words + ((u + k * du) >> 16) }
            let weights = (0..<4).map { k in UInt32((u + k * du) >> 8 & 255 | ((v + k * dv) >> 8 & 255) << 16) }
            return stepped == blend4(base, words, offsets: offsets, weights: weights)
        }
        #expect(mismatches == 0)
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
