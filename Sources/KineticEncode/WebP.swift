// The one file that touches libwebp's C API: animated WebP through WebPAnimEncoder.
import CWebP
import KineticGeometry

/// libwebp and libwebpmux, loaded on first use (see `Sources/CWebP/shim.h`): a process
/// that writes no WebP never maps them.
enum WebPLibrary {
    /// The function table, or why the libraries cannot be loaded (`loadFunctionTable`).
    private static let loaded = loadFunctionTable(kinetic_webp_load).mapError {
        EncodeError.invalidOptions(reason: "cannot load libwebp (install libwebp7 and libwebpmux3): " + $0.message)
    }

    /// libwebp's functions.
    /// - Throws: `.invalidOptions` when a library or function is missing.
    static func functions() throws(EncodeError) -> kinetic_webp { try loaded.get() }
}

/// Frames in, one animated WebP out. libwebp keeps the compressed frames until
/// ``finish(endMilliseconds:)`` assembles the file, so memory grows with the output's
/// size, never with raw frames.
final class WebPAnimationEncoder {
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private let width: Int32, height: Int32
    private let webp: kinetic_webp

    /// - Parameters:
    ///   - quality: nil for lossless, else lossy at 0…100 (libwebp's quality factor).
    init(width: Int, height: Int, loopCount: Int, quality: Int?) throws(EncodeError) {
        guard (1...Int(WEBP_MAX_DIMENSION)).contains(width), (1...Int(WEBP_MAX_DIMENSION)).contains(height) else {
            throw .invalidOptions(reason: "a WebP is 1…\(WEBP_MAX_DIMENSION) pixels a side, not \(width)×\(height)")
        }
        self.width = Int32(width); self.height = Int32(height)
        webp = try WebPLibrary.functions()
        var options = WebPAnimEncoderOptions()
        guard kinetic_webp_anim_options_init(webp, &options) != 0, kinetic_webp_config_init(webp, &config) != 0 else {
            throw .invalidOptions(reason: "libwebp version mismatch")
        }
        options.anim_params.loop_count = Int32(loopCount)
        // One mode for every frame: lossless stays lossless, lossy stays lossy.
        options.allow_mixed = 0
        if let quality {
            config.lossless = 0
            config.quality = Float(quality)
        } else {
            config.lossless = 1
            config.quality = 75  // effort, for lossless: libwebp's default
        }
        config.method = 4
        config.thread_level = 0
        guard webp.WebPValidateConfig(&config) != 0 else { throw .invalidOptions(reason: "libwebp refused the settings") }
        encoder = kinetic_webp_anim_encoder_new(webp, self.width, self.height, &options)
        guard encoder != nil else { throw .invalidOptions(reason: "libwebp cannot start an animation") }
    }

    /// Adds a frame of straight RGBA bytes (`width × 4` a row) shown from `milliseconds`.
    func add(rgba: [UInt8], milliseconds: Int) throws(EncodeError) {
        guard let encoder else { throw .invalidOptions(reason: "WebP already finished") }
        var picture = WebPPicture()
        guard kinetic_webp_picture_init(webp, &picture) != 0 else { throw .invalidOptions(reason: "libwebp version mismatch") }
        picture.width = width; picture.height = height; picture.use_argb = 1
        defer { webp.WebPPictureFree(&picture) }
        let imported = rgba.withUnsafeBufferPointer { webp.WebPPictureImportRGBA(&picture, $0.baseAddress, width * 4) }
        guard imported != 0 else { throw .invalidImage(reason: "libwebp could not take a \(width)×\(height) frame") }
        guard webp.WebPAnimEncoderAdd(encoder, &picture, Int32(milliseconds), &config) != 0 else {
            throw failure(of: encoder)
        }
    }

    /// The file's bytes; the last frame ends at `endMilliseconds`.
    func finish(endMilliseconds: Int) throws(EncodeError) -> [UInt8] {
        guard let encoder else { throw .invalidOptions(reason: "WebP already finished") }
        defer { close() }
        var data = WebPData()  // zeroed: WebPDataInit
        defer { kinetic_webp_data_clear(webp, &data) }
        guard webp.WebPAnimEncoderAdd(encoder, nil, Int32(endMilliseconds), nil) != 0,
              webp.WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw failure(of: encoder)
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    /// libwebp's message for the encoder's last error.
    private func failure(of encoder: OpaquePointer) -> EncodeError {
        .invalidImage(reason: "libwebp: " + (webp.WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"))
    }

    func close() {
        if let encoder { webp.WebPAnimEncoderDelete(encoder) }
        encoder = nil
    }

    deinit { close() }
}
