// The one file that touches Cairo's C API: PNG encoding and decoding of ARGB32 pixels.
import CCairo
import KineticGeometry

enum CairoPNG {
    /// PNG bytes for `image`. Cairo un-premultiplies ARGB32 itself while writing.
    static func encode(_ image: PixelImage) throws(EncodeError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 32767, image.height <= 32767 else {
            throw .invalidImage(reason: "cannot encode a \(image.width)×\(image.height) PNG")
        }
        // Cairo needs a 4-byte aligned stride; repack the rare image that has another.
        let source = image.stride % 4 == 0 ? image : repacked(image)
        var output: [UInt8] = []
        let status = source.bytes.withUnsafeBytes { pixels -> cairo_status_t in
            // Cairo only reads the pixels when writing a PNG, so the const cast is safe.
            let data = UnsafeMutablePointer(mutating: pixels.bindMemory(to: UInt8.self).baseAddress!)
            guard let surface = cairo_image_surface_create_for_data(
                data, CAIRO_FORMAT_ARGB32, Int32(source.width), Int32(source.height), Int32(source.stride))
            else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_surface_destroy(surface) }
            let created = cairo_surface_status(surface)
            guard created == CAIRO_STATUS_SUCCESS else { return created }
            return withUnsafeMutablePointer(to: &output) { sink in
                cairo_surface_write_to_png_stream(surface, { closure, bytes, length in
                    guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                    closure.assumingMemoryBound(to: [UInt8].self).pointee
                        .append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, sink)
            }
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .invalidImage(reason: "Cairo: " + String(cString: cairo_status_to_string(status)))
        }
        return output
    }

    /// The PNG at `path` as premultiplied ARGB32, whatever its colour type.
    static func decode(path: String) throws(EncodeError) -> PixelImage {
        guard let loaded = cairo_image_surface_create_from_png(path) else {
            throw .cannotRead(path: path, reason: "out of memory")
        }
        defer { cairo_surface_destroy(loaded) }
        let status = cairo_surface_status(loaded)
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = status == CAIRO_STATUS_FILE_NOT_FOUND
                ? "no such file" : String(cString: cairo_status_to_string(status))
            throw .cannotRead(path: path, reason: reason)
        }
        let width = Int(cairo_image_surface_get_width(loaded))
        let height = Int(cairo_image_surface_get_height(loaded))
        // Painting with OPERATOR_SOURCE onto an ARGB32 surface converts any format Cairo
        // loaded (RGB24 for opaque PNGs, A8, …) to premultiplied ARGB32.
        guard let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .cannotRead(path: path, reason: "out of memory")
        }
        defer { cairo_surface_destroy(target) }
        let cr = cairo_create(target)
        defer { cairo_destroy(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, loaded, 0, 0)
        cairo_paint(cr)
        cairo_surface_flush(target)
        let drawn = cairo_status(cr)
        guard drawn == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(target) else {
            throw .cannotRead(path: path, reason: String(cString: cairo_status_to_string(drawn)))
        }
        let stride = Int(cairo_image_surface_get_stride(target))
        let bytes = [UInt8](UnsafeBufferPointer(start: data, count: stride * height))
        return PixelImage(width: width, height: height, stride: stride, bytes: bytes)
    }

    private static func repacked(_ image: PixelImage) -> PixelImage {
        var copy = PixelImage(width: image.width, height: image.height)
        for y in 0..<image.height {
            let from = y * image.stride, to = y * copy.stride
            copy.bytes[to..<(to + image.width * 4)] = image.bytes[from..<(from + image.width * 4)]
        }
        return copy
    }
}
