import Foundation
import KineticEncode

/// How ``Scene/write(to:options:)`` writes a scene: which frames, and the encoder's
/// settings. Each setting is what the `kinetic render` flag of the same meaning sets
/// (docs/outputs.md); a setting that does not apply to the format is ignored.
public struct OutputOptions: Sendable {
    /// The frames an animation or a folder of PNG frames holds; every frame when nil.
    public var frames: ClosedRange<Int>?
    /// The frame a still image (`.png`, `.svg`, `.pdf`) shows.
    public var frame: Int = 0
    /// Whether a `.png` file is an animated PNG rather than one still frame.
    public var writesAnimatedPNG = false
    /// How many times an animation plays; 0 repeats it forever (GIF, APNG, WebP).
    public var loopCount = 0
    /// WebP: lossy at this quality, 0–100 (lossless when nil). GIF: the palette's
    /// quality, 0–100 (100 when nil).
    public var quality: Int?
    /// Video: the constant rate factor, H.264 0–51 (23 when nil), VP9 0–63 (31); lower
    /// is better and larger.
    public var constantRateFactor: Int?
    /// GIF: the most colours a frame's palette holds, 2–256 (256 when nil).
    public var colorCount: Int?
    /// GIF: Floyd–Steinberg dithering, from 0 (none) to 1 (full); nil chooses.
    public var dithering: Double?
    /// H.264: full-resolution chroma (`yuv444p`) instead of the `yuv420p` every player plays.
    public var keepsFullChroma = false
    /// Whether an animation keeps the scene's frame rate past what browsers play (50 fps
    /// for GIF, 90 for WebP and APNG). When false, a faster scene is resampled to that
    /// rate and ``OutputSummary/warnings`` says so.
    public var keepsFrameRate = false
    /// Lottie (`.json`, `.lottie`): whether what Lottie cannot express is dropped, with a warning
    /// each, instead of refusing the scene.
    public var approximatesLottie = false
    /// Whether every layer's bounds and anchor point, and the physics (bodies,
    /// velocities, joints, boundaries, fields), are drawn over the frames.
    public var drawsDebugOverlay = false
    /// The worker threads that rasterize and encode frames.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// A still's time in seconds, exactly (`render --time T`); `frame` then only names it.
    package var stillTime: Double?
    /// Whether passes draw a progress bar on stderr (when it is a terminal).
    package var showsProgress = false

    /// The defaults: every frame, looping forever, lossless where the format allows.
    public init() {}

    /// The encoder's settings at `fps`.
    package func animationSettings(fps: Double) -> AnimationSettings {
        var settings = AnimationSettings(fps: fps, loopCount: loopCount, quality: quality, crf: constantRateFactor,
                                         pixelFormat: keepsFullChroma ? .yuv444p : .yuv420p)
        settings.colors = colorCount
        settings.dithering = dithering
        return settings
    }
}

// The checks `kinetic render` and `encode` make of their flags before anything is written.
extension OutputOptions {
    /// The names `--pix-fmt` takes.
    package static var pixelFormatNames: [String] { VideoPixelFormat.allCases.map(\.rawValue) }

    /// Whether the pixel format `name` keeps full chroma; nil when it names none.
    package static func keepsFullChroma(pixelFormat name: String) -> Bool? {
        VideoPixelFormat(rawValue: name).map { $0 == .yuv444p }
    }

    /// Why these settings do not apply to `format` at `fps` (a quality out of range, a
    /// setting of another format); nil when they do.
    package func problem(for format: AnimationFormat, fps: Double) -> String? {
        do { try animationSettings(fps: fps).validate(for: format) } catch {
            if case .invalidOptions(let reason) = error { return reason }
            return error.description
        }
        return nil
    }
}
