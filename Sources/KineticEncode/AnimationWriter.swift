import KineticGeometry

/// The animated formats Kinetic writes; the output's extension picks one.
public enum AnimationFormat: String, CaseIterable, Sendable {
    case gif, apng, webp, mp4, webm, mov

    /// The format an output path's extension names (`.png` is a still; `--animated`
    /// makes it APNG, which the caller decides).
    public init?(extension ext: String) {
        self.init(rawValue: ext.lowercased())
    }

    /// The highest frame rate browsers play at its rate: they show shorter frames (GIF's
    /// 0–1 cs, WebP's and APNG's under 11 ms) for 100 ms. Video has no such limit.
    public var maximumFPS: Double? {
        switch self {
        case .gif: 50
        case .apng, .webp: 90
        case .mp4, .webm, .mov: nil
        }
    }

    /// Whether the format can keep partial transparency (GIF keeps only on/off).
    public var keepsAlpha: Bool {
        switch self {
        case .apng, .webp, .webm, .mov: true
        case .gif, .mp4: false
        }
    }
}

/// The H.264 chroma layout: 4:2:0 plays everywhere, 4:4:4 keeps thin coloured lines.
public enum VideoPixelFormat: String, CaseIterable, Sendable {
    case yuv420p, yuv444p
}

/// How an animation is encoded: one meaning per setting across formats.
public struct AnimationSettings: Sendable {
    public var fps: Double
    /// 0 loops forever (GIF, WebP, APNG; video does not loop).
    public var loopCount: Int
    /// 0…100. WebP: lossy at this quality (nil: lossless). GIF: libimagequant's target
    /// (nil: 100). Video takes ``crf`` instead.
    public var quality: Int?
    /// Constant rate factor of H.264 (0…51, default 23) and VP9 (0…63, default 31).
    public var crf: Int?
    /// H.264 only.
    public var pixelFormat: VideoPixelFormat
    /// The frames may be less than opaque: GIF keeps 1-bit transparency, WebM an alpha
    /// channel, APNG RGBA; an opaque animation is stored without alpha.
    public var transparent: Bool
    /// GIF only: colour table entries, 2…256 (nil: 256); see ``GIFOptions/colors``.
    public var colors: Int?
    /// GIF only: dithering level, 0 (off) … 1 (nil: 0.15, or 0 with a palette of
    /// ``GIFPalette/isOfFewColors``); see ``GIFOptions/dithering``.
    public var dithering: Double?
    /// GIF only: the whole animation's palette (``GIFPaletteBuilder``), or nil for a
    /// palette a frame.
    public var gifPalette: GIFPalette?
    /// Worker threads the writer may use (`--jobs`); the bytes are the same for any count.
    /// GIF compresses up to this many frames at once (``GIFWriter``); the video encoders'
    /// threads stay fixed (``AnimationWriter``), as their bytes depend on them.
    public var jobs = 1

    public init(fps: Double, loopCount: Int = 0, quality: Int? = nil, crf: Int? = nil,
                pixelFormat: VideoPixelFormat = .yuv420p, transparent: Bool = false) {
        self.fps = fps; self.loopCount = loopCount; self.quality = quality; self.crf = crf
        self.pixelFormat = pixelFormat; self.transparent = transparent
    }

    /// The GIF encoder's options for these settings.
    public var gifOptions: GIFOptions {
        var options = GIFOptions()
        options.loopCount = loopCount
        options.transparentBackground = transparent
        if let quality { options.quality = quality }
        if let colors { options.colors = colors }
        if let dithering { options.dithering = dithering } else if gifPalette?.isOfFewColors == true { options.dithering = 0 }
        if let gifPalette { options.palette = .shared(gifPalette) }
        return options
    }

    /// - Throws: ``EncodeError/invalidOptions(reason:)`` naming the first setting that
    ///   does not apply to `format` or is out of range.
    public func validate(for format: AnimationFormat) throws(EncodeError) {
        guard fps.isFinite, fps > 0 else { throw .invalidOptions(reason: "fps must be greater than 0") }
        if format != .gif, format != .webp, fps > 1000 {
            // Video time bases and APNG's 16-bit delays: libx264 refused 1e300 fps only
            // once the file was open.
            throw .invalidOptions(reason: "--fps must be at most 1000 for .\(format.rawValue)")
        }
        guard (0...65535).contains(loopCount) else { throw .invalidOptions(reason: "--loop must be 0…65535") }
        if let quality {
            guard (0...100).contains(quality) else { throw .invalidOptions(reason: "--quality must be 0…100") }
            guard format == .gif || format == .webp else {
                throw .invalidOptions(reason: "--quality applies to .gif and .webp; \(format.rawValue) takes " +
                                      (format == .mp4 || format == .webm ? "--crf" : "no quality setting"))
            }
        }
        if let crf {
            switch format {
            case .mp4: guard (0...51).contains(crf) else { throw .invalidOptions(reason: "--crf must be 0…51 for H.264") }
            case .webm: guard (0...63).contains(crf) else { throw .invalidOptions(reason: "--crf must be 0…63 for VP9") }
            default: throw .invalidOptions(reason: "--crf applies to .mp4 and .webm, not .\(format.rawValue)")
            }
        }
        if colors != nil || dithering != nil {
            guard format == .gif else { throw .invalidOptions(reason: "--colors and --dither apply to .gif only") }
            if let colors, !(2...256).contains(colors) { throw .invalidOptions(reason: "--colors must be 2…256") }
            if let dithering, !(0...1).contains(dithering) { throw .invalidOptions(reason: "--dither must be 0…1, off or on") }
        }
        if pixelFormat != .yuv420p, format != .mp4 {
            throw .invalidOptions(reason: "--pix-fmt applies to .mp4 only")
        }
    }
}

/// A frame made ready for ``AnimationWriter/write(_:)`` by an
/// ``AnimationFramePreparer`` (on any thread).
public enum PreparedAnimationFrame: Sendable {
    case gif(PreparedGIFFrame)
    /// Straight RGBA bytes, `width × 4` a row (WebP).
    case rgba([UInt8], width: Int, height: Int)
    /// A video frame, converted by libswscale.
    case video(VideoFrame)
}

/// The per-frame work that can run in parallel before the writer's sequential part:
/// GIF's palettes and differencing, WebP's un-premultiplying, video's conversion to YUV.
/// Safe to use from many threads at once.
public struct AnimationFramePreparer: Sendable {
    let format: AnimationFormat
    let settings: AnimationSettings
    let converter: FFmpegConverter?
    /// Where a GIF frame's source colours are written: buffers of frames already written.
    var gifSources: FrameBufferPool? = nil

    /// `previous` is the frame before `frame` (GIF stores only what changed), `change`
    /// where they differ when that is known.
    public func prepare(_ frame: PixelImage, previous: PixelImage?,
                        change: FrameChange = .unknown) throws(EncodeError) -> PreparedAnimationFrame {
        switch format {
        case .gif:
            return .gif(try GIFFramePreparer.prepare(frame, previous: previous, change: change,
                                                     options: settings.gifOptions, buffers: gifSources))
        case .webp:
            return .rgba(frame.straightRGBA(), width: frame.width, height: frame.height)
        case .apng, .mp4, .webm, .mov:
            guard let converter else { throw .invalidOptions(reason: "no converter for \(format.rawValue)") }
            if AnimationWriter.inputFormat(format, settings) == "rgba" {
                return .video(try converter.convert(frame.straightRGBA(), stride: frame.width * 4,
                                                    width: frame.width, height: frame.height))
            }
            return .video(try converter.convert(frame.bytes, stride: frame.stride, width: frame.width, height: frame.height))
        }
    }
}

/// Writes an animation of any ``AnimationFormat`` frame by frame, in order, to a path
/// that receives the file only once ``finish()`` succeeds (through ``AtomicFile``: an
/// error, ``cancel()`` or an interruption leaves the destination as it was).
///
/// Frames stream: GIF and video are written to the temporary file as they come; WebP
/// keeps only compressed frames until the end.
public final class AnimationWriter {
    public let path: String
    public let format: AnimationFormat
    public let width: Int, height: Int
    public let settings: AnimationSettings
    /// Frames the animation has; ``finish()`` checks they all came, so the timing adds up.
    public let frameCount: Int
    private var written = 0
    private var gif: GIFWriter?
    /// GIF frames' source colours (canvas-sized on a snowfall), handed back once written
    /// for the preparation of later frames, so they take no fresh pages (issue 42): at
    /// most the frame stream's frames in flight (a chunk of two a worker, and one more a
    /// worker taken from the next chunk), within the pool's four a worker.
    private var gifSources: FrameBufferPool?
    private var gifDelays: [Int] = []
    private var video: FFmpegEncoder?
    private var webp: WebPAnimationEncoder?
    private var file: AtomicFile?

    /// Encoder threads, fixed whatever the machine: x264's and libvpx's bytes depend on the
    /// thread count (not on timing). VP9 runs on one thread; x264 on 4 frame threads. 3
    /// (what ffmpeg picks on 2 cores) and 8 make the bench file smaller (8: no larger than
    /// ffmpeg's and as good), but the whole render slower on a busy 2-core machine
    /// (docs/outputs.md). Different MP4s of the same frames came from x264's AVX-512 code,
    /// not from its threads (see ``FFmpegEncoder/x264DeterminismOptions()``).
    static let encoderThreads: Int32 = 1
    /// The longest animation written, as `render` limits a scene: a day.
    static let maxSeconds = 86_400.0
    static let x264Threads: Int32 = 4

    public init(path: String, format: AnimationFormat, width: Int, height: Int, frameCount: Int,
                settings: AnimationSettings) throws(EncodeError) {
        try settings.validate(for: format)
        guard frameCount > 0 else { throw .invalidOptions(reason: "no frames to write") }
        // Checked in doubles before any delay becomes an integer and before a file is
        // opened: `--fps 1e-300` made every delay infinite (an overflow trap).
        let seconds = Double(frameCount) / settings.fps
        guard seconds <= Self.maxSeconds else {
            throw .invalidOptions(reason: "at \(settings.fps) fps \(frameCount) frames last \(seconds) s, over the limit of \(Int(Self.maxSeconds)) s (a day)")
        }
        self.path = path; self.format = format; self.width = width; self.height = height
        self.settings = settings; self.frameCount = frameCount
        switch format {
        case .gif:
            gif = try GIFWriter(path: path, width: width, height: height, options: settings.gifOptions,
                                jobs: settings.jobs)
            gifDelays = GIFTiming.delays(frameCount: frameCount, fps: settings.fps)
            gifSources = FrameBufferPool(limit: 4 * max(1, settings.jobs) + 1)
        case .webp:
            guard Self.milliseconds(frameCount, fps: settings.fps) <= Int(Int32.max) else {
                throw .invalidOptions(reason: "a WebP lasts at most \(Int32.max) ms")
            }
            webp = try WebPAnimationEncoder(width: width, height: height, loopCount: settings.loopCount,
                                            quality: settings.quality)
            file = try AtomicFile(path: path)
        case .apng, .mp4, .webm, .mov:
            let stream = try Self.streamSettings(format: format, width: width, height: height, settings: settings)
            let file = try AtomicFile(path: path)
            // libavformat writes (and for MP4's faststart re-reads) the temporary file by
            // name; AtomicFile owns its name, registration and the final rename.
            video = try FFmpegEncoder(path: file.temporaryPath, settings: stream)
            self.file = consume file
        }
    }

    /// What FFmpeg is asked for, per format.
    static func streamSettings(format: AnimationFormat, width: Int, height: Int,
                               settings: AnimationSettings) throws(EncodeError) -> FFmpegStreamSettings {
        let alpha = settings.transparent
        var s = FFmpegStreamSettings(muxer: "", encoder: "", pixelFormat: "", inputFormat: Self.inputFormat(format, settings),
                                     width: width, height: height, rate: try FFmpegEncoder.rate(settings.fps),
                                     threads: encoderThreads, tagsBT709: true, encoderOptions: [], muxerOptions: [])
        switch format {
        case .mp4:
            guard settings.pixelFormat == .yuv444p || (width % 2 == 0 && height % 2 == 0) else {
                throw .invalidOptions(reason: "yuv420p needs an even width and height, not \(width)×\(height) " +
                                      "(change --scale, or use --pix-fmt yuv444p)")
            }
            s.muxer = "mp4"; s.encoder = "libx264"; s.pixelFormat = settings.pixelFormat.rawValue
            s.threads = x264Threads
            // x264's tune for flat-coloured, sharp-edged frames, which is what a scene draws:
            // 6% smaller at +0.23 dB on the bench scene (docs/outputs.md).
            s.encoderOptions = try [("crf", String(settings.crf ?? 23)), ("preset", "medium"), ("tune", "animation")]
                + FFmpegEncoder.x264DeterminismOptions()
            // The index up front, so browsers start playing before the whole file arrives.
            s.muxerOptions = [("movflags", "+faststart")]
        case .webm:
            s.muxer = "webm"; s.encoder = "libvpx-vp9"; s.pixelFormat = alpha ? "yuva420p" : "yuv420p"
            s.encoderOptions = [("crf", String(settings.crf ?? 31)), ("b", "0"), ("deadline", "good"),
                                ("cpu-used", "2"), ("row-mt", "0")]
        case .mov:
            // ProRes 4444 always carries alpha: it is the transparent video format.
            s.muxer = "mov"; s.encoder = "prores_ks"; s.pixelFormat = "yuva444p10le"
            s.encoderOptions = [("profile", "4444")]
        case .apng:
            s.muxer = "apng"; s.encoder = "apng"; s.pixelFormat = alpha ? "rgba" : "rgb24"; s.tagsBT709 = false
            s.encoderOptions = [("pred", "mixed")]
            s.muxerOptions = [("plays", String(settings.loopCount))]
        case .gif, .webp:
            throw .invalidOptions(reason: "\(format.rawValue) is not written through FFmpeg")
        }
        return s
    }

    /// The packed layout frames reach the encoder in: straight RGBA when alpha is kept,
    /// else Cairo's own bytes (premultiplied B, G, R, A on little-endian machines) read
    /// as BGR0, which shows any transparency over black without a copy.
    static func inputFormat(_ format: AnimationFormat, _ settings: AnimationSettings) -> String {
        switch format {
        case .webp, .mov: "rgba"
        case .webm, .apng: settings.transparent ? "rgba" : "bgr0"
        case .mp4, .gif: "bgr0"
        }
    }

    /// GIF frames' source colours asked for by the preparer, and how many of them were in
    /// buffers of frames already written (nil for other formats).
    package var gifSourceCounts: (taken: Int, reused: Int)? { gifSources?.counts }

    /// Readies frames for ``write(_:)``, on any thread.
    public var preparer: AnimationFramePreparer {
        AnimationFramePreparer(format: format, settings: settings, converter: video?.converter, gifSources: gifSources)
    }

    /// Appends the next frame. On error the animation is abandoned (see ``cancel()``).
    public func write(_ frame: PreparedAnimationFrame) throws(EncodeError) {
        do throws(EncodeError) {
            guard written < frameCount else { throw .invalidImage(reason: "more than the \(frameCount) frames announced") }
            switch frame {
            case .gif(let prepared):
                guard let gif else { throw .invalidImage(reason: "a GIF frame for a \(format.rawValue) writer") }
                try gif.write(prepared, delayCentiseconds: gifDelays[written])
                // The writer keeps none of them: the last other holder is the caller's frame.
                if let source = prepared.sourcePixels { gifSources?.recycle(bytes: source) }
            case let .rgba(bytes, w, h):
                guard let webp else { throw .invalidImage(reason: "RGBA pixels for a \(format.rawValue) writer") }
                guard w == width, h == height, bytes.count == w * h * 4 else {
                    throw .invalidImage(reason: "frame \(written) is \(w)×\(h), the animation \(width)×\(height)")
                }
                try webp.add(rgba: bytes, milliseconds: Self.milliseconds(written, fps: settings.fps))
            case .video(let frame):
                guard let video else { throw .invalidImage(reason: "a video frame for a \(format.rawValue) writer") }
                try video.append(frame)
            }
            written += 1
        } catch {
            cancel()
            throw error
        }
    }

    /// Writes the end of the file and renames it into place.
    public func finish() throws(EncodeError) {
        do throws(EncodeError) {
            guard written == frameCount else {
                throw .invalidImage(reason: "\(written) of \(frameCount) frames were written")
            }
            if let gif {
                try gif.finish()
            } else if let video {
                try video.finish()
            } else if let webp {
                let bytes = try webp.finish(endMilliseconds: Self.milliseconds(frameCount, fps: settings.fps))
                try file?.write(bytes)
            }
            gif = nil; video = nil; webp = nil
            try file.take()?.commit()
        } catch {
            cancel()
            throw error
        }
    }

    /// Abandons the animation: the temporary file is removed, the destination untouched.
    public func cancel() {
        gif?.cancel(); gif = nil
        video?.close(); video = nil
        webp?.close(); webp = nil
        file = nil
    }

    deinit { cancel() }

    /// Frame `index` starts at round(index × 1000 / fps) ms, so durations add up to the
    /// animation's length with no drift (as GIF's centiseconds do).
    static func milliseconds(_ index: Int, fps: Double) -> Int {
        Int((Double(index) * 1000 / fps).rounded())
    }
}

extension PixelImage {
    /// Straight (un-premultiplied) RGBA bytes, `width × 4` a row, rounded as Cairo's PNG
    /// writer rounds (see ``PixelImage/rgba(x:y:)``).
    func straightRGBA() -> [UInt8] {
        let count = width * height * 4
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            bytes.withUnsafeBytes { src in
                var o = 0
                for y in 0..<height {
                    let row = y * stride
                    for x in 0..<width {
                        let word = src.loadUnaligned(fromByteOffset: row + x * 4, as: UInt32.self)
                        UnsafeMutableRawBufferPointer(out).storeBytes(of: GIFFramePreparer.straightWord(word),
                                                                      toByteOffset: o, as: UInt32.self)
                        o += 4
                    }
                }
            }
            initialized = count
        }
    }
}
