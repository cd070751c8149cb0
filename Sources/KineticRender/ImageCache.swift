import KineticCairo
import KineticFiles
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
/// share it. It holds plain values (not Cairo surfaces or librsvg handles): each render
/// call makes its own surfaces and documents from them, so no Cairo or librsvg object is
/// ever touched by two threads. PNGs are held as pixels, SVGs as their bytes (checked to
/// load), drawn as vector at whatever scale they are drawn.
public struct ImageCache: Sendable {
    private var images: [String: PixelImage] = [:]
    private var vectors: [String: VectorImage] = [:]

    /// A backstop on an SVG file's size: the loader held it to its asset policy
    /// (`AssetPolicy.maxSVGBytes`, 4 MiB by default); this keeps a file swapped since from
    /// being read whole whatever its size.
    static let maxSVGBytes = 64 << 20

    /// An SVG's bytes and the size in points it draws at by itself.
    struct VectorImage: Sendable {
        var bytes: [UInt8]
        var size: Size
    }

    /// An empty cache: layers with `contents` then draw no image.
    public init() {}

    /// Decodes every PNG and loads every SVG at `paths` (resolved file paths, as
    /// `Layer.contents` holds them).
    /// - Throws: the first asset that is missing, not a decodable PNG or an SVG librsvg
    ///   cannot load.
    public init(loading paths: some Sequence<String>) throws(ImageCacheError) {
        for path in paths where images[path] == nil && vectors[path] == nil {
            if path.lowercased().hasSuffix(".svg") {
                vectors[path] = try Self.load(path)
            } else {
                images[path] = try Self.decode(path)
            }
        }
    }

    /// The decoded image for `path`, nil when it was not loaded (or is an SVG).
    public subscript(path: String) -> PixelImage? { images[path] }

    /// The SVG at `path`, nil when it was not loaded (or is a PNG).
    func vector(_ path: String) -> VectorImage? { vectors[path] }

    /// The loaded paths.
    public var paths: [String] { (Array(images.keys) + Array(vectors.keys)).sorted() }

    /// The decoded pixels' and SVG files' bytes, counted against the memory budget.
    public var byteCount: Int {
        images.values.reduce(0) { $0 + $1.bytes.count } + vectors.values.reduce(0) { $0 + $1.bytes.count }
    }

    /// An SVG's bytes, loaded once by librsvg here so that a file it cannot read is
    /// reported before any frame is drawn.
    private static func load(_ path: String) throws(ImageCacheError) -> VectorImage {
        let bytes: [UInt8]
        do throws(FileProblem) {
            bytes = try GuardedFile(path: path, maxBytes: maxSVGBytes).readAll()
        } catch {
            if case .missing = error { throw .missingFile(path: path) }
            throw .unreadableImage(path: path, reason: error.reason)
        }
        do throws(RsvgFailure) {
            let document = try RsvgDocument(data: bytes)
            guard document.size.width > 0, document.size.height > 0 else {
                throw RsvgFailure(description: "the SVG has no size (no width and height, no viewBox)")
            }
            return VectorImage(bytes: bytes, size: document.size)
        } catch {
            throw .unreadableImage(path: path, reason: error.description)
        }
    }

    /// Through the guarded reader (the file may have changed since the loader checked it)
    /// and the project's one PNG decoder, which converts every PNG to premultiplied ARGB32.
    private static func decode(_ path: String) throws(ImageCacheError) -> PixelImage {
        let bytes: [UInt8]
        do throws(FileProblem) { bytes = try PNGHeader.checkedBytes(of: path) } catch {
            if case .missing = error { throw .missingFile(path: path) }
            throw .unreadableImage(path: path, reason: error.reason)
        }
        do throws(CairoFailure) {
            return try CairoSurface.decodePNG(bytes: bytes)
        } catch {
            throw .unreadableImage(path: path, reason: error.description)
        }
    }
}
