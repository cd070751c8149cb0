import CComposite
import Foundation
import Testing
import KineticCairo
import KineticGeometry

/// A tint painted through an alpha image (a cached shadow): CComposite's loops and
/// `CairoContext.paint(_:through:…)` against Cairo's own masking, bit for bit.
@Suite struct TintedMaskTests {
    /// A deterministic generator (SplitMix64).
    struct Numbers {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// An ARGB32 surface of valid premultiplied pixels (each channel at most its alpha),
    /// some opaque, some clear.
    func target(width: Int, height: Int, _ numbers: inout Numbers) -> CairoSurface {
        let surface = CairoSurface.image(.argb32, width: width, height: height)
        surface.withPixels { pixels, words in
            for y in 0..<height {
                for x in 0..<width {
                    let kind = numbers.below(4)
                    let a = kind == 0 ? 0 : kind == 1 ? 255 : numbers.below(256)
                    func channel() -> UInt32 { UInt32(numbers.below(a + 1)) }
                    pixels[y * words + x] = UInt32(a) << 24 | channel() << 16 | channel() << 8 | channel()
                }
            }
        }
        return surface
    }

    /// An A8 image with runs of clear values (whole blocks skipped), full values and any.
    func mask(width: Int, height: Int, _ numbers: inout Numbers) -> CairoSurface {
        let surface = CairoSurface.image(.a8, width: width, height: height)
        surface.withBytes { bytes, stride in
            for y in 0..<height {
                var x = 0
                while x < width {
                    let run = 1 + numbers.below(24), kind = numbers.below(3)
                    for i in x..<min(width, x + run) {
                        bytes[y * stride + i] = kind == 0 ? 0 : kind == 1 ? 255 : UInt8(numbers.below(256))
                    }
                    x += run
                }
            }
        }
        return surface
    }

    func color(_ numbers: inout Numbers) -> Color {
        Color(red: numbers.unit(), green: numbers.unit(), blue: numbers.unit(),
              alpha: numbers.below(4) == 0 ? 1 : numbers.unit())
    }

    /// Cairo masking `color` through `mask` at whole pixels (x, y) on a copy of `target`.
    func cairoMasked(_ target: CairoSurface, _ mask: CairoSurface, _ color: Color, x: Int, y: Int) -> [UInt8] {
        let copy = CairoSurface.image(.argb32, width: target.width, height: target.height)
        copy.replaceBytes(target.bytes(), stride: target.stride)
        let ctx = CairoContext(copy)
        ctx.setSource(color)
        ctx.mask(mask, x: Double(x), y: Double(y))
        return copy.bytes()
    }

    @Test func theTintIsThePixelCairoPaints() throws {
        var numbers = Numbers(state: 3)
        var colors = [Color.clear, .black, .white, Color(red: 2, green: -1, blue: 0.5, alpha: 1.5)]
        for _ in 0..<2000 { colors.append(color(&numbers)) }
        for c in colors {
            let one = CairoSurface.image(.argb32, width: 1, height: 1)
            let ctx = CairoContext(one)
            ctx.setReplacing()
            ctx.setSource(c)
            ctx.paint()
            let b = one.bytes()
            let painted = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
            #expect(CairoContext.premultiplied(c) == painted, "\(c)")
        }
        #expect(CairoContext.premultiplied(Color(red: .nan, green: 0, blue: 0, alpha: 1)) == nil)
    }

    /// Every loop the processor has (and the portable one) gives Cairo's bits, on rows of
    /// every length around the vector widths.
    @Test func everyLoopGivesCairosBits() throws {
        var numbers = Numbers(state: 15)
        let host = Int(kn_over_tinted_level())
        for width in [1, 7, 8, 9, 15, 16, 17, 31, 33, 70] {
            let height = 5
            let target = target(width: width + 3, height: height + 2, &numbers)
            let mask = mask(width: width, height: height, &numbers)
            let c = color(&numbers)
            let expected = cairoMasked(target, mask, c, x: 2, y: 1)
            let tint = try #require(CairoContext.premultiplied(c))
            let maskBytes = mask.bytes()
            for level in 0...host {
                var pixels = target.bytes()
                pixels.withUnsafeMutableBytes { raw in
                    let dst = (raw.baseAddress! + target.stride + 8).assumingMemoryBound(to: UInt32.self)
                    kn_over_tinted(tint, maskBytes, mask.stride, dst, target.stride, width, height, Int32(level))
                }
                #expect(pixels == expected, "width \(width), level \(level) of \(host)")
            }
        }
    }

    /// The context's paint: straight into the pixels or by Cairo, the same bits — under a
    /// clip of several boxes, inside a group whose surface is offset, with the image
    /// partly off the target, limited to a box and leaving out another.
    @Test func paintingDirectlyGivesCairosBits() throws {
        var numbers = Numbers(state: 8)
        for trial in 0..<40 {
            let width = 40 + numbers.below(60), height = 30 + numbers.below(40)
            let base = target(width: width, height: height, &numbers)
            let mask = mask(width: 10 + numbers.below(50), height: 10 + numbers.below(40), &numbers)
            let c = color(&numbers)
            let x = numbers.below(width) - 20, y = numbers.below(height) - 15
            func box() -> PixelBox {
                let x0 = numbers.below(width) - 5, y0 = numbers.below(height) - 5
                return PixelBox(x0: x0, y0: y0, x1: x0 + numbers.below(50), y1: y0 + numbers.below(40))
            }
            let within = numbers.below(3) == 0 ? nil : box(), except = numbers.below(3) == 0 ? nil : box()
            let clipped = trial % 2 == 1, grouped = trial % 4 >= 2
            var results: [[UInt8]] = []
            for direct in [false, true] {
                let surface = CairoSurface.image(.argb32, width: width, height: height)
                surface.replaceBytes(base.bytes(), stride: base.stride)
                let ctx = CairoContext(surface)
                if clipped {
                    // Two boxes, one not on whole pixels (Cairo then keeps a mask, not boxes).
                    ctx.rectangle(Rect(3, 2, Double(width / 2), Double(height / 2)))
                    ctx.rectangle(Rect(Double(width / 2), Double(height / 2), Double(width / 3), trial % 8 == 3 ? 7.5 : 9))
                    ctx.clip()
                }
                if grouped {
                    ctx.rectangle(Rect(5, 4, Double(width - 9), Double(height - 7)))
                    ctx.clip()
                    ctx.pushGroup()
                    ctx.setSource(Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5))
                    ctx.paint()
                }
                ctx.paint(c, through: mask, x: Double(x), y: Double(y), cell: 1, within: within, except: except, direct: direct)
                if grouped {
                    ctx.setSource(ctx.popGroup())
                    ctx.paint()
                }
                results.append(surface.bytes())
            }
            let differing = (0..<height).flatMap { y in (0..<width).filter { x in
                (0..<4).contains { results[0][y * base.stride + 4 * x + $0] != results[1][y * base.stride + 4 * x + $0] } }.map { [$0, y] } }
            #expect(differing.isEmpty, "trial \(trial): \(differing.count) pixels differ, first \(differing.prefix(4)); image at \(x), \(y) \(mask.width)×\(mask.height), within \(String(describing: within)), except \(String(describing: except)), clipped \(clipped), grouped \(grouped)")
        }
    }

    /// An image placed beyond Int's range (a layer far off) paints nothing, either way.
    @Test func anImageFarOffPaintsNothing() {
        var numbers = Numbers(state: 2)
        let mask = mask(width: 8, height: 8, &numbers)
        for direct in [false, true] {
            for at in [1e20, -1e20, 3e9] {
                let surface = CairoSurface.image(.argb32, width: 16, height: 16)
                let ctx = CairoContext(surface)
                ctx.paint(.black, through: mask, x: at, y: 2, cell: 1, within: nil,
                          except: PixelBox(x0: 1, y0: 1, x1: 5, y1: 5), direct: direct)
                #expect(surface.bytes().allSatisfy { $0 == 0 })
            }
        }
    }
}
