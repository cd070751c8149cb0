import ArgumentParser
import Kinetic

/// The quality and format flags every animated output shares (`render`, `encode`);
/// docs/outputs.md has the table of what applies where.
struct AnimationOptions: ParsableArguments {
    @Flag(help: "With a .png output: write an animated PNG (APNG) instead of one still.")
    var animated = false

    @Option(help: ArgumentHelp("0–100: lossy WebP at this quality (lossless without it); GIF palette quality (default 100).", valueName: "Q"))
    var quality: Int?

    @Option(help: ArgumentHelp("Video constant rate factor: H.264 0–51 (default 23), VP9 0–63 (default 31); lower is better.", valueName: "N"))
    var crf: Int?

    @Option(help: ArgumentHelp("GIF colours, 2–256 (default 256), the transparent index counted: at most N − 1 colours in a table of the next power of two; fewer make smaller files.", valueName: "N"))
    var colors: Int?

    @Option(help: ArgumentHelp("GIF Floyd–Steinberg dithering level, libimagequant's 0–1 (default 0.15, and 0 in a scene of few colours, whose palette holds its colours exactly): 0 or off is none (flat bands, smaller files), 1 or on is full (smoothest gradients, larger files).", valueName: "LEVEL"))
    var dither: String?

    @Option(name: .customLong("pix-fmt"), help: ArgumentHelp("H.264 chroma: yuv420p (default, plays everywhere) or yuv444p.", valueName: "FMT"))
    var pixelFormat: String?

    /// The flags as the library's options.
    func outputOptions(loop: Int) -> OutputOptions {
        var options = OutputOptions()
        options.writesAnimatedPNG = animated
        options.loopCount = loop
        options.quality = quality
        options.constantRateFactor = crf
        options.colorCount = colors
        options.dithering = dither.flatMap(Self.ditheringLevel)
        options.keepsFullChroma = pixelFormat.flatMap(OutputOptions.keepsFullChroma(pixelFormat:)) == true
        return options
    }

    /// `--dither`'s level: `off` 0, `on` 1, or a number 0…1 (range checked by the settings).
    static func ditheringLevel(_ text: String) -> Double? {
        switch text.lowercased() {
        case "off": 0
        case "on": 1
        default: Double(text).flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// Usage errors (exit 64): a flag that does not apply to the output or is out of range.
    func validate(for target: OutputTarget, loop: Int) throws {
        if let dither, Self.ditheringLevel(dither) == nil {
            throw ValidationError("--dither takes off, on or a level 0…1, not '\(dither)'")
        }
        if let pixelFormat, OutputOptions.keepsFullChroma(pixelFormat: pixelFormat) == nil {
            throw ValidationError("--pix-fmt takes " + OutputOptions.pixelFormatNames.joined(separator: " or "))
        }
        if animated {
            guard case .animation(.apng, let path) = target, path.lowercased().hasSuffix(".png") else {
                throw ValidationError("--animated goes with a .png output")
            }
        }
        guard case .animation(let format, _) = target else {
            if quality != nil || crf != nil || pixelFormat != nil || colors != nil || dither != nil {
                throw ValidationError("--quality, --crf, --pix-fmt, --colors and --dither go with an animated output (.gif, .apng, .webp, .mp4, .webm, .mov)")
            }
            return
        }
        if let problem = outputOptions(loop: loop).problem(for: format, fps: 1) { throw ValidationError(problem) }
    }

    /// Runs `body`, turning an encoder's refusal of its settings (an odd H.264 size, an
    /// encoder missing from this FFmpeg) into a usage error.
    static func usageErrors(_ body: () throws -> Void) throws {
        do { try body() } catch {
            guard let message = FailureReport.invalidOptions(error) else { throw error }
            Terminal.error(message)
            throw ExitStatus.usage
        }
    }
}
