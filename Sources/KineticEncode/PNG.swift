import CPNG
import KineticCairo
import KineticFiles
import KineticGeometry

/// Writes frames as 8-bit PNG files: RGB when every pixel is opaque, else RGBA, the
/// pixels Cairo's PNG writer would write (un-premultiplied and rounded alike).
///
/// The bytes depend only on the pixels and libdeflate's version (no timestamps or other
/// metadata), so the same frame always gives the same file.
public enum PNGWriter {
    /// libdeflate's level for ``encode(_:)``. On 12 frames each of snow, rope, lock-screen
    /// and tvos-card, levels 2–5 deflated a frame in 5–8 ms (they cannot be told apart on a
    /// loaded machine), level 1 in 7–9 ms; level 4's files were 0.98–1.05× zlib level 6's
    /// (which took 11–17 ms), level 6's 0.95–0.98× in up to 1.2× level 4's time. zlib's
    /// levels 1 and 3 were as fast as level 4 for files 1.3–1.8× larger (issue 42;
    /// docs/outputs.md has the table).
    static let compressionLevel: Int32 = 4

    /// PNG bytes for `image`, every row filtered with Up and the whole image deflated by
    /// libdeflate at ``compressionLevel``. Cairo's writer (libpng's defaults: all five
    /// filters tried on every row) took 1.1–2.1× the time of Up alone for files 2–11 %
    /// smaller on those four scenes' frames; zlib at level 6 then spent 60 % of snow's
    /// PNG-frames CPU deflating (issue 42).
    /// - Throws: ``EncodeError/invalidImage(reason:)`` for an empty or oversized image.
    public static func encode(_ image: PixelImage) throws(EncodeError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 32767, image.height <= 32767,
              image.stride >= image.width * 4, image.bytes.count >= image.stride * image.height else {
            throw .invalidImage(reason: "cannot encode a \(image.width)×\(image.height) PNG")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = image.bytes.withUnsafeBufferPointer { pixels in
            kn_png_encode(pixels.baseAddress, image.stride, UInt32(image.width), UInt32(image.height),
                          compressionLevel, &out, &length)
        }
        guard status == 0, let out else {
            throw .invalidImage(reason: "out of memory encoding a \(image.width)×\(image.height) PNG")
        }
        defer { kn_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
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
