// The one file that touches FFmpeg's C API (libavformat, libavcodec, libswscale,
// libavutil): one video stream encoded and muxed into a file.
import CFFmpeg
import KineticGeometry
import Foundation

/// What ``FFmpegEncoder`` needs to know to open a stream; every string is FFmpeg's own
/// name (muxer, encoder, pixel format, AVOption).
struct FFmpegStreamSettings {
    var muxer: String
    var encoder: String
    /// The encoder's pixel format (`yuv420p`, `yuva444p10le`, `rgba`, …).
    var pixelFormat: String
    /// Packed input: straight `rgba`, or `bgr0` (Cairo's premultiplied ARGB32 read
    /// without its alpha: the frame over black).
    var inputFormat: String
    var width: Int
    var height: Int
    /// Frames per second as a fraction; the stream's time base is its inverse, so every
    /// frame lasts exactly one tick.
    var rate: (num: Int32, den: Int32)
    /// Encoder threads. Fixed rather than one per core: x264 and libvpx output depends on
    /// the thread count, and the bytes must not depend on the machine.
    var threads: Int32
    /// Flags the YUV stream as BT.709 (matrix, primaries), sRGB transfer, limited range.
    var tagsBT709: Bool
    var encoderOptions: [(String, String)]
    var muxerOptions: [(String, String)]
}

/// FFmpeg's libraries, loaded on first use (see `Sources/CFFmpeg/shim.h`): a process that
/// writes no video never maps them.
enum FFmpegLibrary {
    /// The function table, or why the libraries cannot be loaded (`loadFunctionTable`).
    private static let loaded = loadFunctionTable(kinetic_ffmpeg_load).mapError {
        EncodeError.invalidOptions(reason: "cannot load FFmpeg (install libavcodec, libavformat, libswscale and libavutil): "
                                   + $0.message)
    }

    /// FFmpeg's functions.
    /// - Throws: `.invalidOptions` when a library or function is missing.
    static func functions() throws(EncodeError) -> kinetic_ffmpeg { try loaded.get() }
}

/// An open file with one video stream; ``append(_:)`` encodes frames in order,
/// ``finish()`` flushes the encoder and writes the trailer. Writes to `path` as it goes;
/// the caller owns the file's atomicity (``AnimationWriter`` passes a temporary path).
final class FFmpegEncoder {
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var nextPTS: Int64 = 0
    private let path: String
    private let ffmpeg: kinetic_ffmpeg
    /// Turns packed frames into this stream's planes, on any thread.
    let converter: FFmpegConverter

    init(path: String, settings s: FFmpegStreamSettings) throws(EncodeError) {
        self.path = path
        ffmpeg = try FFmpegLibrary.functions()
        ffmpeg.av_log_set_level(AV_LOG_ERROR)
        converter = try FFmpegConverter(settings: s)
        do throws(EncodeError) {
            try open(path: path, settings: s)
        } catch {
            close()
            throw error
        }
    }

    private func open(path: String, settings s: FFmpegStreamSettings) throws(EncodeError) {
        guard ffmpeg.avformat_alloc_output_context2(&format, nil, s.muxer, path) >= 0, let format else {
            throw .invalidOptions(reason: "FFmpeg has no \(s.muxer) muxer")
        }
        guard let encoder = ffmpeg.avcodec_find_encoder_by_name(s.encoder) else {
            throw .invalidOptions(reason: "FFmpeg has no \(s.encoder) encoder (install libavcodec with it)")
        }
        let pixelFormat = ffmpeg.av_get_pix_fmt(s.pixelFormat)
        guard pixelFormat != AV_PIX_FMT_NONE else {
            throw .invalidOptions(reason: "unknown pixel format \(s.pixelFormat)")
        }
        guard let stream = ffmpeg.avformat_new_stream(format, nil), let codec = ffmpeg.avcodec_alloc_context3(encoder) else {
            throw .invalidOptions(reason: "out of memory")
        }
        self.stream = stream; self.codec = codec
        codec.pointee.width = Int32(s.width)
        codec.pointee.height = Int32(s.height)
        codec.pointee.pix_fmt = pixelFormat
        codec.pointee.time_base = AVRational(num: s.rate.den, den: s.rate.num)
        codec.pointee.framerate = AVRational(num: s.rate.num, den: s.rate.den)
        codec.pointee.thread_count = s.threads
        codec.pointee.flags |= kinetic_codec_flag_bitexact()
        let tags = ColourTags(bt709: s.tagsBT709)
        codec.pointee.color_primaries = tags.primaries
        codec.pointee.color_trc = tags.transfer
        codec.pointee.colorspace = tags.matrix
        codec.pointee.color_range = tags.range
        if format.pointee.oformat.pointee.flags & kinetic_format_globalheader() != 0 {
            codec.pointee.flags |= kinetic_codec_flag_global_header()
        }
        var options = dictionary(s.encoderOptions)
        let opened = ffmpeg.avcodec_open2(codec, encoder, &options)
        let unused = keys(options)
        ffmpeg.av_dict_free(&options)
        try check(opened, "cannot open the \(s.encoder) encoder")
        guard unused.isEmpty else { throw .invalidOptions(reason: "\(s.encoder) has no option \(unused.joined(separator: ", "))") }
        try check(ffmpeg.avcodec_parameters_from_context(stream.pointee.codecpar, codec), "cannot set the stream's parameters")
        stream.pointee.time_base = codec.pointee.time_base
        stream.pointee.avg_frame_rate = codec.pointee.framerate
        stream.pointee.r_frame_rate = codec.pointee.framerate
        // No encoder version strings, creation times or random ids in the file.
        format.pointee.flags |= kinetic_format_flag_bitexact()
        if format.pointee.oformat.pointee.flags & kinetic_format_nofile() == 0 {
            try check(ffmpeg.avio_open(&format.pointee.pb, path, AVIO_FLAG_WRITE), "cannot open \(path)")
        }
        var muxerOptions = dictionary(s.muxerOptions)
        let header = ffmpeg.avformat_write_header(format, &muxerOptions)
        ffmpeg.av_dict_free(&muxerOptions)
        try check(header, "cannot write the \(s.muxer) header")

        guard let packet = ffmpeg.av_packet_alloc() else { throw .invalidOptions(reason: "out of memory") }
        self.packet = packet
    }

    /// Encodes one frame, as ``FFmpegConverter/convert(_:stride:width:height:)`` made it.
    /// The encoder takes a reference to its buffers, not a copy.
    func append(_ video: VideoFrame) throws(EncodeError) {
        guard let codec else { throw .cannotWrite(path: path, reason: "encoder already finished") }
        let frame = video.frame
        guard frame.pointee.width == codec.pointee.width, frame.pointee.height == codec.pointee.height,
              frame.pointee.format == codec.pointee.pix_fmt.rawValue else {
            throw .invalidImage(reason: "a \(frame.pointee.width)×\(frame.pointee.height) frame for a " +
                                "\(codec.pointee.width)×\(codec.pointee.height) stream")
        }
        frame.pointee.pts = nextPTS
        nextPTS += 1
        try check(ffmpeg.avcodec_send_frame(codec, frame), "the encoder refused a frame")
        try drain()
    }

    /// Flushes the encoder, writes the trailer and closes the file.
    func finish() throws(EncodeError) {
        guard let codec, let format else { throw .cannotWrite(path: path, reason: "encoder already finished") }
        try check(ffmpeg.avcodec_send_frame(codec, nil), "cannot flush the encoder")
        try drain()
        try check(ffmpeg.av_write_trailer(format), "cannot write the trailer")
        if let pb = format.pointee.pb {
            let failed = pb.pointee.error
            try check(ffmpeg.avio_closep(&format.pointee.pb), "cannot close")
            try check(failed, "write failed")
        }
        close()
    }

    /// Moves every packet the encoder has ready into the file.
    private func drain() throws(EncodeError) {
        guard let codec, let packet, let format, let stream else { return }
        while true {
            let received = ffmpeg.avcodec_receive_packet(codec, packet)
            if received == kinetic_averror_eagain() || received == kinetic_averror_eof() { return }
            try check(received, "the encoder failed")
            // Every frame lasts one tick of the time base; encoders leave it unset at times.
            if packet.pointee.duration == 0 { packet.pointee.duration = 1 }
            ffmpeg.av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = ffmpeg.av_interleaved_write_frame(format, packet)
            ffmpeg.av_packet_unref(packet)
            try check(written, "cannot write a packet")
        }
    }

    /// Frees everything; the file, if open, is closed as it is.
    func close() {
        ffmpeg.av_packet_free(&packet)
        ffmpeg.avcodec_free_context(&codec)
        if let format {
            if format.pointee.pb != nil { _ = ffmpeg.avio_closep(&format.pointee.pb) }
            ffmpeg.avformat_free_context(format)
        }
        format = nil; stream = nil
    }

    deinit { close() }

    private func check(_ code: Int32, _ what: String) throws(EncodeError) {
        guard code < 0 else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = ffmpeg.av_strerror(code, &buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw .cannotWrite(path: path, reason: "\(what): \(message)")
    }

    private func dictionary(_ pairs: [(String, String)]) -> OpaquePointer? {
        var dict: OpaquePointer?
        for (key, value) in pairs { _ = ffmpeg.av_dict_set(&dict, key, value, 0) }
        return dict
    }

    private func keys(_ dict: OpaquePointer?) -> [String] {
        var keys: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while true {
            entry = ffmpeg.av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX)
            guard let e = entry else { break }
            keys.append(String(cString: e.pointee.key))
        }
        return keys
    }

    /// x264's options that make its bytes a function of the frames alone. x264 (core 164)
    /// reads memory it never wrote in its AVX-512 code: on a CPU with AVX-512, the same
    /// frames gave different bytes depending on what the heap held before (glibc's
    /// MALLOC_PERTURB_ changed them, and so did earlier encodes in the process or the
    /// threads' allocation order), whatever the thread count. Capped at AVX2 they never
    /// change, and equal what an AVX2-only CPU writes. No effect elsewhere.
    static func x264DeterminismOptions() throws(EncodeError) -> [(String, String)] {
        var ffmpeg = try FFmpegLibrary.functions()
        return kinetic_cpu_has_avx512(&ffmpeg) != 0 ? [("x264-params", "asm=AVX2")] : []
    }

    /// Frames per second as a fraction (exact for whole and decimal rates such as 29.97).
    static func rate(_ fps: Double) throws(EncodeError) -> (num: Int32, den: Int32) {
        let q = try FFmpegLibrary.functions().av_d2q(fps, 1_000_000)
        return (q.num, q.den)
    }
}

/// The colour description of a stream and its frames: sRGB's transfer always, and with
/// `bt709` the BT.709 matrix and primaries at limited range (YUV); else unspecified.
private struct ColourTags {
    var primaries = AVCOL_PRI_UNSPECIFIED
    var transfer = AVCOL_TRC_IEC61966_2_1
    var matrix = AVCOL_SPC_UNSPECIFIED
    var range = AVCOL_RANGE_UNSPECIFIED

    init(bt709: Bool) {
        guard bt709 else { return }
        primaries = AVCOL_PRI_BT709; matrix = AVCOL_SPC_BT709; range = AVCOL_RANGE_MPEG
    }
}

/// One frame in a stream's pixel format, in FFmpeg's reference-counted buffers: made
/// on a worker thread by ``FFmpegConverter``, handed to the encoder without a copy.
// @unchecked: the frame is filled before this is shared, then only read (the encoder's
// thread sets its timestamp, one thread at a time).
public final class VideoFrame: @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>
    private let ffmpeg: kinetic_ffmpeg

    fileprivate init(_ frame: UnsafeMutablePointer<AVFrame>, ffmpeg: kinetic_ffmpeg) {
        self.frame = frame
        self.ffmpeg = ffmpeg
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        ffmpeg.av_frame_free(&owned)
    }
}

/// Converts packed RGBA or BGR0 frames to a stream's pixel format with libswscale — on
/// many threads at once, each conversion with a context of its own from a small pool
/// (a context is not thread-safe, and making one costs more than a frame's conversion).
final class FFmpegConverter: @unchecked Sendable {
    let width: Int, height: Int
    private let input: AVPixelFormat, output: AVPixelFormat
    private let bt709: Bool
    private let ffmpeg: kinetic_ffmpeg
    private var idle: [OpaquePointer] = []
    private let lock = NSLock()

    init(settings s: FFmpegStreamSettings) throws(EncodeError) {
        width = s.width; height = s.height; bt709 = s.tagsBT709
        ffmpeg = try FFmpegLibrary.functions()
        input = ffmpeg.av_get_pix_fmt(s.inputFormat); output = ffmpeg.av_get_pix_fmt(s.pixelFormat)
        guard input != AV_PIX_FMT_NONE, output != AV_PIX_FMT_NONE else {
            throw .invalidOptions(reason: "unknown pixel format \(s.inputFormat) or \(s.pixelFormat)")
        }
        guard ffmpeg.av_image_check_size(UInt32(clamping: width), UInt32(clamping: height), 0, nil) >= 0 else {
            throw .invalidOptions(reason: "cannot lay out a \(width)×\(height) \(s.pixelFormat) frame")
        }
        // Made once here so an impossible conversion fails before any frame.
        let first = try makeContext()
        idle.append(first)
    }

    private func makeContext() throws(EncodeError) -> OpaquePointer {
        guard let context = ffmpeg.sws_getContext(Int32(width), Int32(height), input, Int32(width), Int32(height), output,
                                           kinetic_sws_flags(), nil, nil, nil) else {
            throw .invalidOptions(reason: "swscale cannot convert \(name(input)) to \(name(output))")
        }
        if bt709 {
            // sRGB in, BT.709 matrix out: full-range RGB to limited-range YUV.
            let coefficients = ffmpeg.sws_getCoefficients(SWS_CS_ITU709)
            _ = ffmpeg.sws_setColorspaceDetails(context, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16)
        }
        return context
    }

    private func name(_ format: AVPixelFormat) -> String {
        ffmpeg.av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "pixel format \(format.rawValue)"
    }

    /// One packed frame (`stride` bytes a row) in the stream's pixel format.
    func convert(_ bytes: [UInt8], stride: Int, width w: Int, height h: Int) throws(EncodeError) -> VideoFrame {
        guard w == width, h == height, stride >= w * 4, bytes.count >= stride * h else {
            throw .invalidImage(reason: "a \(w)×\(h) frame for a \(width)×\(height) animation")
        }
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        let context: OpaquePointer
        if let reused { context = reused } else { context = try makeContext() }
        defer { lock.lock(); idle.append(context); lock.unlock() }
        guard let frame = ffmpeg.av_frame_alloc() else { throw .invalidImage(reason: "out of memory for a video frame") }
        // Owned from here: freed with `video` on any error below.
        let video = VideoFrame(frame, ffmpeg: ffmpeg)
        frame.pointee.format = output.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let tags = ColourTags(bt709: bt709)
        frame.pointee.color_primaries = tags.primaries
        frame.pointee.color_trc = tags.transfer
        frame.pointee.colorspace = tags.matrix
        frame.pointee.color_range = tags.range
        guard ffmpeg.av_frame_get_buffer(frame, 0) >= 0 else { throw .invalidImage(reason: "out of memory for a video frame") }
        var functions = ffmpeg
        let rows = bytes.withUnsafeBufferPointer { src in
            kinetic_sws_scale_into_frame(&functions, context, src.baseAddress, Int32(stride), frame)
        }
        guard rows == Int32(height) else { throw .invalidImage(reason: "swscale converted \(rows) of \(height) rows") }
        return video
    }

    deinit {
        for context in idle { ffmpeg.sws_freeContext(context) }
    }
}
