import KineticCairo
import KineticGeometry

/// Why an image asset could not be loaded.
public enum ImageCacheError: Error, Equatable, CustomStringConvertible {
    /// No readable file at the path.
    case missingFile(path: String)
    /// The file is not a PNG Cairo can decode.
    case unreadableImage(path: String, reason: String)

    public var description: String {
        switch self {
        case .missingFile(let path): "image asset not found: \(path)"
        case .unreadableImage(let path, let reason): "cannot read image \(path): \(reason)"
        }
    }
}

/// The image assets of a scene (layer `contents`), decoded once by resolved path.
///
/// Loading happens up front; afterwards the cache is read-only, so every render thread can
/// share it. It holds plain pixel values (not Cairo surfaces): each render call makes its
/// own surfaces from them, so no Cairo object is ever touched by two threads.
public struct ImageCache: Sendable {
    private var images: [String: PixelImage] = [:]

    /// An empty cache: layers with `contents` then draw no image.
    public init() {}

    /// Decodes every PNG at `paths` (resolved file paths, as `Layer.contents` holds them).
    /// - Throws: the first asset that is missing or not a decodable PNG.
    public init(loading paths: some Sequence<String>) throws(ImageCacheError) {
        for path in paths where images[path] == nil {
            images[path] = try Self.decode(path)
        }
    }

    /// The decoded image for `path`, nil when it was not loaded.
    public subscript(path: String) -> PixelImage? { images[path] }

    /// The loaded paths.
    public var paths: [String] { images.keys.sorted() }

    /// The decoded pixels' bytes, counted against the memory budget.
    public var byteCount: Int { images.values.reduce(0) { $0 + $1.bytes.count } }

    /// Through the project's one PNG decoder, which converts every PNG to premultiplied ARGB32.
    private static func decode(_ path: String) throws(ImageCacheError) -> PixelImage {
        do throws(CairoFailure) {
            return try CairoSurface.decodePNG(atPath: path)
        } catch {
            if error.isFileNotFound { throw .missingFile(path: path) }
            throw .unreadableImage(path: path, reason: error.description)
        }
    }
}
