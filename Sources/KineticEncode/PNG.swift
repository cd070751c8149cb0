import KineticGeometry

/// Writes frames as 8-bit RGBA PNG files.
///
/// The bytes depend only on the pixels (no timestamps or other metadata), so the same
/// frame always gives the same file.
public enum PNGWriter {
    /// PNG bytes for `image`, un-premultiplied by Cairo.
    /// - Throws: ``EncodeError/invalidImage(reason:)`` for an empty or oversized image.
    public static func encode(_ image: PixelImage) throws(EncodeError) -> [UInt8] {
        try CairoPNG.encode(image)
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
        try CairoPNG.decode(path: path)
    }
}
