import KineticCairo
import KineticGeometry

/// Writes frames as 8-bit RGBA PNG files.
///
/// The bytes depend only on the pixels (no timestamps or other metadata), so the same
/// frame always gives the same file.
public enum PNGWriter {
    /// PNG bytes for `image`, un-premultiplied by Cairo.
    /// - Throws: ``EncodeError/invalidImage(reason:)`` for an empty or oversized image.
    public static func encode(_ image: PixelImage) throws(EncodeError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 32767, image.height <= 32767 else {
            throw .invalidImage(reason: "cannot encode a \(image.width)×\(image.height) PNG")
        }
        do throws(CairoFailure) { return try CairoSurface.encodePNG(image) } catch { throw .invalidImage(reason: "Cairo: \(error)") }
    }

    /// Writes `image` to `path` through an ``AtomicFile``: the file appears complete or
    /// not at all.
    /// - Throws: ``EncodeError/cannotWrite(path:reason:)`` when `path` cannot be written.
    public static func write(_ image: PixelImage, to path: String) throws(EncodeError) {
        try AtomicFile.write(encode(image), to: path)
    }
}

/// Reads PNG files (golden images, image assets) into premultiplied ARGB32 pixels.
public enum PNGReader {
    /// The PNG at `path` converted to ARGB32, whatever its colour type or bit depth.
    /// - Throws: ``EncodeError/cannotRead(path:reason:)`` if it is missing or not a PNG.
    public static func read(_ path: String) throws(EncodeError) -> PixelImage {
        do throws(CairoFailure) {
            return try CairoSurface.decodePNG(atPath: path)
        } catch {
            throw .cannotRead(path: path, reason: error.isFileNotFound ? "no such file" : error.description)
        }
    }
}
