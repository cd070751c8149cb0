import Foundation
import KineticGeometry
import KineticLayers

extension LayerRenderer {
    /// CALayer's shadow: the layer's alpha silhouette (or its `shadowPath`), blurred,
    /// tinted `shadowColor` × `shadowOpacity`, moved by `shadowOffset`. Offset and radius
    /// are in the layer's space, so they turn and scale with it.
    ///
    /// Core Animation's `shadowRadius` is the standard deviation of the Gaussian blur,
    /// σ = r (WebKit hands CSS drop-shadow's standard deviation to `shadowRadius` as is;
    /// docs/extensions.md has the evidence), approximated here by three box blurs on
    /// device pixels.
    func drawShadow(of layer: Layer, alpha: Double, in ctx: CairoContext) {
        let color = layer.shadowColor.multiplyingAlpha(min(layer.shadowOpacity, 1) * alpha)
        guard color.alpha > 0 else { return }
        let m = ctx.matrix
        let deviceScale = abs(m.a * m.d - m.b * m.c).squareRoot()
        let sigma = max(0, layer.shadowRadius) * deviceScale
        let offset = Point(m.a * layer.shadowOffset.width + m.c * layer.shadowOffset.height,
                           m.b * layer.shadowOffset.width + m.d * layer.shadowOffset.height)

        // Only the part whose shadow can land inside the current clip matters.
        let margin = (3 * sigma).rounded(.up) + 2
        ctx.save()
        ctx.matrix = (1, 0, 0, 1, 0, 0)
        let clip = ctx.clipExtents
        ctx.restore()
        // Record the silhouette in device space, bounded to that part: on an unbounded
        // recording a masked sublayer's group reports no ink (and cast no shadow).
        let reach = Rect(clip.0 - offset.x - margin, clip.1 - offset.y - margin,
                         clip.2 - clip.0 + 2 * margin, clip.3 - clip.1 + 2 * margin)
        let recording = CairoSurface.recording(alphaOnly: true, extents: reach)
        do {
            let rc = CairoContext(recording)
            rc.matrix = m
            if let path = layer.shadowPath {
                appendPath(path, to: rc)
                rc.setSource(.black)
                rc.fill()
            } else {
                // Projected sublayers need no more detail than the blur keeps.
                var silhouette = self
                silhouette.projectionDetail = 1 / max(1, sigma / 2)
                silhouette.drawBody(layer, alpha: 1, castsShadow: false, in: rc)
            }
        }
        // A bounded recording reports a group's whole extents as ink: measure it.
        let recorded = recording.inkExtents
        guard recorded.width > 0, recorded.height > 0, let ink = Self.measuredInk(of: recording, within: recorded) else {
            return
        }
        let x0 = max(ink.x, clip.0 - offset.x) - margin
        let y0 = max(ink.y, clip.1 - offset.y) - margin
        let x1 = min(ink.x + ink.width, clip.2 - offset.x) + margin
        let y1 = min(ink.y + ink.height, clip.3 - offset.y) + margin
        guard x1 > x0, y1 > y0 else { return }

        // A wide blur loses nothing at lower resolution: blur at most σ = 8 cells, one
        // cell `cell` device pixels, which keeps memory and time bounded for any radius.
        let cell = max(1, sigma / 8)
        let left = x0.rounded(.down), top = y0.rounded(.down)
        let width = Int(((x1 - left) / cell).rounded(.up)), height = Int(((y1 - top) / cell).rounded(.up))
        let silhouette = CairoSurface.image(.a8, width: width, height: height)
        do {
            let sc = CairoContext(silhouette)
            sc.scale(1 / cell, 1 / cell)
            sc.setSource(replaying: recording, x: -left, y: -top)
            sc.paint()
        }
        var bytes = silhouette.bytes()
        GaussianBlur.apply(to: &bytes, width: width, height: height, stride: silhouette.stride, sigma: sigma / cell)
        silhouette.replaceBytes(bytes, stride: silhouette.stride)

        ctx.save()
        ctx.matrix = (cell, 0, 0, cell, left + offset.x, top + offset.y)
        ctx.setSource(color)
        ctx.mask(silhouette, x: 0, y: 0)
        ctx.restore()
    }
}

/// A Gaussian blur of one-byte-per-pixel rows by three successive box blurs, each
/// horizontal then vertical: boxes of widths chosen so their combined variance is σ².
enum GaussianBlur {
    /// Odd box widths whose three variances (w² − 1) / 12 sum closest to σ².
    static func boxWidths(sigma: Double, passes n: Int = 3) -> [Int] {
        let ideal = (12 * sigma * sigma / Double(n) + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let l = Double(lower), nd = Double(n)
        // How many passes use the lower width.
        let mIdeal = (12 * sigma * sigma - nd * l * l - 4 * nd * l - 3 * nd) / (-4 * l - 4)
        let m = Int(mIdeal.rounded())
        return (0..<n).map { $0 < m ? lower : upper }
    }

    static func apply(to bytes: inout [UInt8], width: Int, height: Int, stride: Int, sigma: Double) {
        guard sigma > 0.2, width > 0, height > 0 else { return }
        // Float: the sums stay far below 2²⁴ × 255, so rounding error is ≪ one level.
        var buffer = bytes.map(Float.init)
        var scratch = buffer
        var sums = [Float](repeating: 0, count: width)
        for w in boxWidths(sigma: sigma) where w > 1 {
            let r = w / 2
            horizontalPass(&buffer, into: &scratch, width: width, height: height, stride: stride, radius: r)
            verticalPass(&scratch, into: &buffer, width: width, height: height, stride: stride, radius: r,
                         sums: &sums)
        }
        for i in bytes.indices { bytes[i] = UInt8(min(255, max(0, buffer[i] + 0.5))) }  // round half up
    }

    /// A running-sum box average along each row; samples past the ends count as zero
    /// (transparent), so the shadow fades beyond the edge.
    private static func horizontalPass(_ src: inout [Float], into dst: inout [Float], width: Int, height: Int,
                                       stride: Int, radius r: Int) {
        let scale = 1 / Float(2 * r + 1)
        src.withUnsafeBufferPointer { src in
            dst.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let base = y * stride
                    var sum: Float = 0
                    for i in 0..<min(r, width) { sum += src[base + i] }
                    for i in 0..<width {
                        let enter = i + r, leave = i - r - 1
                        if enter < width { sum += src[base + enter] }
                        if leave >= 0 { sum -= src[base + leave] }
                        dst[base + i] = sum * scale
                    }
                }
            }
        }
    }

    /// The same running sum down each column, kept for all columns at once and advanced a
    /// row at a time, so memory is read row by row (a column walk would touch one cache
    /// line per sample). Each column sees the same additions in the same order as a
    /// column walk would, so the result is identical.
    private static func verticalPass(_ src: inout [Float], into dst: inout [Float], width: Int, height: Int,
                                     stride: Int, radius r: Int, sums: inout [Float]) {
        let scale = 1 / Float(2 * r + 1)
        src.withUnsafeBufferPointer { src in
            dst.withUnsafeMutableBufferPointer { dst in
                sums.withUnsafeMutableBufferPointer { sums in
                    for x in 0..<width { sums[x] = 0 }
                    for i in 0..<min(r, height) {
                        let row = i * stride
                        for x in 0..<width { sums[x] += src[row + x] }
                    }
                    for i in 0..<height {
                        let enter = i + r, leave = i - r - 1
                        if enter < height {
                            let row = enter * stride
                            for x in 0..<width { sums[x] += src[row + x] }
                        }
                        if leave >= 0 {
                            let row = leave * stride
                            for x in 0..<width { sums[x] -= src[row + x] }
                        }
                        let row = i * stride
                        for x in 0..<width { dst[row + x] = sums[x] * scale }
                    }
                }
            }
        }
    }
}
