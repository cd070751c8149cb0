import Foundation
import KineticFiles
import KineticGeometry
import KineticLayers
import KineticRender

/// A layer's `contents` as one embedded Lottie image asset: a PNG's bytes as read through
/// the guarded reader (as the renderer reads them), or an SVG's raster (``VectorContents``),
/// and its size in pixels.
struct ImageAsset {
    var id: String
    var width: Int
    var height: Int
    var bytes: [UInt8]

    /// The `assets` entry: the PNG inline as a data URI (`e: 1`), so the file plays alone.
    var json: LottieJSON {
        .object([("id", .string(id)), ("w", .number(Double(width))), ("h", .number(Double(height))), ("u", ""),
                 ("p", .string("data:image/png;base64," + Data(bytes).base64EncodedString())), ("e", 1)])
    }
}

/// Where a drawable is an image: the asset it shows. Its plane is the image's pixels
/// (the drawable's projection maps them onto the contents rect the gravity chooses).
struct ImageReference: Equatable {
    var id: String
    var width: Int
    var height: Int
    /// Whether a replicator's colours tint it (which an image layer cannot say).
    var tinted = false
    /// SVG contents: the document's own size in points (its plane, `width` × `height`,
    /// is rescaled to the raster's pixels when the document is written).
    var vectorSize: Size? = nil
}

/// Which layer contents the export maps, and the images it embeds.
enum ImageContents {
    /// The most pixels one embedded image may have.
    static let maximumPixels = 16_000_000

    /// Whether `layer`'s contents are exported as image layers: a PNG (whole, a part within
    /// the image, or nine-part stretched) or an SVG (rasterized, whole), not cross-fading,
    /// on a layer that paints nothing of its own over it (a plain layer).
    static func isMapped(_ layer: Layer) -> Bool {
        guard let path = layer.contents, layer.contentsCrossFade == nil else { return false }
        guard case .plain = layer.content else { return false }
        // The renderer draws an SVG whole, whatever its contentsRect (the part's map needs pixels).
        return (layer.contentsRect == unit || (!isVector(path) && isWithinImage(layer.contentsRect)))
            && (layer.contentsCenter == unit || !isVector(path))
    }

    /// What of `layer`'s contents is not mapped, one problem per key.
    static func problems(of layer: Layer, at path: String) -> [LottieProblem] {
        guard layer.contents != nil || layer.contentsCrossFade != nil else { return [] }
        var out: [LottieProblem] = []
        if layer.contentsCrossFade != nil {
            out.append(LottieProblem(keyPath: path + ".contents",
                                     message: "a cross-fade of contents (two images added together) is not exported"))
        }
        if layer.contents != nil, !isPlain(layer) {
            out.append(LottieProblem(keyPath: path + ".contents",
                                     message: "contents under a shape, gradient, text, replicator or emitter layer's own drawing are not exported"))
        }
        if layer.contentsRect != unit, let file = layer.contents, isVector(file) {
            out.append(LottieProblem(keyPath: path + ".contentsRect", message: "a part of SVG contents is not exported (only of a PNG)"))
        } else if layer.contentsRect != unit, !isWithinImage(layer.contentsRect) {
            out.append(LottieProblem(keyPath: path + ".contentsRect",
                                     message: "a contentsRect reaching past the image's edges is not exported (Core Animation repeats the edge pixels there)"))
        }
        if layer.contentsCenter != unit, let file = layer.contents, isVector(file) {
            out.append(LottieProblem(keyPath: path + ".contentsCenter", message: "nine-part stretching of SVG contents is not exported (only of a PNG)"))
        }
        return out
    }

    /// Reads the PNG at `path` through the guarded reader, its chunks walked before its
    /// bytes are read, as the renderer's image cache does.
    static func load(_ path: String, id: String, maxBytes: Int) throws(FileProblem) -> ImageAsset {
        let file = try GuardedFile(path: path, maxBytes: maxBytes)
        let header = try PNGHeader(checking: file, maxPixels: maximumPixels)
        return ImageAsset(id: id, width: header.width, height: header.height, bytes: try file.readAll())
    }

    /// Where an image's pixels go in its layer's bounds space, one piece per image layer:
    /// `map` stretches the part `contentsRect` selects (unit coordinates of the image; the
    /// whole image for an SVG) over the rect `contentsGravity` gives the part's size in
    /// points (its pixels over contentsScale; an SVG's own size, whatever the scale, as the
    /// renderer sizes it), and `clip` is that rect where the image reaches past it (a part),
    /// else nil. With `contentsCenter`, nine pieces: the renderer's ``ninePatches(source:center:scale:into:)``,
    /// each its pixels stretched over its rect and clipped to it (empty ones left out; `index`
    /// is the piece's place, 0…8 row by row, so a piece keeps its layer across frames).
    static func pieces(of layer: Layer, image: ImageReference) -> [(index: Int, map: PlaneProjection, clip: Rect?)] {
        guard let path = layer.contents, image.width > 0, image.height > 0 else { return [] }
        let scale = layer.contentsScale(for: path)
        guard scale > 0, scale.isFinite else { return [] }
        let w = Double(image.width), h = Double(image.height)
        let part = image.vectorSize == nil ? layer.contentsRect : unit
        let source = Rect(part.minX * w, part.minY * h, part.width * w, part.height * h)
        guard source.width > 0, source.height > 0 else { return [] }
        let size = image.vectorSize ?? Size(source.width / scale, source.height / scale)
        let rect = layer.contentsGravity.rect(forContentsOf: size, in: layer.bounds)
        guard rect.width > 0, rect.height > 0 else { return [] }
        func map(_ from: Rect, onto to: Rect) -> PlaneProjection {
            let sx = to.width / from.width, sy = to.height / from.height
            return PlaneProjection(affine: sx, 0, 0, sy, to.minX - from.minX * sx, to.minY - from.minY * sy)
        }
        guard image.vectorSize == nil, layer.contentsCenter != unit else {
            return [(0, map(source, onto: rect), part == unit ? nil : rect)]
        }
        return ninePatches(source: source, center: layer.contentsCenter, scale: scale, into: rect)
            .enumerated()
            .filter { $0.element.0.width > 0 && $0.element.0.height > 0 && $0.element.1.width > 0 && $0.element.1.height > 0 }
            .map { ($0.offset, map($0.element.0, onto: $0.element.1), $0.element.1) }
    }

    /// Whether a contentsRect selects pixels of the image only (none of the edge pixels
    /// Core Animation repeats beyond it), with an area.
    static func isWithinImage(_ part: Rect) -> Bool {
        part.width > 0 && part.height > 0 && part.minX >= 0 && part.minY >= 0 && part.maxX <= 1 && part.maxY <= 1
    }

    private static let unit = Rect(0, 0, 1, 1)
    static func isVector(_ path: String) -> Bool { path.lowercased().hasSuffix(".svg") }
    private static func isPlain(_ layer: Layer) -> Bool { if case .plain = layer.content { true } else { false } }
}
