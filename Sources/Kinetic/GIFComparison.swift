import Foundation
import KineticEncode

/// An animated GIF decoded with giflib and composited frame by frame as a browser shows
/// it (KineticEncode's `DecodedGIF`), for the `.gif` snapshot's diff: what differs is
/// reported per frame, not per byte.
package struct GIFComparison {
    package let width: Int
    package let height: Int
    /// The canvas after each frame, RGBA (alpha 0 where nothing was drawn).
    package let canvases: [[UInt8]]
    /// Each frame's delay in centiseconds.
    package let delays: [Int]

    /// Nil when `data` is not a GIF giflib reads.
    package init?(gif data: Data) {
        guard let decoded = try? DecodedGIF(bytes: [UInt8](data)) else { return nil }
        (width, height, canvases, delays) = (decoded.width, decoded.height, decoded.canvases, decoded.delays)
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
