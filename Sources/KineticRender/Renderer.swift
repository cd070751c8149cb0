import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

/// A vector file format `Renderer.renderVector` writes.
public enum VectorFormat: String, Sendable, CaseIterable {
    case svg, pdf
}

/// Why a frame could not be written.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// The output file could not be created or completed.
    case cannotWrite(path: String, reason: String)
    /// The frame's pixels could not be allocated.
    case outOfMemory(width: Int, height: Int)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .outOfMemory(let w, let h): "out of memory: cannot allocate a \(w)×\(h) px frame"
        }
    }
}

/// Rasterizes scene frames (presentation trees) with Cairo, as Core Animation
/// composites a layer tree.
///
/// A value with only immutable state: `render` may run on several threads at once, each
/// call drawing on its own surface and context.
public struct Renderer: Sendable {
    /// Pixels per point.
    public var scale: Double
    /// The decoded image assets layer `contents` name.
    public var images: ImageCache
    /// Overlays every layer's bounds and anchor point (`--debug`).
    public var debug: Bool
    /// Flat renderings of projected layers, reused by later frames (nil: none kept).
    public var flatRasters: FlatRasterCache?
    /// Blurred shadow silhouettes, reused by later frames (nil: none kept).
    public var shadows: ShadowCache?
    /// Blurred backdrops (`backgroundFilters`), reused by later frames (nil: none kept).
    public var backdrops: BackdropCache?
    /// Memory for the image surfaces a raster frame draws in and drops (a particle
    /// layer's buffer), handed on to later frames (nil: each allocated anew). Its limit
    /// is the frames drawn at once: one a worker (`SceneRenderer`).
    package var scratch: ScratchImages? = ScratchImages(limit: ProcessInfo.processInfo.activeProcessorCount)

    public init(scale: Double, images: ImageCache = ImageCache(), debug: Bool = false,
                flatRasters: FlatRasterCache? = FlatRasterCache(), shadows: ShadowCache? = ShadowCache(),
                backdrops: BackdropCache? = BackdropCache()) {
        self.scale = scale; self.images = images; self.debug = debug; self.flatRasters = flatRasters
        self.shadows = shadows; self.backdrops = backdrops
    }

    /// The canvas size in pixels for a frame of `size` points: size × scale, rounded.
    public func pixelSize(of size: Size) -> (width: Int, height: Int) {
        func px(_ v: Double) -> Int {
            let p = (v * scale).rounded()
            return p.isFinite && p > 0 ? Int(p) : 0
        }
        return (px(size.width), px(size.height))
    }

    /// The frame as premultiplied ARGB32 pixels, y down, antialiased; the same frame
    /// always gives the same bytes.
    public func render(_ frame: SceneFrame) -> PixelImage {
        (try? rasterize(frame)) ?? PixelImage(width: 0, height: 0)
    }

    /// ``render(_:)`` for outputs: a frame whose pixels cannot be allocated is an error,
    /// never a frame drawn without them. `reusing`: bytes of an earlier frame no longer
    /// needed, drawn over when they are this frame's size.
    public func rasterize(_ frame: SceneFrame, reusing buffer: consuming [UInt8]? = nil) throws(RenderError) -> PixelImage {
        let (width, height) = pixelSize(of: frame.size)
        // Drawn straight into the image's own bytes: no copy of the frame out of Cairo. An
        // opaque background is painted first over every pixel (``draw(_:in:)``).
        let opaque = LayerRenderer.backgroundPaintsEveryPixel(frame.background, size: frame.size, scale: scale,
                                                              pixels: (width, height))
        let image = try CairoSurface.drawingImage(width: width, height: height, paintsEveryPixel: opaque,
                                                  reusing: buffer) { (surface) throws(RenderError) in
            let ctx = CairoContext(surface)
            ctx.scale(scale, scale)
            draw(frame, scratch: scratch, in: ctx)
            if debug { DebugOverlay.draw(frame, in: ctx) }
            if ctx.isOutOfMemory { throw .outOfMemory(width: width, height: height) }
        }
        guard let image else { throw .outOfMemory(width: width, height: height) }
        return image
    }

    /// The frame as a vector file's bytes, one unit per point (`scale` does not apply).
    /// Shadows are embedded as bitmaps at one pixel per point. The caller writes them out
    /// (atomically); Cairo's status is checked after drawing and after finishing.
    /// - Throws: `RenderError.cannotWrite` (with `path` for the message) when Cairo fails.
    public func vectorData(_ frame: SceneFrame, format: VectorFormat, for path: String) throws(RenderError) -> [UInt8] {
        let sink = ByteSink()
        let surface = CairoSurface.vector(svg: format == .svg, width: max(frame.size.width, 0),
                                          height: max(frame.size.height, 0), into: sink)
        do {
            let ctx = CairoContext(surface)
            draw(frame, rasterDensity: 2, in: ctx)
            if ctx.isOutOfMemory { throw .cannotWrite(path: path, reason: "out of memory") }
        }
        surface.finish()
        do throws(CairoFailure) { try surface.check() } catch { throw .cannotWrite(path: path, reason: error.description) }
        if format == .pdf { sink.fixPDFDate() }
        return sink.bytes
    }

    /// Writes ``vectorData(_:format:for:)`` to `path` through a temporary file renamed
    /// into place (the CLI uses `AtomicFile`; this is for tests and tools).
    /// - Throws: `RenderError.cannotWrite` when the file cannot be created or completed.
    public func renderVector(_ frame: SceneFrame, format: VectorFormat, to path: String) throws(RenderError) {
        let bytes = try vectorData(frame, format: format, for: path)
        let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier).partial"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw .cannotWrite(path: path, reason: "cannot create the file")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// `rasterDensity`: pixels per device unit of what the renderer resamples itself
    /// (projected 3D layers, replicator colors) — 2 in vector files, whose unit is a point.
    /// `scratch`: where surfaces drawn and dropped take their memory (image targets only:
    /// a vector file's recording may keep a source surface past the frame).
    private func draw(_ frame: SceneFrame, rasterDensity: Double = 1, scratch: ScratchImages? = nil, in ctx: CairoContext) {
        let m = ctx.matrix
        let renderer = LayerRenderer(images: ImageSurfaces(images), rasterDensity: rasterDensity,
                                     deviceCanvas: (m.tx, m.ty, m.tx + m.a * frame.size.width, m.ty + m.d * frame.size.height),
                                     flatRasters: flatRasters, shadows: shadows, backdrops: backdrops, scratch: scratch)
        renderer.drawBackground(frame.background, size: frame.size, in: ctx)
        renderer.drawLayers(frame.layers, alpha: 1, in: ctx)
    }
}

/// Writes pixels as a PNG file (tests and debugging look at frames this way).
func writePNG(_ image: PixelImage, to path: String) throws {
    try CairoSurface.image(copying: image).writePNG(to: path)
}
