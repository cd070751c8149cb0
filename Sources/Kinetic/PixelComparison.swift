import Foundation
import KineticCairo
import KineticGeometry

/// A decoded PNG compared pixel by pixel (the image snapshot's diff).
package struct PixelComparison {
    private let image: PixelImage
    package var width: Int { image.width }
    package var height: Int { image.height }

    /// Nil when `png` is not a PNG image.
    package init?(png: Data) {
        guard let image = try? CairoSurface.decodePNG(bytes: [UInt8](png)) else { return nil }
        self.image = image
    }

    /// How many pixels differ from `other`'s (of the same size) in any channel.
    package func differingPixels(from other: PixelComparison) -> Int {
        var count = 0
        for y in 0..<height {
            let a = y * image.stride, b = y * other.image.stride
            for x in 0..<width where image.bytes[(a + 4 * x)..<(a + 4 * x + 4)] != other.image.bytes[(b + 4 * x)..<(b + 4 * x + 4)] {
                count += 1
            }
        }
        return count
    }
}
