import Foundation
import KineticEncode
import KineticGeometry

/// Frames side by side in one image: what an image snapshot of several times records.
package enum Filmstrip {
    /// `images` (of one size) left to right, in one PNG.
    package static func pngData(_ images: [PixelImage]) throws(FrameRenderError) -> Data {
        guard let first = images.first else { throw FrameRenderError(message: "a filmstrip needs at least one frame") }
        let rowBytes = first.width * 4
        var strip = PixelImage(width: first.width * images.count, height: first.height)
        for (i, image) in images.enumerated() {
            for y in 0..<image.height {
                let from = y * image.stride, to = y * strip.stride + i * rowBytes
                strip.bytes.replaceSubrange(to..<(to + rowBytes), with: image.bytes[from..<(from + rowBytes)])
            }
        }
        do { return Data(try PNGWriter.encode(strip)) } catch { throw FrameRenderError(message: "\(error)") }
    }
}

extension Scene {
    /// The frames at `frames` (ascending) side by side, as PNG.
    package func filmstripPNGData(atFrames frames: [Int]) throws(FrameRenderError) -> Data {
        try Filmstrip.pngData(images(atFrames: frames))
    }
}
