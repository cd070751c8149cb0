import CRsvg
import KineticCairo
import KineticGeometry

// The thin wrapper over librsvg: every rsvg_* call of the renderer (and of the Lottie
// export, which rasterizes SVG contents through it) lives in this file.
// A document is loaded from bytes the scene loader checked, with no base file and no
// flags: librsvg then resolves no relative or absolute reference (only data: URLs) and
// keeps libxml2's safety limits.

/// Why librsvg could not load an SVG.
package struct RsvgFailure: Error, CustomStringConvertible {
    package var description: String
}

/// librsvg, loaded on first use (see `Sources/CRsvg/shim.h`): a process that draws no SVG
/// contents never maps it.
enum RsvgLibrary {
    /// The function table, or why the library cannot be loaded (`loadFunctionTable`).
    private static let loaded = loadFunctionTable(kinetic_rsvg_load).mapError {
        RsvgFailure(description: "cannot load librsvg (install librsvg2-2): " + $0.message)
    }

    /// librsvg's functions.
    /// - Throws: when the library or a function is missing.
    static func functions() throws(RsvgFailure) -> kinetic_rsvg { try loaded.get() }
}

/// An SVG document parsed by librsvg, drawn as vector onto a Cairo context: crisp at the
/// scale it is drawn at. A handle is used by one thread only: each render call makes its own.
package final class RsvgDocument {
    private let handle: OpaquePointer
    private let rsvg: kinetic_rsvg
    /// The size in points it draws at by itself: `width` × `height`, else its viewBox's.
    package let size: Size

    package init(data bytes: [UInt8]) throws(RsvgFailure) {
        let rsvg = try RsvgLibrary.functions()
        var error: UnsafeMutablePointer<GError>? = nil
        // librsvg reads the whole stream before returning, so the bytes need outlive only the call.
        let loaded = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
            let stream = g_memory_input_stream_new_from_data(buffer.baseAddress, gssize(buffer.count), nil)
            defer { g_object_unref(stream) }
            return rsvg.rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        }
        guard let loaded else { throw RsvgFailure(description: Self.message(error) ?? "librsvg could not load the SVG") }
        handle = loaded
        self.rsvg = rsvg
        // CSS's 96 px to the inch, as the scene loader reads lengths (librsvg's default is 90).
        rsvg.rsvg_handle_set_dpi(handle, 96)
        var width = 0.0, height = 0.0
        if rsvg.rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) == 0 {
            var hasViewBox: gboolean = 0
            var viewBox = RsvgRectangle()
            rsvg.rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
            (width, height) = hasViewBox != 0 ? (viewBox.width, viewBox.height) : (0, 0)
        }
        size = Size(width, height)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Draws the whole document stretched to `rect`, as layer contents are (the document
    /// fills its own size, which is then scaled: `contentsGravity` already kept or chose
    /// the aspect ratio).
    package func draw(in rect: Rect, ctx: CairoContext) {
        guard size.width > 0, size.height > 0 else { return }
        ctx.save()
        ctx.translate(rect.minX, rect.minY)
        ctx.scale(rect.width / size.width, rect.height / size.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: size.width, height: size.height)
        var error: UnsafeMutablePointer<GError>? = nil
        // A document that fails half-way has drawn what it could, as a browser shows it.
        if rsvg.rsvg_handle_render_document(handle, ctx.raw, &viewport, &error) == 0 { g_error_free(error) }
        ctx.restore()
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }
}
