import Testing
@testable import KineticRender

/// The particle compositor's integer kernels against plain arithmetic: the coverage paint
/// (two pixels in vector lanes), the packed bilinear sample, and whole scaled sprites.
@Suite struct SpriteCompositorTests {
    /// x × a / 255 rounded half up, in plain integers.
    func product(_ x: Int, _ a: Int) -> Int { (2 * x * a + 255) / 510 }

    /// A premultiplied ARGB32 word from channels.
    func pixel(_ b: Int, _ g: Int, _ r: Int, _ a: Int) -> UInt32 {
        UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | UInt32(a) << 24
    }

    func channels(_ p: UInt32) -> [Int] { (0..<4).map { Int(p >> (8 * $0) & 0xFF) } }

    /// What painting `color` at coverage `a` onto `d` gives, channel by channel.
    func expected(_ color: UInt32, coverage a: Int, onto d: UInt32, additive: Bool) -> UInt32 {
        let c = channels(color), dst = channels(d)
        let source = c.map { product($0, a) }
        let out = (0..<4).map { k in
            additive ? min(255, source[k] + dst[k]) : source[k] + product(dst[k], 255 - source[3])
        }
        return pixel(out[0], out[1], out[2], out[3])
    }

    @Test(arguments: [false, true])
    func coveragePaintIsTheRoundedProductForEveryCoverage(additive: Bool) {
        let colors = [pixel(40, 80, 200, 255), pixel(10, 20, 30, 128), pixel(0, 0, 0, 0), pixel(255, 255, 255, 255)]
        let destinations = [pixel(0, 0, 0, 0), pixel(50, 100, 150, 200), pixel(255, 255, 255, 255), pixel(7, 0, 9, 9)]
        for color in colors {
            let paint = CoveragePaint(color)
            for d in destinations {
                // Pairs (a, 255 − a) and, with an odd count, a last single pixel.
                var row = [UInt32](repeating: d, count: 513)
                let coverages: [UInt16] = (0..<256).flatMap { a -> [UInt16] in [UInt16(a), UInt16(255 - a)] } + [77]
                row.withUnsafeMutableBufferPointer { buffer in
                    paint.fill(buffer.baseAddress!, 0..<513, additive: additive) { x in coverages[x] }
                }
                for (i, a) in coverages.enumerated() {
                    #expect(row[i] == expected(color, coverage: Int(a), onto: d, additive: additive),
                            "color \(color) coverage \(a) onto \(d)")
                }
            }
        }
    }

    @Test func packedBilinearIsTheScalarBilinear() {
        // Extreme and middling texels, every sixteenth weight and the largest.
        let values = [0, 1, 100, 254, 255], weights = Array(stride(from: 0, to: 256, by: 16)) + [255]
        for t0 in values { for b0 in values { for t1 in values { for b1 in values {
            let texels = UInt32(t0) | UInt32(b0) << 8 | UInt32(t1) << 16 | UInt32(b1) << 24
            for fu in weights {
                for fv in weights {
                    let a = SpriteCompositor.bilinear(texels, fu: UInt64(fu), rowWeights: UInt64(fv) | UInt64(256 - fv) << 32)
                    let top = t0 * (256 - fu) + t1 * fu, bottom = b0 * (256 - fu) + b1 * fu
                    #expect(Int(a) == (top * (256 - fv) + bottom * fv) >> 16)
                    // And within a step of the real-valued sample.
                    let x = Double(fu) / 256, y = Double(fv) / 256
                    let real = (Double(t0) * (1 - x) + Double(t1) * x) * (1 - y) + (Double(b0) * (1 - x) + Double(b1) * x) * y
                    #expect(abs(Double(a) - real) <= 1)
                }
            }
        } } } }
    }

    @Test func rowPairsInterleaveNeighbouringRows() {
        var sprite = coverageSprite(width: 3, height: 3) { x, y in UInt8(10 * y + x) }
        sprite.interleaveRowPairs()
        #expect(sprite.rowPairs == [0, 10, 1, 11, 2, 12, 10, 20, 11, 21, 12, 22])
    }

    /// A coverage sprite with row extents and pairs.
    func coverageSprite(width: Int, height: Int, _ value: (Int, Int) -> UInt8) -> Sprite {
        var coverage = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { coverage[y * width + x] = value(x, y) } }
        var sprite = Sprite(width: width, height: height, channels: 1, samples: [], coverage: coverage,
                            color: (1, 1, 1), pixelsPerPoint: 1)
        sprite.findRowExtents()
        sprite.interleaveRowPairs()
        return sprite
    }

    /// A disc of soft-edged coverage inside a one-pixel transparent border.
    func disc(side: Int) -> Sprite {
        let c = Double(side) / 2
        return coverageSprite(width: side, height: side) { x, y in
            let d = ((Double(x) + 0.5 - c) * (Double(x) + 0.5 - c) + (Double(y) + 0.5 - c) * (Double(y) + 0.5 - c)).squareRoot()
            return UInt8(max(0, min(255, (c - 1.5 - d) * 255)))
        }
    }

    func draw(_ sprite: Sprite, scale: Double, tx: Double, ty: Double, color: UInt32, bands: [Range<Int>],
              size: Int = 64) -> [UInt32] {
        var pixels = [UInt32](repeating: pixel(30, 20, 10, 255), count: size * size)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let compositor = SpriteCompositor(pixels: buffer.baseAddress!, wordsPerRow: size, width: size, height: size,
                                              additive: false)
            for rows in bands { compositor.drawScaled(sprite, scale: scale, tx: tx, ty: ty, color: color, rows: rows) }
        }
        return pixels
    }

    @Test func aScaledSpriteIsItsBilinearSampleAtEveryPixelCentre() {
        let sprite = disc(side: 34), color = pixel(200, 160, 120, 255), size = 64
        for (scale, tx, ty) in [(0.71, 10.3, 7.8), (1.0, 3.0, 4.0), (0.93, -5.6, 30.25), (0.5, 40.1, 41.9)] {
            let pixels = draw(sprite, scale: scale, tx: tx, ty: ty, color: color, bands: [0..<size])
            for y in 0..<size {
                for x in 0..<size {
                    // The sample under the pixel centre, in sprite pixels (centres at integers).
                    let u = (Double(x) + 0.5 - tx) / scale - 0.5, v = (Double(y) + 0.5 - ty) / scale - 0.5
                    var a = 0.0
                    if u >= 0, v >= 0, u < Double(sprite.width - 1), v < Double(sprite.height - 1) {
                        let iu = Int(u), iv = Int(v), fu = u - Double(iu), fv = v - Double(iv)
                        func c(_ i: Int, _ j: Int) -> Double { Double(sprite.coverage[j * sprite.width + i]) }
                        a = (c(iu, iv) * (1 - fu) + c(iu + 1, iv) * fu) * (1 - fv)
                            + (c(iu, iv + 1) * (1 - fu) + c(iu + 1, iv + 1) * fu) * fv
                    }
                    let want = channels(expected(color, coverage: Int(a.rounded()), onto: pixel(30, 20, 10, 255),
                                                 additive: false))
                    let got = channels(pixels[y * size + x])
                    // 16.16 stepping and 8-bit weights move a coverage by a step or two.
                    #expect(zip(want, got).allSatisfy { abs($0 - $1) <= 2 }, "scale \(scale) at \(x), \(y)")
                }
            }
        }
    }

    @Test func bandsJoinExactly() {
        let sprite = disc(side: 26), color = pixel(90, 200, 40, 230)
        let whole = draw(sprite, scale: 0.83, tx: 11.4, ty: 13.7, color: color, bands: [0..<64])
        let banded = draw(sprite, scale: 0.83, tx: 11.4, ty: 13.7, color: color,
                          bands: [0..<16, 16..<21, 21..<32, 32..<64])
        #expect(whole == banded)
    }
}
