import KineticEncode
import KineticLayers
import KineticLottie
import KineticRender
import KineticScene

/// `render -o NAME.json` (or `NAME.lottie`): every frame of the scene, in order (physics
/// and particles advance frame by frame), sampled into a Lottie animation written
/// atomically, as JSON or inside a dotLottie archive (the same JSON, byte for byte).
package enum LottieOutput {
    /// Returns the keyframes written and the samples they stand for. A construct Lottie
    /// cannot express is thrown at its FILE:LINE:COL as a ``FrameRenderError`` (or, with
    /// `approximate`, is dropped with one warning per key, handed to `warn`).
    package static func write(timeline: Timeline, fps: Double, frameCount: Int, approximate: Bool, limits: SceneLimits,
                              to path: String, format: LottieFormat = .json, warn: (String) -> Void) throws -> (keyframes: Int, samples: Int) {
        let scene = timeline.scene
        var exporter = LottieExporter(size: scene.settings.size, fps: fps, background: scene.settings.background,
                                      options: LottieOptions(approximate: approximate),
                                      glyphs: { TextOutlines.path(of: $0, in: $1, toDevice: $2) },
                                      colorGlyphs: { TextOutlines.colorGlyphs(of: $0, in: $1, toDevice: $2) })
        let clock = FrameClock(timeline: timeline, maxParticles: limits.maxParticles)
        for index in 0..<frameCount {
            let frame = try clock.renderingFrame(index, fps: fps)
            do { try exporter.add(frame) } catch {
                throw FrameRenderError(message: located(error, in: scene) + " (--lottie-approximate drops it)")
            }
        }
        for warning in exporter.warnings { warn(located(warning, in: scene) + "; dropped") }
        let text = exporter.document().text
        switch format {
        case .json: try AtomicFile.write(Array(text.utf8), to: path)
        case .dotLottie:
            let archive: [UInt8]
            do { archive = try DotLottieArchive.bytes(animation: text, id: DotLottieArchive.animationID(forOutput: path)) } catch {
                throw EncodeError.cannotWrite(path: path, reason: error.description)
            }
            try AtomicFile.write(archive, to: path)
        }
        return (exporter.keyframeCounts.kept, exporter.keyframeCounts.sampled)
    }

    /// `FILE:LINE:COL: KEY: message`, as the loader reports a problem.
    private static func located(_ problem: LottieProblem, in scene: KineticScene.Scene) -> String {
        let location = scene.sourceMap?.location(of: problem.keyPath) ?? SourceLocation(file: scene.file, line: 1, column: 1)
        return SceneProblem(location: location, keyPath: problem.keyPath, message: problem.message).description
    }
}
