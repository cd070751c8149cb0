import KineticCairo
import KineticFiles
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
    /// The file goes through the guarded reader (a regular file of at most `maxBytes`,
    /// inside `root` when one is given) and its chunks are walked against its size before
    /// Cairo decodes it: a small file that claims a huge chunk or image costs nothing.
    public static func read(_ path: String, maxPixels: Int = 64_000_000, maxBytes: Int = 256 << 20,
                            root: String? = nil) throws(EncodeError) -> PixelImage {
        let bytes: [UInt8]
        do throws(FileProblem) {
            bytes = try PNGHeader.checkedBytes(of: path, maxPixels: maxPixels, maxBytes: maxBytes, root: root)
        } catch {
            throw .cannotRead(path: path, reason: error.reason)
        }
        do throws(CairoFailure) {
            return try CairoSurface.decodePNG(bytes: bytes)
        } catch {
            throw .cannotRead(path: path, reason: error.description)
        }
    }
}
