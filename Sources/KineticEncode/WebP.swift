// The one file that touches libwebp's C API: animated WebP through WebPAnimEncoder.
import CWebP

/// Frames in, one animated WebP out. libwebp keeps the compressed frames until
/// ``finish(endMilliseconds:)`` assembles the file, so memory grows with the output's
/// size, never with raw frames.
final class WebPAnimationEncoder {
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private let width: Int32, height: Int32

    /// - Parameters:
    ///   - quality: nil for lossless, else lossy at 0…100 (libwebp's quality factor).
    init(width: Int, height: Int, loopCount: Int, quality: Int?) throws(EncodeError) {
        guard (1...Int(WEBP_MAX_DIMENSION)).contains(width), (1...Int(WEBP_MAX_DIMENSION)).contains(height) else {
            throw .invalidOptions(reason: "a WebP is 1…\(WEBP_MAX_DIMENSION) pixels a side, not \(width)×\(height)")
        }
        self.width = Int32(width); self.height = Int32(height)
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
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
        guard WebPValidateConfig(&config) != 0 else { throw .invalidOptions(reason: "libwebp refused the settings") }
        encoder = WebPAnimEncoderNew(self.width, self.height, &options)
        guard encoder != nil else { throw .invalidOptions(reason: "libwebp cannot start an animation") }
    }

    /// Adds a frame of straight RGBA bytes (`width × 4` a row) shown from `milliseconds`.
    func add(rgba: [UInt8], milliseconds: Int) throws(EncodeError) {
        guard let encoder else { throw .invalidOptions(reason: "WebP already finished") }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .invalidOptions(reason: "libwebp version mismatch") }
        picture.width = width; picture.height = height; picture.use_argb = 1
        defer { WebPPictureFree(&picture) }
        let imported = rgba.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, width * 4) }
        guard imported != 0 else { throw .invalidImage(reason: "libwebp could not take a \(width)×\(height) frame") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(milliseconds), &config) != 0 else {
            throw .invalidImage(reason: "libwebp: " + String(cString: WebPAnimEncoderGetError(encoder)))
        }
    }

    /// The file's bytes; the last frame ends at `endMilliseconds`.
    func finish(endMilliseconds: Int) throws(EncodeError) -> [UInt8] {
        guard let encoder else { throw .invalidOptions(reason: "WebP already finished") }
        defer { close() }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(endMilliseconds), nil) != 0,
              WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw .invalidImage(reason: "libwebp: " + String(cString: WebPAnimEncoderGetError(encoder)))
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    func close() {
        if let encoder { WebPAnimEncoderDelete(encoder) }
        encoder = nil
    }

    deinit { close() }
}
