import KineticGeometry

/// How far an image is from a reference of the same size.
package struct ImageDifference: Equatable, Sendable {
    /// Share (0…1) of pixels with some un-premultiplied RGBA channel more than the channel
    /// tolerance away from the reference.
    package var differingShare: Double
    /// The largest difference of any channel of any pixel (0…255), un-premultiplied RGBA.
    package var maxChannelDifference: Int
    /// Mean structural similarity of the lumas (1 for identical images); see
    /// ``ImageComparison/ssim(_:_:)``.
    package var ssim: Double
}

/// Two images that cannot be compared pixel for pixel.
package struct ImageSizeMismatch: Error, Equatable, CustomStringConvertible {
    package var actual: (width: Int, height: Int)
    package var expected: (width: Int, height: Int)

    package static func == (a: Self, b: Self) -> Bool { a.actual == b.actual && a.expected == b.expected }

    package var description: String {
        "the image is \(actual.width)×\(actual.height) px, the golden one \(expected.width)×\(expected.height) px"
    }
}

/// The arithmetic of golden-image regression: per-pixel differences under a tolerance,
/// SSIM, and the pictures written when a frame does not match.
package enum ImageComparison {
    /// Compares `actual` with `expected` pixel by pixel on un-premultiplied RGBA bytes
    /// (fully transparent pixels are equal whatever their color, as they look).
    /// A pixel differs when any of its four channels is more than `channelTolerance` away.
    /// - Throws: ``ImageSizeMismatch`` when the sizes differ.
    package static func compare(_ actual: PixelImage, _ expected: PixelImage,
                        channelTolerance: Int) throws(ImageSizeMismatch) -> ImageDifference {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw ImageSizeMismatch(actual: (actual.width, actual.height), expected: (expected.width, expected.height))
        }
        var differing = 0
        var maxDifference = 0
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let d = channelDifference(actual.rgba(x: x, y: y), expected.rgba(x: x, y: y))
                if d > channelTolerance { differing += 1 }
                maxDifference = max(maxDifference, d)
            }
        }
        let pixels = actual.width * actual.height
        return ImageDifference(differingShare: pixels > 0 ? Double(differing) / Double(pixels) : 0,
                               maxChannelDifference: maxDifference,
                               ssim: ssim(actual, expected))
    }

    private typealias RGBA = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)

    /// The largest of the four channel differences.
    private static func channelDifference(_ p: RGBA, _ q: RGBA) -> Int {
        max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
    }

    // MARK: SSIM

    /// The window side: SSIM is computed over every 8×8 window (step one pixel), as in
    /// Wang et al. 2004 "Image Quality Assessment: From Error Visibility to Structural
    /// Similarity" with a uniform rather than Gaussian window.
    package static let ssimWindow = 8
    /// Stabilizing constants of that paper for 8-bit values: (0.01·255)² and (0.03·255)².
    package static let ssimC1 = (0.01 * 255) * (0.01 * 255)
    package static let ssimC2 = (0.03 * 255) * (0.03 * 255)

    /// Mean SSIM of the two images' luma over all 8×8 windows (smaller images use one
    /// window as large as they are). Luma is Rec. 601 (0.299 R + 0.587 G + 0.114 B) of the
    /// pixel composited over white, so transparency counts as it would show on a page.
    /// Images of different sizes score 0; empty images 1.
    package static func ssim(_ a: PixelImage, _ b: PixelImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        let width = a.width, height = a.height
        guard width > 0, height > 0 else { return 1 }
        let x = luma(a), y = luma(b)
        let wx = min(ssimWindow, width), wy = min(ssimWindow, height)
        // Summed-area tables of x, y, x², y², xy: each window's moments in O(1).
        let sx = SummedArea(width: width, height: height) { x[$0] }
        let sy = SummedArea(width: width, height: height) { y[$0] }
        let sxx = SummedArea(width: width, height: height) { x[$0] * x[$0] }
        let syy = SummedArea(width: width, height: height) { y[$0] * y[$0] }
        let sxy = SummedArea(width: width, height: height) { x[$0] * y[$0] }
        let n = Double(wx * wy)
        var total = 0.0
        var windows = 0
        for top in 0...(height - wy) {
            for left in 0...(width - wx) {
                func sum(_ s: SummedArea) -> Double { s.sum(left: left, top: top, width: wx, height: wy) }
                let mx = sum(sx) / n, my = sum(sy) / n
                // Population (co)variances; clamped since rounding can dip them below 0.
                let vx = max(0, sum(sxx) / n - mx * mx), vy = max(0, sum(syy) / n - my * my)
                let cxy = sum(sxy) / n - mx * my
                total += ((2 * mx * my + ssimC1) * (2 * cxy + ssimC2))
                    / ((mx * mx + my * my + ssimC1) * (vx + vy + ssimC2))
                windows += 1
            }
        }
        return total / Double(windows)
    }

    /// Luma of every pixel over white, row-major.
    private static func luma(_ image: PixelImage) -> [Double] {
        var result = [Double](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                let alpha = Double(p.a) / 255
                let l = 0.299 * Double(p.r) + 0.587 * Double(p.g) + 0.114 * Double(p.b)
                result[y * image.width + x] = l * alpha + 255 * (1 - alpha)
            }
        }
        return result
    }

    /// A summed-area table: `table[(y)(width+1) + x]` is the sum of values above and left.
    private struct SummedArea {
        let stride: Int
        var table: [Double]

        init(width: Int, height: Int, value: (Int) -> Double) {
            stride = width + 1
            table = [Double](repeating: 0, count: stride * (height + 1))
            for y in 0..<height {
                var row = 0.0
                for x in 0..<width {
                    row += value(y * width + x)
                    table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + row
                }
            }
        }

        func sum(left: Int, top: Int, width: Int, height: Int) -> Double {
            let r = left + width, b = top + height
            return table[b * stride + r] - table[top * stride + r] - table[b * stride + left] + table[top * stride + left]
        }
    }

    // MARK: Pictures of a mismatch

    /// A map of where the images differ, the size of the larger of the two (pixels
    /// outside either image count as differing):
    /// - unchanged pixels show the expected image's luma faded to light grey, for context;
    /// - differences within `channelTolerance` are blue, those over it red, both with
    ///   brightness `amplification` × the largest channel difference, at least 96 of 255 so
    ///   a difference of one level is still visible.
    package static func diffImage(actual: PixelImage, expected: PixelImage, channelTolerance: Int,
                          amplification: Int = 16) -> PixelImage {
        let width = max(actual.width, expected.width), height = max(actual.height, expected.height)
        var diff = PixelImage(width: width, height: height)
        func inside(_ image: PixelImage, _ x: Int, _ y: Int) -> Bool { x < image.width && y < image.height }
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b): (UInt8, UInt8, UInt8)
                if inside(actual, x, y), inside(expected, x, y) {
                    let e = expected.rgba(x: x, y: y)
                    let d = channelDifference(actual.rgba(x: x, y: y), e)
                    let level = UInt8(min(255, max(96, d * amplification)))
                    if d == 0 {
                        let alpha = Double(e.a) / 255
                        let l = (0.299 * Double(e.r) + 0.587 * Double(e.g) + 0.114 * Double(e.b)) * alpha + 255 * (1 - alpha)
                        let grey = UInt8(192 + Int(l) / 4)
                        (r, g, b) = (grey, grey, grey)
                    } else if d <= channelTolerance {
                        (r, g, b) = (0, 0, level)
                    } else {
                        (r, g, b) = (level, 0, 0)
                    }
                } else {
                    (r, g, b) = (255, 0, 0)
                }
                let i = y * diff.stride + x * 4
                diff.bytes[i] = b; diff.bytes[i + 1] = g; diff.bytes[i + 2] = r; diff.bytes[i + 3] = 255
            }
        }
        return diff
    }

    /// The gap in pixels between the panels of ``sideBySide(_:gap:)``.
    package static let panelGap = 4

    /// The images left to right, top-aligned, `gap` pixels of opaque mid-grey between and
    /// below the shorter ones; the panels' pixels are copied unchanged.
    package static func sideBySide(_ panels: [PixelImage], gap: Int = panelGap) -> PixelImage {
        let width = panels.map(\.width).reduce(0, +) + gap * max(0, panels.count - 1)
        let height = panels.map(\.height).max() ?? 0
        var sheet = PixelImage(width: width, height: height)
        // Opaque grey, premultiplied ARGB32 (B, G, R, A bytes).
        for i in stride(from: 0, to: sheet.bytes.count, by: 4) {
            sheet.bytes[i] = 128; sheet.bytes[i + 1] = 128; sheet.bytes[i + 2] = 128; sheet.bytes[i + 3] = 255
        }
        var left = 0
        for panel in panels {
            let rowBytes = panel.width * 4
            for y in 0..<panel.height {
                let from = y * panel.stride, to = y * sheet.stride + left * 4
                sheet.bytes.replaceSubrange(to..<(to + rowBytes), with: panel.bytes[from..<(from + rowBytes)])
            }
            left += panel.width + gap
        }
        return sheet
    }
}
