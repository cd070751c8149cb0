import ArgumentParser
import Foundation
import Kinetic

/// `kinetic encode FRAMES -o OUT --fps N`: PNG frames to an animation.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode a folder or pattern of PNG frames as an animation (GIF, APNG, WebP, MP4, WebM, MOV).",
        discussion: """
        FRAMES is what `render -o DIR/` writes (DIR/frame-0000.png, …), possibly from several \
        shards, or a pattern such as shot-%03d.png. Every frame from the first to the last must \
        be there and of one size; a gap or a frame of another size is an error naming it. The \
        encoders and settings are render's, so the frames of a whole scene encode to the bytes \
        `render` writes directly. The animation keeps transparency when some frame has an alpha \
        channel (the frames of a scene with a clear background). Each frame `render` writes \
        carries its scene's identity, frame rate and frame count (a PNG tEXt chunk): --fps \
        defaults to that rate, and frames of different scenes (or settings) in one folder are \
        refused, naming the first that differs.

        Examples:
          kinetic encode frames/ -o scene.mp4            # the scene's fps, from the frames
          kinetic encode frames/ -o scene.mp4 --fps 60
          kinetic encode 'shot-%03d.png' -o scene.webp --fps 30 --quality 80
          kinetic encode frames/ -o scene.gif --fps 50

        Exit status: 0 done, 64 usage, 65 a gap, a size mismatch or an unreadable frame, 66 no \
        frames, 73 output not writable.
        """)

    @Argument(help: "A folder of frame-NNNN.png files, or a %d pattern.")
    var frames: String

    @Option(name: [.short, .customLong("output")], help: "Output: .gif, .apng, .webp, .mp4, .webm, .mov (or .png with --animated).")
    var output: String

    @Option(help: "Frames per second (default: the scene's, which render writes into its frames).")
    var fps: Double?

    @OptionGroup var loopOptions: LoopOptions
    var loop: Int { loopOptions.loop }

    @OptionGroup var animationOptions: AnimationOptions

    @OptionGroup var jobOptions: JobOptions
    var jobs: Int { jobOptions.jobs }

    @Flag(name: .shortAndLong, help: "No progress bar or summary on stderr.")
    var quiet = false

    func validate() throws {
        if let fps {
            guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be greater than 0") }
            if case .animation(let format, _)? = try? OutputTarget.parse(output, animated: animationOptions.animated) {
                // The settings with the real rate, as the writer checks them (not at 1 fps).
                if let problem = animationOptions.outputOptions(loop: loop).problem(for: format, fps: fps) {
                    throw ValidationError(problem)
                }
            }
        }
        let target: OutputTarget
        do { target = try OutputTarget.parse(output, animated: animationOptions.animated) } catch {
            throw ValidationError(error.description)
        }
        guard case .animation = target else {
            throw ValidationError("\(output): encode writes an animation: " + OutputTarget.animationExtensions.joined(separator: ", "))
        }
        try animationOptions.validate(for: target, loop: loop)
    }

    func run() throws {
        guard case let .animation(format, path) = try OutputTarget.parse(output, animated: animationOptions.animated) else {
            throw ExitStatus.usage
        }
        let sequence: FrameSequence
        do { sequence = try FrameSequence(source: frames) } catch {
            Terminal.error("\(error)")
            throw ExitCode(error.exitCode)
        }
        guard let fps = fps ?? sequence.origin?.fps else {
            Terminal.error("\(frames): give --fps: these frames do not say their scene's rate (render writes it into the frames it makes)")
            throw ExitStatus.usage
        }
        if let limit = format.maximumFPS, fps > limit {
            Terminal.warning("at \(fps) fps some \(format.rawValue.uppercased()) frames are shorter than browsers show (they play slower)")
        }
        var options = animationOptions.outputOptions(loop: loop)
        options.jobs = jobs
        options.showsProgress = !quiet
        let started = Date()
        do {
            try AnimationOptions.usageErrors {
                try sequence.encode(to: path, format: format, fps: fps, options: options)
            }
        } catch {
            guard let status = FailureReport.encodeStatus(error) else { throw error }
            Terminal.error("\(error)")
            throw ExitCode(status)
        }
        if !quiet {
            Terminal.error(String(format: "wrote %@ (%d frames, %@) in %.2f s", path, sequence.indices.count,
                                  ByteCount.formatFile(path), Date().timeIntervalSince(started)))
        }
    }
}
