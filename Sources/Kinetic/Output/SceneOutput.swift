import Foundation
import KineticEncode
import KineticRender
import KineticScene

/// Writes a scene model to an output, the one way `kinetic render` and
/// ``Scene/write(to:options:)`` both write: the format's frame-rate rule, the memory
/// budget, the encoders. Errors are thrown as the stages throw them
/// (``SceneRenderError``, `EncodeError`, `SimulationError`, ``FrameRenderError``), so the
/// command can give each its exit status.
package enum SceneOutput {
    package static func write(_ model: KineticScene.Scene, limits: SceneLimits, to target: OutputTarget,
                              options: OutputOptions, warn: (String) -> Void) throws -> OutputSummary {
        var model = model
        var warnings: [String] = []
        func note(_ message: String) { warnings.append(message); warn(message) }
        if options.drawsDebugOverlay { model.dynamics?.debug = true }
        if case .animation(let format, _) = target {
            if let warning = SceneRenderer.applyFrameRateRule(to: &model, format: format, fpsGiven: options.keepsFrameRate) {
                note(warning)
            }
            if format == .mp4, model.settings.background.mayBeTransparent {
                note("MP4 has no alpha: transparent pixels show over black (.webm, .mov, .webp and .apng keep them)")
            }
            try options.animationSettings(fps: model.settings.fps).validate(for: format)
        }
        // A still's frame is checked before any asset is decoded.
        if target.isSingleFrame, !(0..<model.frameCount).contains(options.frame) {
            throw FrameRenderError(message: "frame \(options.frame) is outside the scene's frames 0-\(model.frameCount - 1)")
        }
        var sceneRenderer = try SceneRenderer(scene: model, limits: limits, jobs: options.jobs,
                                              showsProgress: options.showsProgress, warn: note)
        sceneRenderer.renderer.debug = options.drawsDebugOverlay
        let renderer = sceneRenderer.renderer
        switch target {
        case .png(let path), .svg(let path), .pdf(let path):
            let clock = FrameClock(timeline: sceneRenderer.timeline, maxParticles: limits.maxParticles)
            let time = options.stillTime ?? Double(options.frame) / sceneRenderer.fps
            let tree = try clock.renderingFrame(at: time, index: options.frame)
            switch target {
            case .svg: try AtomicFile.write(renderer.vectorData(tree, format: .svg, for: path), to: path)
            case .pdf: try AtomicFile.write(renderer.vectorData(tree, format: .pdf, for: path), to: path)
            default: try PNGWriter.write(renderer.rasterize(tree), to: path)
            }
            return OutputSummary(frameCount: 1, warnings: warnings)
        case let .animation(format, path):
            let frames = try sceneRenderer.frames(options.frames)
            try sceneRenderer.renderAnimation(frames: frames, to: path, format: format,
                                              settings: options.animationSettings(fps: sceneRenderer.fps))
            return OutputSummary(frameCount: frames.count, warnings: warnings)
        case .pngFrames(let pattern):
            let frames = try sceneRenderer.frames(options.frames)
            try sceneRenderer.renderPNGFrames(frames: frames, pattern: pattern)
            return OutputSummary(frameCount: frames.count, warnings: warnings)
        case let .lottie(format, path):
            // Lottie holds every frame: physics and particles advance frame by frame.
            let written = try LottieOutput.write(timeline: sceneRenderer.timeline, fps: sceneRenderer.fps,
                                                 frameCount: model.frameCount, approximate: options.approximatesLottie,
                                                 limits: limits, to: path, format: format, warn: note)
            var summary = OutputSummary(frameCount: model.frameCount, warnings: warnings)
            summary.lottieKeyframes = (written.keyframes, written.samples)
            return summary
        }
    }
}
