import ArgumentParser
import Foundation
import Kinetic

/// `kinetic render SCENE -o OUT`.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to an animation (GIF, APNG, WebP, MP4, WebM, MOV), PNG frames, or one still frame.",
        discussion: """
        The output's spelling picks the format:
          out.gif               an animated GIF (libimagequant palettes)
          out.apng              an animated PNG, full alpha (or out.png --animated)
          out.webp              an animated WebP, full alpha; lossless or --quality
          out.mp4               H.264 video, BT.709 (--crf, --pix-fmt yuv444p)
          out.webm              VP9 video, alpha on a clear background (--crf)
          out.mov               ProRes 4444 video with alpha
          frames/  or  frames   a folder of PNG frames frame-0000.png, frame-0001.png, …
          shot-%03d.png         PNG frames named by the pattern
          still.png             one PNG frame (with --frame N or --time T)
          still.svg, still.pdf  one vector frame (with --frame N or --time T)
          anim.json             a Lottie animation (docs/lottie.md; --lottie-approximate)
          anim.lottie           the same Lottie in a dotLottie archive (ZIP, deflated)

        Any other extension is a usage error. Files appear only when complete: \
        each is written under a temporary name and renamed. See docs/outputs.md.

        Examples:
          kinetic render scenes/jump-star.yaml -o star.gif
          kinetic render scene.yaml -o frames/ --frames 0-49 --jobs 4
          kinetic render scene.yaml -o clip.mp4 --crf 18
          kinetic render scene.yaml -o sticker.webp --quality 80
          kinetic render scene.yaml -o cover.png --time 1.25 --scale 3
          kinetic render scene.yaml --contact-sheet sheet.png

        Exit status: 0 done, 64 usage, 65 invalid scene, 66 missing input, 70 simulation failure \
        or out of memory, 71 too little memory under ulimit -v or a cgroup limit, 73 output not \
        writable.
        """)

    @Argument(help: "The scene file (.yaml, .yml or .json).")
    var scene: String

    @Option(name: [.short, .customLong("output")], help: "Output: .gif/.apng/.webp/.mp4/.webm/.mov, a folder, a %04d pattern, .png/.svg/.pdf, .json/.lottie.")
    var output: String?

    @Option(help: "Frames per second (overrides the scene's).")
    var fps: Double?

    @Option(help: "Duration in seconds (overrides the scene's).")
    var duration: Double?

    @OptionGroup var frameRange: FrameRangeOptions

    @Option(help: "The single frame to write for .png/.svg/.pdf outputs, at most the last frame.")
    var frame: Int?

    @Option(help: "The time in seconds of the single frame to write for .png/.svg/.pdf outputs, up to the scene's end.")
    var time: Double?

    @Option(help: "Pixels per point (overrides the scene's).")
    var scale: Double?

    @Option(help: "Background color (overrides the scene's), e.g. \"#FFFFFF\" or clear.")
    var background: String?

    @Flag(help: "Overlay every layer's bounds and anchor point, and the physics: bodies, velocities, joints, boundaries, fields (as dynamics.debug).")
    var debug = false

    @OptionGroup var loopOptions: LoopOptions
    var loop: Int { loopOptions.loop }

    @OptionGroup var animationOptions: AnimationOptions

    @OptionGroup var jobOptions: JobOptions
    var jobs: Int { jobOptions.jobs }

    @Option(help: ArgumentHelp("Also write a grid of evenly spaced frames to this PNG.", valueName: "FILE.png"))
    var contactSheet: String?

    @Flag(help: ArgumentHelp("Simulate and rasterize every frame but write nothing (times the renderer alone).", visibility: .hidden))
    var discard = false

    @Flag(name: .shortAndLong, help: "No progress bar or summary on stderr.")
    var quiet = false

    @OptionGroup var limitOptions: LimitOptions

    @Flag(help: "For a .json or .lottie (Lottie) output: drop what Lottie cannot express, with a warning per key, instead of refusing the scene.")
    var lottieApproximate = false

    func validate() throws {
        guard output != nil || contactSheet != nil || discard else { throw ValidationError("give an output with -o (or --contact-sheet)") }
        // Options that contradict each other are refused, never silently one of them.
        if discard, output != nil || contactSheet != nil {
            throw ValidationError("--discard writes nothing: give it without -o and --contact-sheet")
        }
        if output?.isEmpty == true { throw ValidationError("-o needs a file or folder name, not an empty one") }
        if let fps, !(fps.isFinite && fps > 0) { throw ValidationError("--fps must be greater than 0") }
        if let duration, !(duration.isFinite && duration > 0) { throw ValidationError("--duration must be greater than 0") }
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be greater than 0") }
        if frame != nil, time != nil { throw ValidationError("give --frame or --time, not both") }
        if let frame, frame < 0 { throw ValidationError("--frame must not be negative") }
        if let time, !(time.isFinite && time >= 0) { throw ValidationError("--time must be a finite number ≥ 0") }
        if let output {
            let target: OutputTarget
            do { target = try OutputTarget.parse(output, animated: animationOptions.animated) } catch {
                throw ValidationError(error.description)
            }
            try animationOptions.validate(for: target, loop: loop)
            if target.isSingleFrame, frame == nil, time == nil {
                throw ValidationError("\(output): a single-image output needs --frame N or --time T")
            }
            if !target.isSingleFrame, frame != nil || time != nil {
                throw ValidationError("--frame and --time go with a .png, .svg or .pdf output")
            }
            if target.isSingleFrame, frameRange.frames != nil {
                throw ValidationError("--frames goes with an animation or a frames folder; a single image takes --frame N")
            }
            if target.isLottie, frameRange.frames != nil {
                throw ValidationError("--frames does not go with a .json or .lottie (Lottie) output: it holds every frame")
            }
            if case .pngFrames(let pattern) = target, !OutputTarget.isValidPattern(pattern) {
                throw ValidationError("\(output): a frame pattern needs exactly one %d, at most 2 digits wide (e.g. frame-%04d.png)")
            }
        }
        if lottieApproximate, output.flatMap({ try? OutputTarget.parse($0) })?.isLottie != true {
            throw ValidationError("--lottie-approximate goes with a .json or .lottie (Lottie) output")
        }
        if let contactSheet, !contactSheet.lowercased().hasSuffix(".png") {
            throw ValidationError("--contact-sheet writes a .png file")
        }
    }

    func run() throws {
        var loaded = try SceneLoading.load(self.scene, limits: limitOptions.limits)
        let target = try output.map { try OutputTarget.parse($0, animated: animationOptions.animated) }
        try applyOverrides(to: &loaded)
        let scene = loaded.model
        // A still's frame is checked before any asset is decoded.
        var still: FrameChoice?
        if target?.isSingleFrame == true { still = try frameChoice(frameCount: scene.frameCount, fps: scene.settings.fps) }

        // What killed runs and longer renders left beside the outputs goes first.
        for path in [output, contactSheet].compactMap({ $0 }) {
            if case .pngFrames(let pattern)? = try? OutputTarget.parse(path) {
                StaleOutputs.removeTemporaries(besides: pattern, warn: Terminal.warning)
                StaleOutputs.removeFrames(of: pattern, from: scene.frameCount, warn: Terminal.warning)
            } else {
                StaleOutputs.removeTemporaries(besides: path, warn: Terminal.warning)
            }
        }
        let started = Date()
        do {
            if let target {
                // The library writes every format; the command prints what it wrote.
                var options = animationOptions.outputOptions(loop: loop)
                options.frames = frameRange.frames?.range
                if let still { (options.frame, options.stillTime) = (still.index, still.time) }
                options.keepsFrameRate = fps != nil
                options.approximatesLottie = lottieApproximate
                options.drawsDebugOverlay = debug
                options.jobs = jobs
                options.showsProgress = !quiet
                var written: OutputSummary?
                try rendering {
                    try AnimationOptions.usageErrors {
                        written = try SceneOutput.write(scene, limits: limitOptions.limits, to: target, options: options,
                                                        warn: Terminal.warning)
                    }
                }
                if let written { report(written, target: target, started: started) }
            }
            if discard || contactSheet != nil {
                var sceneRenderer: SceneRenderer?
                try rendering {
                    sceneRenderer = try SceneRenderer(scene: scene, limits: limitOptions.limits, jobs: jobs, showsProgress: !quiet)
                }
                guard var sceneRenderer else { return }
                sceneRenderer.renderer.debug = debug
                if discard {
                    let range = try frameRange(sceneRenderer)
                    try sceneRenderer.discard(frames: range)
                    summary("rasterized \(range.count) frames", started: started)
                }
                if let contactSheet {
                    try writeContactSheet(sceneRenderer, count: scene.frameCount, path: contactSheet)
                    summary("wrote \(contactSheet)", started: started)
                }
            }
        } catch {
            throw SceneLoading.exit(for: error, scene: self.scene)
        }
    }

    /// Runs `body`; a scene it cannot render as asked (over a limit, its assets missing,
    /// too little memory) is printed with the scene's path and exits with its status.
    private func rendering(_ body: () throws -> Void) throws {
        do { try body() } catch let error as SceneRenderError {
            Terminal.error("\(self.scene): \(error)")
            throw ExitCode(error.exitCode)
        }
    }

    /// The summary line of what the library wrote.
    private func report(_ written: OutputSummary, target: OutputTarget, started: Date) {
        switch target {
        case .png(let path), .svg(let path), .pdf(let path):
            summary("wrote \(path)", started: started)
        case .animation(_, let path):
            summary("wrote \(path) (\(written.frameCount) frames, \(ByteCount.formatFile(path)))", started: started)
        case .lottie(_, let path):
            let keyframes = written.lottieKeyframes.map { "\($0.kept) keyframes of \($0.sampled) samples, " } ?? ""
            summary("wrote \(path) (\(written.frameCount) frames, \(keyframes)\(ByteCount.formatFile(path)))", started: started)
        case .pngFrames(let pattern):
            let first = OutputTarget.fileName(pattern: pattern, index: frameRange.frames?.range.lowerBound ?? 0)
            summary("wrote \(written.frameCount) frames to \(first) …", started: started)
        }
    }

    /// Command-line overrides of the scene's settings, through the library's setters (the
    /// formats' frame-rate rule is the library's, applied when it writes).
    private func applyOverrides(to scene: inout Scene) throws {
        if let scale { scene.scale = scale }
        if duration != nil || fps != nil {
            do { try scene.setTiming(framesPerSecond: fps, duration: duration) } catch {
                Terminal.error("--duration/--fps: \(error.message)")
                throw ExitStatus.usage
            }
        }
        if debug { scene.drawsDebugOverlay = true }
        if let background {
            do { try scene.setBackgroundColor(background) } catch {
                Terminal.error("--background: \(error.message)")
                throw ExitStatus.usage
            }
        }
    }

    /// The still's frame (`--frame` or `--time`), within the scene's frames.
    private func frameChoice(frameCount: Int, fps: Double) throws -> FrameChoice {
        do { return try FrameChoice(frame: frame, time: time, frameCount: frameCount, fps: fps) } catch {
            Terminal.error("\(error)")
            throw error.exitCode
        }
    }

    private func frameRange(_ sceneRenderer: SceneRenderer) throws -> [Int] {
        do { return try sceneRenderer.frames(frameRange.frames?.range) } catch {
            Terminal.error("\(error)")
            throw ExitCode(error.exitCode)
        }
    }

    /// The contact sheet (the library's); its memory budget's refusals are printed as
    /// `--contact-sheet` problems.
    private func writeContactSheet(_ sceneRenderer: SceneRenderer, count: Int, path: String) throws {
        do {
            try sceneRenderer.writeContactSheet(frameCount: count, maxMemory: limitOptions.limits.maxMemory, to: path)
        } catch let error as SceneRenderError {
            Terminal.error("--contact-sheet: \(error)")
            throw ExitCode(error.exitCode)
        } catch let error as ContactSheetTooLarge {
            let over = error.ceiling.map { "more than \($0.name) leaves" } ?? "over --max-memory \(limitOptions.maxMemory)"
            Terminal.error("--contact-sheet: \(error.frames) frames of \(error.width)×\(error.height) px need about "
                           + "\(ByteCount.format(error.bytes)), \(over) (lower --scale)")
            throw error.ceiling == nil ? ExitStatus.usage : ExitStatus.systemError
        }
    }

    private func summary(_ message: String, started: Date) {
        guard !quiet else { return }
        Terminal.error(String(format: "%@ in %.2f s", message, Date().timeIntervalSince(started)))
    }
}
