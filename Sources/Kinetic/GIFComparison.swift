import CGif
import Foundation

/// An animated GIF decoded with giflib and composited frame by frame as a browser shows
/// it (the `.gif` snapshot's diff): what differs is reported per frame, not per byte.
package struct GIFComparison {
    package let width: Int
    package let height: Int
    /// The canvas after each frame, RGBA (alpha 0 where nothing was drawn).
    package let canvases: [[UInt8]]
    /// Each frame's delay in centiseconds.
    package let delays: [Int]

    /// Nil when `data` is not a GIF giflib reads.
    package init?(gif data: Data) {
        let source = Source(bytes: [UInt8](data))
        var error: Int32 = 0
        // giflib pulls the bytes through `read`, which finds them through UserData.
        guard let gif = withExtendedLifetime(source, {
            DGifOpen(Unmanaged.passUnretained(source).toOpaque(), { file, buffer, count in
                guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
                return Unmanaged<Source>.fromOpaque(user).takeUnretainedValue().read(into: buffer, count: Int(count))
            }, &error)
        }) else { return nil }
        defer { DGifCloseFile(gif, &error) }
        guard DGifSlurp(gif) == GIF_OK else { return nil }
        width = Int(gif.pointee.SWidth)
        height = Int(gif.pointee.SHeight)
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var canvases: [[UInt8]] = [], delays: [Int] = []
        for i in 0..<Int(gif.pointee.ImageCount) {
            let image = gif.pointee.SavedImages[i]
            var control = GraphicsControlBlock()
            if DGifSavedExtensionToGCB(gif, Int32(i), &control) != GIF_OK { control.TransparentColor = NO_TRANSPARENT_COLOR }
            let d = image.ImageDesc
            guard let map = d.ColorMap ?? gif.pointee.SColorMap, d.Left >= 0, d.Top >= 0,
                  Int(d.Left + d.Width) <= width, Int(d.Top + d.Height) <= height else { return nil }
            let colors = Int(map.pointee.ColorCount)
            for y in 0..<Int(d.Height) {
                for x in 0..<Int(d.Width) {
                    let index = Int32(image.RasterBits[y * Int(d.Width) + x])
                    guard index != control.TransparentColor, index < colors else { continue }
                    let c = map.pointee.Colors[Int(index)]
                    let o = ((Int(d.Top) + y) * width + Int(d.Left) + x) * 4
                    canvas[o] = c.Red; canvas[o + 1] = c.Green; canvas[o + 2] = c.Blue; canvas[o + 3] = 255
                }
            }
            canvases.append(canvas)
            delays.append(Int(control.DelayTime))
            if control.DisposalMode == DISPOSE_BACKGROUND {
                for y in Int(d.Top)..<Int(d.Top + d.Height) {
                    canvas.replaceSubrange((y * width + Int(d.Left)) * 4..<(y * width + Int(d.Left + d.Width)) * 4,
                                           with: repeatElement(0, count: Int(d.Width) * 4))
                }
            }
        }
        self.canvases = canvases
        self.delays = delays
    }

    /// How the animation differs from `reference` (one line, the first difference that
    /// matters: size, frame count, timing, then the frames whose pixels differ), or nil
    /// when at least `precision` of every frame's pixels are equal.
    package func difference(from reference: GIFComparison, precision: Float) -> String? {
        guard width == reference.width, height == reference.height else {
            return "expected a \(reference.width)×\(reference.height) animation, got \(width)×\(height)"
        }
        guard canvases.count == reference.canvases.count else {
            return "expected \(reference.canvases.count) frames, got \(canvases.count)"
        }
        if let i = delays.indices.first(where: { delays[$0] != reference.delays[$0] }) {
            return "frame \(i) shows for \(delays[i]) cs, expected \(reference.delays[i]) cs"
        }
        let total = width * height
        var differing: [(frame: Int, pixels: Int)] = []
        for (i, (a, b)) in zip(canvases, reference.canvases).enumerated() where a != b {
            var count = 0
            for p in 0..<total where a[(p * 4)..<(p * 4 + 4)] != b[(p * 4)..<(p * 4 + 4)] { count += 1 }
            if Float(total - count) / Float(max(total, 1)) < precision { differing.append((i, count)) }
        }
        guard let first = differing.first, let most = differing.max(by: { $0.pixels < $1.pixels }) else { return nil }
        return "\(differing.count) of \(canvases.count) frames differ; the first, frame \(first.frame), "
            + "in \(first.pixels) of \(total) pixels; the most, frame \(most.frame), in \(most.pixels) (precision \(precision))"
    }

    /// The bytes giflib reads, with its position.
    private final class Source {
        let bytes: [UInt8]
        var offset = 0
        init(bytes: [UInt8]) { self.bytes = bytes }

        func read(into buffer: UnsafeMutablePointer<GifByteType>, count: Int) -> Int32 {
            let n = max(0, min(count, bytes.count - offset))
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { buffer.update(from: base + offset, count: n) }
            }
            offset += n
            return Int32(n)
        }
    }
}

extension Scene {
    /// The scene written as an animated GIF with `options`, as bytes.
    package func gifData(options: OutputOptions = OutputOptions()) throws(FrameRenderError) -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-\(UUID().uuidString).gif")
        defer { try? FileManager.default.removeItem(at: url) }
        try write(to: url, options: options)
        do { return try Data(contentsOf: url) } catch { throw FrameRenderError(message: "\(url.path): \(error)") }
    }
}
