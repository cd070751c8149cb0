import CCairo
import CComposite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KineticGeometry

// The one thin wrapper over Cairo: every cairo_* call and C pointer of the project lives
// in this file (the renderer draws through it, the encoders read and write PNG through
// it; Pango.swift hands `CairoContext.raw` to pango_cairo). Each object owns one Cairo
// reference and releases it in `deinit`; none is shared between threads (every render
// call builds its own).

/// A Cairo failure, with Cairo's own description.
package struct CairoFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ status: cairo_status_t) {
        description = String(cString: cairo_status_to_string(status))
    }
}

/// A 2D affine map in CGAffineTransform's order: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
package typealias Affine = (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)

package enum SurfaceFormat {
    /// Premultiplied ARGB, 32 bits a pixel (what `PixelImage` holds).
    case argb32
    /// Alpha only, 8 bits a pixel (shadow silhouettes).
    case a8

    package var cairo: cairo_format_t { self == .argb32 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_A8 }
    package var bytesPerPixel: Int { self == .argb32 ? 4 : 1 }
}

/// The bytes a stream surface writes, collected in memory.
/// Bytes Cairo reads a PNG from, and how far it has read.
package final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

package final class ByteSink {
    package var bytes: [UInt8] = []
    package init() {}
    /// The creation date written into PDFs (Cairo would write the current time).
    package static let fixedDate = "2000-01-01T00:00:00Z"

    /// Cairo 1.16 writes a set date without the `D:` a PDF date starts with; the same
    /// date to the minute, `D:` included, has the same length, so the offsets stay right.
    package func fixPDFDate() {
        let written = Array("/CreationDate (20000101000000Z)".utf8), fixed = Array("/CreationDate (D:200001010000Z)".utf8)
        guard written.count == fixed.count, let start = bytes.firstRange(of: written)?.lowerBound else { return }
        bytes.replaceSubrange(start..<(start + written.count), with: fixed)
    }
}

/// An owned cairo_surface_t.
package final class CairoSurface {
    package let raw: OpaquePointer

    private init(raw: OpaquePointer) { self.raw = raw }
    /// Holds a reference of its own to a surface Cairo lends (a group target).
    fileprivate convenience init(borrowing raw: OpaquePointer) { self.init(raw: cairo_surface_reference(raw)) }
    deinit { cairo_surface_destroy(raw) }

    /// A cleared image surface.
    package static func image(_ format: SurfaceFormat, width: Int, height: Int) -> CairoSurface {
        CairoSurface(raw: cairo_image_surface_create(format.cairo, Int32(clamping: width), Int32(clamping: height)))
    }

    /// Bytes a row of a `format` image `width` pixels wide takes (Cairo's stride; -1 when
    /// the width is over Cairo's limit).
    package static func stride(_ format: SurfaceFormat, width: Int) -> Int {
        Int(cairo_format_stride_for_width(format.cairo, Int32(clamping: width)))
    }

    /// An image surface drawing in `memory` (at least `stride × height` bytes, as the
    /// caller left them), lent to `body` and finished when it returns, so nothing reads or
    /// draws the memory after (``ScratchImages``).
    static func image<R>(_ format: SurfaceFormat, width: Int, height: Int, stride: Int, over memory: UnsafeMutableRawPointer,
                         _ body: (CairoSurface) throws -> R) rethrows -> R {
        let s = CairoSurface(raw: cairo_image_surface_create_for_data(memory.assumingMemoryBound(to: UInt8.self), format.cairo,
                                                                      Int32(clamping: width), Int32(clamping: height),
                                                                      Int32(clamping: stride)))
        defer { cairo_surface_finish(s.raw) }
        return try body(s)
    }

    /// An image surface over `bytes` themselves, not a copy, for `body` to read from (a
    /// mask or source, never a target); it is finished when `body` returns, so nothing
    /// reads the bytes after. Rows that do not match Cairo's stride are copied instead.
    package static func reading(_ format: SurfaceFormat, bytes: [UInt8], width: Int, height: Int, stride: Int,
                                _ body: (CairoSurface) -> Void) {
        let w = Int32(clamping: width), h = Int32(clamping: height)
        guard width > 0, height > 0, stride == Int(cairo_format_stride_for_width(format.cairo, w)),
              bytes.count >= stride * height else {
            let s = CairoSurface.image(format, width: width, height: height)
            s.replaceBytes(bytes, stride: stride)
            body(s)
            return
        }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Cairo only reads a source's pixels, so lending immutable bytes is safe.
            let s = CairoSurface(raw: cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: base), format.cairo,
                                                                          w, h, Int32(stride)))
            body(s)
            cairo_surface_finish(s.raw)
        }
    }

    /// A cleared ARGB32 image surface drawing straight into the bytes of the image it
    /// returns, so a frame is not copied out of Cairo once drawn; it is finished when `body`
    /// returns, so nothing draws into the bytes after. nil when the pixels cannot be
    /// allocated: they are allocated by `malloc` first, which fails where Swift's
    /// allocation would stop the program.
    ///
    /// `paintsEveryPixel`: `body` sets every pixel whatever was there (its first act paints
    /// the whole surface opaquely: an opaque colour or gradient), so the surface is not
    /// cleared first — a 4 MB memset a frame at 750 × 1334, 6 % of a dynamics scene's GIF
    /// render (issue 15).
    ///
    /// `reusing`: an earlier frame's bytes to draw into when they are the size needed (a
    /// render's ``FrameBufferPool``), so no fresh pages are faulted in for the frame.
    package static func drawingImage<E: Error>(width: Int, height: Int, paintsEveryPixel: Bool = false,
                                               reusing buffer: consuming [UInt8]? = nil,
                                               _ body: (CairoSurface) throws(E) -> Void) throws(E) -> PixelImage? {
        guard width >= 0, height >= 0, width <= Int(Int32.max), height <= Int(Int32.max) else { return nil }
        // Cairo's size limits, asked of empty surfaces before anything is allocated.
        guard (try? image(.argb32, width: width, height: 0).check()) != nil,
              (try? image(.argb32, width: 0, height: height).check()) != nil else { return nil }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        let (count, overflow) = stride.multipliedReportingOverflow(by: height)
        guard stride >= 0, !overflow else { return nil }
        var bytes: [UInt8]
        if var reused = buffer.take(), reused.count == count {
            if !paintsEveryPixel { reused.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            bytes = reused
        } else {
            if count > 0 {
                guard let probe = malloc(count) else { return nil }
                free(probe)
            }
            bytes = paintsEveryPixel
                ? [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
                : [UInt8](repeating: 0, count: count)
        }
        let drawn = try bytes.withUnsafeMutableBufferPointer { (buffer) throws(E) -> Bool in
            // No pixels (an empty frame): Cairo allocates its own none.
            let surface = CairoSurface(raw: cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32,
                                                                                Int32(width), Int32(height), Int32(stride)))
            defer { cairo_surface_finish(surface.raw) }
            guard (try? surface.check()) != nil else { return false }
            try body(surface)
            return true
        }
        return drawn ? PixelImage(width: width, height: height, stride: stride, bytes: bytes) : nil
    }

    /// An ARGB32 image surface holding a copy of `image`'s pixels.
    package static func image(copying image: PixelImage) -> CairoSurface {
        let s = CairoSurface.image(.argb32, width: image.width, height: image.height)
        s.replaceBytes(image.bytes, stride: image.stride)
        return s
    }

    /// The PNG in `bytes` (read through the guarded reader: `PNGHeader.checkedBytes`) as
    /// premultiplied ARGB32 pixels, whatever its colour type or bit depth: the project's
    /// one PNG decoder (image assets, golden frames, `encode`'s frames).
    package static func decodePNG(bytes: [UInt8]) throws(CairoFailure) -> PixelImage {
        let source = ByteSource(bytes)
        let raw = cairo_image_surface_create_from_png_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
            let count = Int(length)
            guard source.offset + count <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
            source.bytes.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { data.update(from: base + source.offset, count: count) }
            }
            source.offset += count
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(source).toOpaque())
        guard let raw else { throw CairoFailure(CAIRO_STATUS_NO_MEMORY) }
        return try withExtendedLifetime(source) { () throws(CairoFailure) -> PixelImage in try converted(CairoSurface(raw: raw)) }
    }

    /// `loaded` (any format Cairo loads a PNG as) as premultiplied ARGB32 pixels.
    private static func converted(_ loaded: CairoSurface) throws(CairoFailure) -> PixelImage {
        try loaded.check()
        // Painting with OPERATOR_SOURCE onto an ARGB32 surface converts any format Cairo
        // loaded (RGB24 for opaque PNGs, A8, …) to premultiplied ARGB32.
        let target = CairoSurface.image(.argb32, width: loaded.width, height: loaded.height)
        try target.check()
        do {
            let ctx = CairoContext(target)
            ctx.setReplacing()
            ctx.setSource(replaying: loaded, x: 0, y: 0)
            ctx.paint()
            let drawn = cairo_status(ctx.raw)
            guard drawn == CAIRO_STATUS_SUCCESS else { throw CairoFailure(drawn) }
        }
        return PixelImage(width: target.width, height: target.height, stride: target.stride, bytes: target.bytes())
    }

    /// PNG bytes of `image` (premultiplied ARGB32, rows 4-byte aligned); Cairo
    /// un-premultiplies while writing, and writes no timestamp.
    package static func encodePNG(_ image: PixelImage) throws(CairoFailure) -> [UInt8] {
        let surface = CairoSurface.image(copying: image)
        try surface.check()
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(surface.raw, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes
                .append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoFailure(status) }
        return sink.bytes
    }

    /// An unbounded recording surface: records drawing to measure its ink and replay it.
    /// A recording surface; `extents` bounds it (device units). Masks and groups need
    /// bounded extents: on an unbounded recording Cairo reports no ink for them.
    package static func recording(alphaOnly: Bool, extents: Rect? = nil) -> CairoSurface {
        let content = alphaOnly ? CAIRO_CONTENT_ALPHA : CAIRO_CONTENT_COLOR_ALPHA
        guard let r = extents else { return CairoSurface(raw: cairo_recording_surface_create(content, nil)) }
        var box = cairo_rectangle_t(x: r.minX, y: r.minY, width: r.width, height: r.height)
        return CairoSurface(raw: cairo_recording_surface_create(content, &box))
    }

    /// A vector surface writing to `path`, `width`×`height` points.
    /// A vector surface writing its file into `sink` (the caller writes the bytes out
    /// atomically). A PDF's creation and modification dates are fixed, so the same frame
    /// always gives the same bytes.
    package static func vector(svg: Bool, width: Double, height: Double, into sink: ByteSink) -> CairoSurface {
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes
                .append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        let surface = CairoSurface(raw: svg ? cairo_svg_surface_create_for_stream(write, closure, width, height)
                                            : cairo_pdf_surface_create_for_stream(write, closure, width, height))
        surface.sink = sink
        if !svg { cairo_pdf_surface_set_metadata(surface.raw, CAIRO_PDF_METADATA_CREATE_DATE, ByteSink.fixedDate) }
        return surface
    }
    /// Keeps a stream surface's sink alive as long as the surface.
    private var sink: ByteSink?

    package var width: Int { Int(cairo_image_surface_get_width(raw)) }
    package var height: Int { Int(cairo_image_surface_get_height(raw)) }
    package var stride: Int { Int(cairo_image_surface_get_stride(raw)) }

    /// The surface's status, thrown when it is an error.
    package func check() throws(CairoFailure) {
        let status = cairo_surface_status(raw)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoFailure(status) }
    }

    /// Ends drawing and writes out a vector surface.
    package func finish() { cairo_surface_finish(raw) }

    /// The bounding box of everything drawn on a recording surface, in its device space.
    package var inkExtents: (x: Double, y: Double, width: Double, height: Double) {
        var x = 0.0, y = 0.0, w = 0.0, h = 0.0
        cairo_recording_surface_ink_extents(raw, &x, &y, &w, &h)
        return (x, y, w, h)
    }

    /// A copy of an image surface's pixel rows (`stride` bytes each).
    package func bytes() -> [UInt8] {
        cairo_surface_flush(raw)
        let count = stride * height
        guard count > 0, let data = cairo_image_surface_get_data(raw) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// An image surface's pixel rows with everything that says how drawing reads them;
    /// nil for any other surface (a recording) and for rows beyond `maxBytes`.
    package func snapshot(maxBytes: Int) -> SurfaceSnapshot? {
        guard cairo_surface_get_type(raw) == CAIRO_SURFACE_TYPE_IMAGE, stride * height <= maxBytes else { return nil }
        var sx = 0.0, sy = 0.0, ox = 0.0, oy = 0.0
        cairo_surface_get_device_scale(raw, &sx, &sy)
        cairo_surface_get_device_offset(raw, &ox, &oy)
        let format = Double(cairo_image_surface_get_format(raw).rawValue)
        return SurfaceSnapshot(layout: [format, Double(width), Double(height), Double(stride), sx, sy, ox, oy],
                               bytes: bytes())
    }

    /// Overwrites an image surface's pixels with `bytes` laid out `stride` bytes a row.
    package func replaceBytes(_ bytes: [UInt8], stride source: Int) {
        cairo_surface_flush(raw)
        guard let data = cairo_image_surface_get_data(raw) else { return }
        let rowBytes = min(source, stride)
        bytes.withUnsafeBufferPointer { src in
            guard let base = src.baseAddress else { return }
            let rows = source > 0 ? min(height, src.count / source) : 0
            for row in 0..<rows {
                (data + row * stride).update(from: base + row * source, count: rowBytes)
            }
        }
        cairo_surface_mark_dirty(raw)
    }

    /// Lends an image surface's pixel rows (`stride` bytes each) for reading and writing in
    /// place (a shadow's blur). Does nothing on a surface without pixel data.
    package func withBytes(_ body: (UnsafeMutableBufferPointer<UInt8>, _ stride: Int) -> Void) {
        cairo_surface_flush(raw)
        guard let data = cairo_image_surface_get_data(raw) else { return }
        body(UnsafeMutableBufferPointer(start: data, count: stride * height), stride)
        cairo_surface_mark_dirty(raw)
    }

    /// Lends an image surface's ARGB32 pixels (rows `stride / 4` words apart) for direct
    /// writing — the particle compositor draws sprites this way, far faster than one Cairo
    /// call per particle. Does nothing on a surface without pixel data.
    package func withPixels(_ body: (UnsafeMutablePointer<UInt32>, _ wordsPerRow: Int) -> Void) {
        withBytes { bytes, stride in
            guard let base = bytes.baseAddress else { return }
            base.withMemoryRebound(to: UInt32.self, capacity: bytes.count / 4) { body($0, stride / 4) }
        }
    }

    /// Writes an image surface as PNG (debugging and contact sheets).
    package func writePNG(to path: String) throws(CairoFailure) {
        let status = cairo_surface_write_to_png(raw, path)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoFailure(status) }
    }
}

/// An image surface as drawing from it sees it: format, size, stride, device scale and
/// offset (`layout`), and its pixel rows. Equal snapshots read as the same source.
package struct SurfaceSnapshot: Equatable, Sendable {
    package let layout: [Double]
    package let bytes: [UInt8]

    // Byte for byte with libc's vectorized memcmp: a snapshot is a whole frame.
    package static func == (a: Self, b: Self) -> Bool {
        guard a.layout == b.layout, a.bytes.count == b.bytes.count else { return false }
        return a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                return memcmp(p, q, x.count) == 0
            }
        }
    }
}

/// An owned cairo_pattern_t: gradients, mesh patches, groups.
package final class CairoPattern {
    package let raw: OpaquePointer

    package init(raw: OpaquePointer) { self.raw = raw }
    deinit { cairo_pattern_destroy(raw) }

    package static func linear(from p0: Point, to p1: Point) -> CairoPattern {
        CairoPattern(raw: cairo_pattern_create_linear(p0.x, p0.y, p1.x, p1.y))
    }

    /// A radial pattern between two circles.
    package static func radial(center: Point, innerRadius r0: Double, outerRadius r1: Double) -> CairoPattern {
        CairoPattern(raw: cairo_pattern_create_radial(center.x, center.y, r0, center.x, center.y, r1))
    }

    package static func mesh() -> CairoPattern { CairoPattern(raw: cairo_pattern_create_mesh()) }

    package func addColorStop(_ offset: Double, _ color: Color) {
        cairo_pattern_add_color_stop_rgba(raw, offset, color.red, color.green, color.blue, color.alpha)
    }

    /// Paints beyond the ends with the end colors, as Core Graphics' extended gradients.
    package func extendPad() { cairo_pattern_set_extend(raw, CAIRO_EXTEND_PAD) }

    /// Sets the pattern-space-from-user-space matrix.
    package func setMatrix(_ m: Affine) {
        var cm = cairo_matrix_t()
        cairo_matrix_init(&cm, m.a, m.b, m.c, m.d, m.tx, m.ty)
        cairo_pattern_set_matrix(raw, &cm)
    }

    /// Adds a four-sided patch with straight sides p0→p1→p2→p3 and one color a corner.
    package func addPatch(_ corners: [(Point, Color)]) {
        guard corners.count == 4 else { return }
        cairo_mesh_pattern_begin_patch(raw)
        cairo_mesh_pattern_move_to(raw, corners[0].0.x, corners[0].0.y)
        for (p, _) in corners.dropFirst() { cairo_mesh_pattern_line_to(raw, p.x, p.y) }
        for (i, (_, c)) in corners.enumerated() {
            cairo_mesh_pattern_set_corner_color_rgba(raw, UInt32(i), c.red, c.green, c.blue, c.alpha)
        }
        cairo_mesh_pattern_end_patch(raw)
    }
}

/// An owned cairo_t drawing on one surface.
package final class CairoContext {
    package let raw: OpaquePointer
    /// Keeps the target alive as long as the context.
    package let surface: CairoSurface

    package init(_ surface: CairoSurface) {
        self.surface = surface
        raw = cairo_create(surface.raw)
        cairo_set_antialias(raw, CAIRO_ANTIALIAS_DEFAULT)
    }
    deinit { cairo_destroy(raw) }

    package func save() { cairo_save(raw) }
    package func restore() { cairo_restore(raw) }

    // MARK: Coordinates

    package func translate(_ x: Double, _ y: Double) { transform((1, 0, 0, 1, x, y)) }
    package func scale(_ sx: Double, _ sy: Double) { transform((sx, 0, 0, sy, 0, 0)) }

    /// Whether Cairo ran out of memory while drawing (an image it could not allocate then
    /// draws nothing: the frame must not be used).
    package var isOutOfMemory: Bool { cairo_status(raw) == CAIRO_STATUS_NO_MEMORY }

    /// The largest device scale a drawing may have: Cairo's fixed-point device coordinates
    /// end at ±2²³ px, and past this its arcs take unbounded time (a layer scaled by 1e40
    /// with a corner radius ran for minutes). Such a layer is not drawn.
    package static let largestDeviceScale = 8_388_608.0

    /// Applies `m` to user space (the new user space maps through `m` into the old one).
    /// Returns false, changing nothing, for a map that is not finite and invertible: Cairo
    /// would put the whole context in a permanent error state, and such a map draws
    /// nothing anyway (a layer scaled to 0 has no area); and for one that scales past
    /// ``largestDeviceScale``.
    @discardableResult
    package func transform(_ m: Affine) -> Bool {
        let det = m.a * m.d - m.b * m.c
        guard det.isFinite, det != 0, m.tx.isFinite, m.ty.isFinite else { return false }
        // The new device map's linear part, m then the current one: no entry past the limit.
        // Checked one by one, not as an array: an allocation for every layer drawn.
        let c = matrix, limit = Self.largestDeviceScale
        guard abs(m.a * c.a + m.b * c.c) <= limit, abs(m.a * c.b + m.b * c.d) <= limit,
              abs(m.c * c.a + m.d * c.c) <= limit, abs(m.c * c.b + m.d * c.d) <= limit else { return false }
        var cm = cairo_matrix_t()
        cairo_matrix_init(&cm, m.a, m.b, m.c, m.d, m.tx, m.ty)
        cairo_transform(raw, &cm)
        return cairo_status(raw) == CAIRO_STATUS_SUCCESS
    }

    /// The current user-to-device matrix.
    package var matrix: Affine {
        get {
            var cm = cairo_matrix_t()
            cairo_get_matrix(raw, &cm)
            return (cm.xx, cm.yx, cm.xy, cm.yy, cm.x0, cm.y0)
        }
        set {
            var cm = cairo_matrix_t()
            cairo_matrix_init(&cm, newValue.a, newValue.b, newValue.c, newValue.d, newValue.tx, newValue.ty)
            cairo_set_matrix(raw, &cm)
        }
    }

    /// The clip's bounding box in user space (x1, y1, x2, y2).
    package var clipExtents: (Double, Double, Double, Double) {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(raw, &x1, &y1, &x2, &y2)
        return (x1, y1, x2, y2)
    }

    // MARK: Paths

    package func newPath() { cairo_new_path(raw) }
    package func move(to p: Point) { cairo_move_to(raw, p.x, p.y) }
    package func line(to p: Point) { cairo_line_to(raw, p.x, p.y) }
    package func curve(to p: Point, _ c1: Point, _ c2: Point) { cairo_curve_to(raw, c1.x, c1.y, c2.x, c2.y, p.x, p.y) }
    package func closePath() { cairo_close_path(raw) }

    /// The current path in user space, curves kept (glyph outlines for a Lottie export).
    package func copyPath() -> BezierPath {
        var path = BezierPath()
        guard let copy = cairo_copy_path(raw) else { return path }
        defer { cairo_path_destroy(copy) }
        guard copy.pointee.status == CAIRO_STATUS_SUCCESS, let data = copy.pointee.data else { return path }
        var i = 0
        let count = Int(copy.pointee.num_data)
        func point(_ k: Int) -> Point { Point(data[i + k].point.x, data[i + k].point.y) }
        while i < count {
            let header = data[i].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO: path.move(to: point(1))
            case CAIRO_PATH_LINE_TO: path.addLine(to: point(1))
            case CAIRO_PATH_CURVE_TO: path.addCurve(to: point(3), control1: point(1), control2: point(2))
            case CAIRO_PATH_CLOSE_PATH: path.close()
            default: break
            }
            i += Int(max(header.length, 1))
        }
        return path
    }
    package func rectangle(_ r: Rect) { cairo_rectangle(raw, r.minX, r.minY, r.width, r.height) }
    package func arc(center: Point, radius: Double, from a0: Double, to a1: Double) {
        cairo_arc(raw, center.x, center.y, radius, a0, a1)
    }

    // MARK: Drawing state

    /// Turns off font hinting and metric rounding, so text lays out the same at every
    /// scale and on every thread (Pango reads these from the context).
    package func disableFontHinting() {
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(raw, options)
        cairo_font_options_destroy(options)
    }

    package func setSource(_ c: Color) { cairo_set_source_rgba(raw, c.red, c.green, c.blue, c.alpha) }
    package func setSource(_ p: CairoPattern) { cairo_set_source(raw, p.raw) }

    /// Uses an image as the source at (x, y), filtered GOOD (or NEAREST: each device
    /// pixel takes the image pixel it falls in) and padded at its edges.
    package func setSource(_ s: CairoSurface, x: Double, y: Double, nearest: Bool = false) {
        cairo_set_source_surface(raw, s.raw, x, y)
        let p = cairo_get_source(raw)
        cairo_pattern_set_filter(p, nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD)
    }

    package func setEvenOddFill(_ evenOdd: Bool) {
        cairo_set_fill_rule(raw, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    /// Antialiased (Cairo's default) or not: a pixel whole when its centre is inside.
    package func setAntialias(_ on: Bool) { cairo_set_antialias(raw, on ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE) }

    package func setLineWidth(_ w: Double) { cairo_set_line_width(raw, w) }
    package func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(raw, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(raw, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(raw, CAIRO_LINE_CAP_SQUARE)
        }
    }
    package func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(raw, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(raw, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(raw, CAIRO_LINE_JOIN_BEVEL)
        }
    }
    package func setMiterLimit(_ limit: Double) { cairo_set_miter_limit(raw, limit) }
    /// An empty pattern turns dashing off. The caller keeps Cairo's rules (no negative
    /// length, not all zero), which would otherwise put the context in an error state.
    package func setDash(_ pattern: [Double], phase: Double) {
        cairo_set_dash(raw, pattern, Int32(pattern.count), phase)
    }

    // MARK: Operations

    package func fill(preserve: Bool = false) { preserve ? cairo_fill_preserve(raw) : cairo_fill(raw) }
    package func stroke() { cairo_stroke(raw) }
    package func clip() { cairo_clip(raw) }
    package func paint(alpha: Double = 1) { alpha >= 1 ? cairo_paint(raw) : cairo_paint_with_alpha(raw, alpha) }
    package func mask(_ p: CairoPattern) { cairo_mask(raw, p.raw) }
    package func mask(_ s: CairoSurface, x: Double, y: Double) { cairo_mask_surface(raw, s.raw, x, y) }

    /// Paints `color` through the A8 image `mask` (OVER), the image's pixel (0, 0) at
    /// device (`x`, `y`) and each of its pixels `cell` device pixels wide, only on the
    /// whole device pixels of `within` (all of the image when nil) that are not in
    /// `except`; both boxes are whole device pixels (x0, y0, x1, y1). A blurred shadow is
    /// painted so from its cached silhouette every frame.
    ///
    /// The bits are Cairo's, masking under that region clip. Where the image lands at its
    /// own resolution on whole pixels of an ARGB32 image, and the processor has AVX2,
    /// CComposite's loops paint the clip's boxes: 2–3 times as fast as pixman's SSE2
    /// (docs/extensions.md). `direct: false` leaves it to Cairo (tests compare the two).
    package func paint(_ color: Color, through mask: CairoSurface, x: Double, y: Double, cell: Double,
                       within: PixelBox?, except: PixelBox?, direct: Bool = true) {
        save()
        defer { restore() }
        let wholePixels = direct && cell == 1 && x.rounded() == x && y.rounded() == y && abs(x) < 0x1p30 && abs(y) < 0x1p30
        // The direct paint reads the clip as boxes, so it clips to the image at least: an
        // unclipped context lists none.
        if within != nil || except != nil || wholePixels {
            // A pixel-aligned even-odd ring is a region clip: Cairo composites its boxes only.
            matrix = (1, 0, 0, 1, 0, 0)
            newPath()
            // In doubles: a layer far off may place its image beyond Int's range.
            let outer: (x0: Double, y0: Double, x1: Double, y1: Double) = within.map {
                (Double($0.x0), Double($0.y0), Double($0.x1), Double($0.y1))
            } ?? (x.rounded(.down), y.rounded(.down), (x + Double(mask.width) * cell).rounded(.up),
                  (y + Double(mask.height) * cell).rounded(.up))
            rectangle(Rect(outer.x0, outer.y0, outer.x1 - outer.x0, outer.y1 - outer.y0))
            // The hole within the outer box, or even-odd would paint what lies outside it.
            if let except {
                let x0 = max(Double(except.x0), outer.x0), y0 = max(Double(except.y0), outer.y0)
                let x1 = min(Double(except.x1), outer.x1), y1 = min(Double(except.y1), outer.y1)
                if x1 > x0, y1 > y0 { rectangle(Rect(x0, y0, x1 - x0, y1 - y0)) }
            }
            setEvenOddFill(true)
            clip()
        }
        if wholePixels, paintDirectly(color, through: mask, x: Int(x), y: Int(y)) { return }
        matrix = (cell, 0, 0, cell, x, y)
        setSource(color)
        cairo_mask_surface(raw, mask.raw, 0, 0)
    }

    /// Paints the clip's boxes as ``paint(_:through:x:y:cell:within:except:direct:)`` does,
    /// the image at whole pixels, by CComposite's loops straight into the target's pixels;
    /// false, having drawn nothing, where they do not apply.
    private func paintDirectly(_ color: Color, through mask: CairoSurface, x ix: Int, y iy: Int) -> Bool {
        guard kn_over_tinted_level() > 0, let tint = Self.premultiplied(color),
              cairo_get_operator(raw) == CAIRO_OPERATOR_OVER,
              // A context or mask in error goes to Cairo, which reports it (isOutOfMemory).
              cairo_status(raw) == CAIRO_STATUS_SUCCESS, cairo_surface_status(mask.raw) == CAIRO_STATUS_SUCCESS,
              cairo_surface_get_type(mask.raw) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(mask.raw) == CAIRO_FORMAT_A8,
              let target = cairo_get_group_target(raw),
              cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32 else { return false }
        var sx = 0.0, sy = 0.0, ox = 0.0, oy = 0.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        cairo_surface_get_device_offset(target, &ox, &oy)
        guard sx == 1, sy == 1, let dx = Int(exactly: ox), let dy = Int(exactly: oy), abs(dx) < 1 << 30, abs(dy) < 1 << 30,
              let list = cairo_copy_clip_rectangle_list(raw) else { return false }
        defer { cairo_rectangle_list_destroy(list) }
        // Boxes only where the clip is whole pixels (a fractional one is not representable,
        // or lists fractions).
        let rectangles = list.pointee
        guard rectangles.status == CAIRO_STATUS_SUCCESS, rectangles.num_rectangles >= 0 else { return false }
        var boxes: [PixelBox] = []
        let image = PixelBox(x0: ix, y0: iy, x1: ix + mask.width, y1: iy + mask.height)
        for i in 0..<Int(rectangles.num_rectangles) {
            let r = rectangles.rectangles[i]
            guard let x0 = Int(exactly: r.x), let y0 = Int(exactly: r.y),
                  let w = Int(exactly: r.width), let h = Int(exactly: r.height) else { return false }
            boxes.append(PixelBox(x0: x0, y0: y0, x1: x0 + w, y1: y0 + h).intersection(image))
        }
        cairo_surface_flush(mask.raw)
        cairo_surface_flush(target)
        guard let maskBytes = cairo_image_surface_get_data(mask.raw), let pixels = cairo_image_surface_get_data(target)
        else { return boxes.allSatisfy(\.isEmpty) }
        let maskStride = Int(cairo_image_surface_get_stride(mask.raw)), stride = Int(cairo_image_surface_get_stride(target))
        let bounds = PixelBox(x0: 0, y0: 0, x1: Int(cairo_image_surface_get_width(target)),
                              y1: Int(cairo_image_surface_get_height(target)))
        for box in boxes {
            // Device to the target's pixels; the clip keeps boxes inside, this makes sure.
            let b = PixelBox(x0: box.x0 + dx, y0: box.y0 + dy, x1: box.x1 + dx, y1: box.y1 + dy).intersection(bounds)
            guard !b.isEmpty else { continue }
            let m = maskBytes + (b.y0 - dy - iy) * maskStride + (b.x0 - dx - ix)
            let d = UnsafeMutableRawPointer(pixels + b.y0 * stride + 4 * b.x0).assumingMemoryBound(to: UInt32.self)
            kn_over_tinted(tint, m, maskStride, d, stride, b.x1 - b.x0, b.y1 - b.y0, 2)
        }
        cairo_surface_mark_dirty(target)
        return true
    }

    /// The premultiplied ARGB32 pixel Cairo 1.16 paints `color` as (each premultiplied
    /// component to 16 bits, d × 65535 + ½, then the high byte: what pixman reads of a
    /// solid fill); nil for a component that is not a number. A test holds it to Cairo's
    /// own painting.
    package static func premultiplied(_ color: Color) -> UInt32? {
        let c = color.clamped
        guard [c.red, c.green, c.blue, c.alpha].allSatisfy({ $0.isFinite }) else { return nil }
        func byte(_ v: Double) -> UInt32 { UInt32(v * 65535 + 0.5) >> 8 }
        return byte(c.alpha) << 24 | byte(c.red * c.alpha) << 16 | byte(c.green * c.alpha) << 8 | byte(c.blue * c.alpha)
    }

    /// Composites with addition (CAEmitterLayer's `additive` render mode) or normally.
    package func setAdditive(_ additive: Bool) {
        cairo_set_operator(raw, additive ? CAIRO_OPERATOR_ADD : CAIRO_OPERATOR_OVER)
    }

    /// Composites with a compositing filter's blend mode: Cairo's operators of the same
    /// names (PDF's blend modes).
    package func setBlendMode(_ mode: BlendMode) {
        let op: cairo_operator_t
        switch mode {
        case .multiply: op = CAIRO_OPERATOR_MULTIPLY
        case .screen: op = CAIRO_OPERATOR_SCREEN
        case .overlay: op = CAIRO_OPERATOR_OVERLAY
        case .darken: op = CAIRO_OPERATOR_DARKEN
        case .lighten: op = CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: op = CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: op = CAIRO_OPERATOR_COLOR_BURN
        case .softLight: op = CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: op = CAIRO_OPERATOR_HARD_LIGHT
        case .difference: op = CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: op = CAIRO_OPERATOR_EXCLUSION
        case .hue: op = CAIRO_OPERATOR_HSL_HUE
        case .saturation: op = CAIRO_OPERATOR_HSL_SATURATION
        case .color: op = CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: op = CAIRO_OPERATOR_HSL_LUMINOSITY
        }
        cairo_set_operator(raw, op)
    }

    /// Replaces what lies under the clip (cairo's SOURCE operator) until restored.
    package func setReplacing() { cairo_set_operator(raw, CAIRO_OPERATOR_SOURCE) }

    /// What drawing lands on now: the surface, or the innermost group being drawn. nil
    /// unless it can be read back as pixels (an image or a recording; not SVG or PDF).
    package var readableTarget: CairoSurface? {
        guard let target = cairo_get_group_target(raw) else { return nil }
        let type = cairo_surface_get_type(target)
        guard type == CAIRO_SURFACE_TYPE_IMAGE || type == CAIRO_SURFACE_TYPE_RECORDING else { return nil }
        return CairoSurface(borrowing: target)
    }

    /// Redirects drawing into a transparent group (cairo_push_group).
    package func pushGroup() { cairo_push_group(raw) }
    /// Ends a group and returns it as a pattern.
    package func popGroup() -> CairoPattern { CairoPattern(raw: cairo_pop_group(raw)) }
    /// Replays a recording (or any surface) as the source with its origin at (x, y).
    package func setSource(replaying s: CairoSurface, x: Double, y: Double) { cairo_set_source_surface(raw, s.raw, x, y) }
}

/// Whole device pixels x0 ..< x1, y0 ..< y1.
package struct PixelBox: Equatable, Sendable {
    package var x0: Int, y0: Int, x1: Int, y1: Int

    package init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }

    package var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    package func intersection(_ other: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }
}
