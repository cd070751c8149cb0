import KineticCairo
import KineticFiles
import KineticGeometry
import KineticRender

/// SVG `contents` as an embedded image: Lottie has no SVG, so the document is rasterized
/// through the renderer's librsvg wrapper (``RsvgDocument``), stretched to the pixel size
/// it is drawn at, and embedded as a PNG placed as PNG contents are.
struct VectorContents {
    /// The SVG's bytes, read once through the guarded reader.
    var bytes: [UInt8]
    /// The size in points the document draws at by itself (before `contentsGravity`).
    var size: Size

    /// The pixels of the plane the flattening places the document in, before the export
    /// knows the scale it is drawn at: one a point of its own size (rounded up).
    var plane: (width: Int, height: Int) { (Self.pixels(size.width), Self.pixels(size.height)) }

    /// Reads and parses the SVG at `path` as the renderer's image cache does.
    static func load(_ path: String, maxBytes: Int) throws(FileProblem) -> VectorContents {
        let bytes = try GuardedFile(path: path, maxBytes: maxBytes).readAll()
        let document: RsvgDocument
        do { document = try RsvgDocument(data: bytes) } catch {
            throw .unreadable(path: path, reason: "librsvg could not load the SVG: \(error.description)")
        }
        guard document.size.width > 0, document.size.height > 0, document.size.width.isFinite, document.size.height.isFinite else {
            throw .unreadable(path: path, reason: "the SVG has no size (no width and height, no viewBox)")
        }
        return VectorContents(bytes: bytes, size: document.size)
    }

    /// The raster size for a document whose plane pixels are drawn at most `scale` canvas
    /// points each (per axis): one pixel a canvas point where it is drawn largest, so a
    /// player drawing the composition at its size shows it one to one, within `maximumPixels`.
    func rasterSize(largestScale scale: (x: Double, y: Double), maximumPixels: Int) -> (width: Int, height: Int) {
        let (w, h) = plane
        func usable(_ k: Double) -> Double { k.isFinite && k > 0 ? k : 1 }
        var kx = usable(scale.x), ky = usable(scale.y)
        let area = Double(w) * kx * Double(h) * ky
        if area > Double(maximumPixels) {
            let shrink = (Double(maximumPixels) / area).squareRoot()
            kx *= shrink; ky *= shrink
        }
        return (Self.pixels(Double(w) * kx), Self.pixels(Double(h) * ky))
    }

    /// The PNG of the document stretched to `width` × `height` pixels, as the renderer
    /// draws it into a contents rect of that size; nil where Cairo fails (out of memory).
    func png(width: Int, height: Int) -> [UInt8]? {
        // Parsed again (it parsed once in `load`): a handle lives for one call.
        guard let document = try? RsvgDocument(data: bytes) else { return nil }
        let surface = CairoSurface.image(.argb32, width: width, height: height)
        guard (try? surface.check()) != nil else { return nil }
        do {
            let ctx = CairoContext(surface)
            document.draw(in: Rect(0, 0, Double(width), Double(height)), ctx: ctx)
        }
        return try? CairoSurface.encodePNG(PixelImage(width: width, height: height, stride: surface.stride, bytes: surface.bytes()))
    }

    /// A length in pixels: rounded up (less a hair of float error), at least one.
    private static func pixels(_ length: Double) -> Int {
        guard length.isFinite else { return 1 }
        return max(1, Int(min((length - 1e-6).rounded(.up), Double(1 << 20))))
    }
}
