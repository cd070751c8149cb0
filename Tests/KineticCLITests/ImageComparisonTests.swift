@testable import KineticCLI
import Kinetic
import KineticGeometry
import Testing

/// An image from straight (un-premultiplied) RGBA values, stored premultiplied as Cairo does.
func image(width: Int, height: Int, _ pixel: (Int, Int) -> (r: Int, g: Int, b: Int, a: Int)) -> PixelImage {
    var result = PixelImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let p = pixel(x, y)
            func pre(_ c: Int) -> UInt8 { UInt8((c * p.a + 127) / 255) }
            let i = y * result.stride + x * 4
            result.bytes[i] = pre(p.b); result.bytes[i + 1] = pre(p.g); result.bytes[i + 2] = pre(p.r)
            result.bytes[i + 3] = UInt8(p.a)
        }
    }
    return result
}

/// An opaque grey image.
func grey(width: Int, height: Int, _ level: (Int, Int) -> Int) -> PixelImage {
    image(width: width, height: height) { x, y in let v = level(x, y); return (v, v, v, 255) }
}

/// A smooth opaque test picture: diagonal gradients in all three channels.
func gradient(width: Int = 16, height: Int = 16) -> PixelImage {
    image(width: width, height: height) { x, y in (x * 15, y * 15, (x + y) * 7, 255) }
}

/// Sets the pixel at (x, y) of a premultiplied image to an opaque color.
func setPixel(_ image: inout PixelImage, _ x: Int, _ y: Int, r: UInt8, g: UInt8, b: UInt8) {
    let i = y * image.stride + x * 4
    image.bytes[i] = b; image.bytes[i + 1] = g; image.bytes[i + 2] = r; image.bytes[i + 3] = 255
}

@Suite struct ImageComparisonTests {
    @Test func identicalImagesDifferNowhere() throws {
        let a = gradient()
        let d = try ImageComparison.compare(a, a, channelTolerance: 0)
        #expect(d.differingShare == 0)
        #expect(d.maxChannelDifference == 0)
        #expect(abs(d.ssim - 1) < 1e-12)
    }

    @Test func onePerturbedPixelIsCaught() throws {
        let a = gradient()
        var b = a
        // (3, 5) is (45, 75, 56); 20 more red than that, over the tolerance of 8.
        setPixel(&b, 3, 5, r: 65, g: 75, b: 56)
        let d = try ImageComparison.compare(b, a, channelTolerance: 8)
        #expect(d.differingShare == 1.0 / 256)
        #expect(d.maxChannelDifference == 20)
        #expect(d.ssim < 1)
        #expect(d.ssim > 0.9)
    }

    @Test func channelToleranceIsInclusive() throws {
        let a = grey(width: 10, height: 10) { _, _ in 100 }
        var b = a
        setPixel(&b, 0, 0, r: 108, g: 100, b: 100)   // 8 away: tolerated
        setPixel(&b, 9, 9, r: 100, g: 100, b: 109)   // 9 away: differs
        let d = try ImageComparison.compare(b, a, channelTolerance: 8)
        #expect(d.differingShare == 0.01)
        #expect(d.maxChannelDifference == 9)
        let strict = try ImageComparison.compare(b, a, channelTolerance: 0)
        #expect(strict.differingShare == 0.02)
    }

    @Test func channelsAreComparedUnpremultiplied() throws {
        // Alpha 16: premultiplied red 8 is 8/16 × 255 = 127.5 → 128 straight, red 9 is
        // 143.4 → 143; one premultiplied level apart, 15 straight levels apart.
        var a = PixelImage(width: 1, height: 1), b = PixelImage(width: 1, height: 1)
        a.bytes = [0, 0, 8, 16]
        b.bytes = [0, 0, 9, 16]
        let d = try ImageComparison.compare(a, b, channelTolerance: 8)
        #expect(d.maxChannelDifference == 15)
        #expect(d.differingShare == 1)
    }

    @Test func alphaIsAChannel() throws {
        let opaque = grey(width: 4, height: 4) { _, _ in 0 }
        let clear = PixelImage(width: 4, height: 4)
        let d = try ImageComparison.compare(opaque, clear, channelTolerance: 254)
        #expect(d.maxChannelDifference == 255)
        #expect(d.differingShare == 1)
    }

    @Test func differentSizesAreNotCompared() {
        #expect(throws: ImageSizeMismatch.self) {
            try ImageComparison.compare(gradient(width: 16, height: 16), gradient(width: 16, height: 15), channelTolerance: 255)
        }
    }

    @Test func ssimOfFlatImagesIsTheLuminanceTerm() {
        // No variance: every window scores (2ab + C1) / (a² + b² + C1), C1 = (0.01 × 255)².
        let a = grey(width: 12, height: 10) { _, _ in 100 }
        let b = grey(width: 12, height: 10) { _, _ in 110 }
        let c1 = 2.55 * 2.55
        let expected = (2 * 100 * 110 + c1) / (100 * 100 + 110 * 110 + c1)
        #expect(abs(ImageComparison.ssim(a, b) - expected) < 1e-9)
    }

    @Test func ssimOfAnInvertedCheckerboardIsNearMinusOne() {
        // One 8×8 window; both means 127.5, both variances 127.5², covariance −127.5²:
        // SSIM = (−2 × 127.5² + C2) / (2 × 127.5² + C2), C2 = (0.03 × 255)².
        let a = grey(width: 8, height: 8) { x, y in (x + y) % 2 == 0 ? 0 : 255 }
        let b = grey(width: 8, height: 8) { x, y in (x + y) % 2 == 0 ? 255 : 0 }
        let v = 127.5 * 127.5, c2 = 7.65 * 7.65
        #expect(abs(ImageComparison.ssim(a, b) - (-2 * v + c2) / (2 * v + c2)) < 1e-9)
    }

    @Test func ssimSeesTransparencyOverWhite() {
        let white = grey(width: 9, height: 9) { _, _ in 255 }
        #expect(abs(ImageComparison.ssim(PixelImage(width: 9, height: 9), white) - 1) < 1e-12)
    }

    @Test func diffImageMarksDifferencesByTolerance() {
        let a = grey(width: 3, height: 2) { _, _ in 200 }
        var b = a
        setPixel(&b, 1, 0, r: 204, g: 200, b: 200)   // 4 ≤ 8: within tolerance
        setPixel(&b, 2, 1, r: 200, g: 100, b: 200)   // 100 > 8: over it
        let diff = ImageComparison.diffImage(actual: b, expected: a, channelTolerance: 8, amplification: 16)
        #expect(diff.width == 3 && diff.height == 2)
        // Unchanged: grey 192 + 200/4 = 242.
        #expect(diff.rgba(x: 0, y: 0) == (242, 242, 242, 255))
        // Within tolerance: blue, 4 × 16 = 64 raised to the floor of 96.
        #expect(diff.rgba(x: 1, y: 0) == (0, 0, 96, 255))
        // Over: red, 100 × 16 clamped to 255.
        #expect(diff.rgba(x: 2, y: 1) == (255, 0, 0, 255))
    }

    @Test func diffImageCoversBothSizes() {
        let diff = ImageComparison.diffImage(actual: grey(width: 4, height: 2) { _, _ in 0 },
                                             expected: grey(width: 2, height: 3) { _, _ in 0 }, channelTolerance: 0)
        #expect(diff.width == 4 && diff.height == 3)
        #expect(diff.rgba(x: 3, y: 0) == (255, 0, 0, 255))   // only in the actual image
        #expect(diff.rgba(x: 0, y: 2) == (255, 0, 0, 255))   // only in the expected one
        #expect(diff.rgba(x: 1, y: 1) == (192, 192, 192, 255))
    }

    @Test func sideBySideLaysPanelsOutLeftToRight() {
        let a = grey(width: 5, height: 3) { _, _ in 10 }
        let b = grey(width: 7, height: 4) { x, y in x == 0 && y == 0 ? 20 : 30 }
        let c = grey(width: 2, height: 2) { _, _ in 40 }
        let sheet = ImageComparison.sideBySide([a, b, c], gap: 4)
        #expect(sheet.width == 5 + 4 + 7 + 4 + 2)
        #expect(sheet.height == 4)
        #expect(sheet.rgba(x: 4, y: 2) == (10, 10, 10, 255))
        #expect(sheet.rgba(x: 5, y: 0) == (128, 128, 128, 255))   // the gap
        #expect(sheet.rgba(x: 9, y: 0) == (20, 20, 20, 255))      // b's first pixel
        #expect(sheet.rgba(x: 20, y: 1) == (40, 40, 40, 255))
        #expect(sheet.rgba(x: 20, y: 3) == (128, 128, 128, 255))  // below the shorter c
    }
}
