import Foundation
import KineticEncode
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// A loaded scene for `kinetic preview` (the command hands it to KineticPreview's server): frames as `render --frame N` makes them
/// (the same `SceneRenderer`, simulation and particles, `render --debug`'s settings for the
/// debug overlay), and `inspect`'s report.
///
/// Simulation is incremental: each variant (plain, debug) keeps its physics and particle
/// state, so frames asked in increasing order step forward from the last one. An earlier
/// frame starts that variant again from 0 (Chipmunk's space cannot be copied, so there are
/// no checkpoints); the session's frame cache makes going back over frames seen cheap.
package final class ScenePreview {
    private let path: String
    private let limits: SceneLimits
    private let scene: KineticScene.Scene
    private var plain: Variant
    private var debugged: Variant?

    private struct Variant {
        var sceneRenderer: SceneRenderer
        let clock: FrameClock

        init(scene: KineticScene.Scene, limits: SceneLimits, debug: Bool) throws(SceneRenderError) {
            var scene = scene
            if debug { scene.dynamics?.debug = true }
            sceneRenderer = try SceneRenderer(scene: scene, limits: limits, jobs: 1, showsProgress: false)
            sceneRenderer.renderer.debug = debug
            clock = FrameClock(timeline: sceneRenderer.timeline, maxParticles: limits.maxParticles)
        }

        /// Frame `index`'s presentation tree, at time index / fps as `render --frame N`.
        func tree(_ index: Int) throws -> SceneFrame {
            let choice = try FrameChoice(frame: index, time: nil, frameCount: sceneRenderer.scene.frameCount,
                                         fps: sceneRenderer.fps)
            // Over a limit the located problem is the error the page shows.
            do { return try clock.frame(at: choice.time, index: choice.index) } catch {
                throw PreviewFrameError(message: error.problem(in: clock.scene)?.description ?? "\(clock.scene.file): \(error)")
            }
        }
    }

    private init(path: String, scene: KineticScene.Scene, limits: SceneLimits) throws(SceneRenderError) {
        self.path = path
        self.scene = scene
        self.limits = limits
        plain = try Variant(scene: scene, limits: limits, debug: false)
    }

    /// Loads the scene at `path`; on failure, every problem as the command prints it.
    package static func load(path: String, limits: SceneLimits) -> Result<ScenePreview, ScenePreviewFailure> {
        do {
            let scene = try SceneLoader.load(path: path, limits: limits)
            return .success(try ScenePreview(path: path, scene: scene, limits: limits))
        } catch let error as SceneLoadError {
            return .failure(ScenePreviewFailure(messages: error.problems.map(\.description)))
        } catch let error as SceneRenderError {
            return .failure(ScenePreviewFailure(messages: ["\(path): \(error)"]))
        } catch {
            return .failure(ScenePreviewFailure(messages: ["\(error)"]))
        }
    }

    package var framesPerSecond: Double { scene.settings.fps }
    package var frameCount: Int { scene.frameCount }
    /// The canvas in points.
    package var size: Size { scene.settings.size }
    package var scale: Double { scene.settings.scale }
    /// The scene file and every asset it reads: watched for changes.
    package var files: [String] { [path] + scene.inputFiles }
    /// The formats ``export(format:warn:)`` writes.
    package var exportFormats: [String] { AnimationFormat.allCases.map(\.rawValue) }

    package func png(frame index: Int, debug: Bool) throws -> [UInt8] {
        if debug {
            let variant = try debugged ?? Variant(scene: scene, limits: limits, debug: true)
            let tree = try variant.tree(index)
            debugged = variant
            return try PNGWriter.encode(variant.sceneRenderer.renderer.render(tree))
        }
        let tree = try plain.tree(index)
        return try PNGWriter.encode(plain.sceneRenderer.renderer.render(tree))
    }

    package func inspect(frame index: Int) throws -> String {
        let tree = try plain.tree(index)
        return InspectReport.json(for: tree, items: plain.clock.itemStates)
    }

    /// The file `render SCENE -o NAME.FORMAT` writes (GIF, APNG, WebP, MP4, WebM or MOV),
    /// next to the scene; a frame-rate warning goes to `warn`.
    package func export(format name: String, warn: (String) -> Void) throws -> String {
        guard let format = AnimationFormat(rawValue: name) else { throw EncodeError.invalidOptions(reason: "no format .\(name)") }
        var scene = self.scene
        if let warning = SceneRenderer.applyFrameRateRule(to: &scene, format: format, fpsGiven: false) { warn(warning) }
        let renderer = try SceneRenderer(scene: scene, limits: limits, jobs: ProcessInfo.processInfo.activeProcessorCount,
                                         showsProgress: false)
        let output = ((path as NSString).deletingPathExtension) + "." + format.rawValue
        let frames = try renderer.frames(nil)
        try renderer.renderAnimation(frames: frames, to: output, format: format,
                                     settings: AnimationSettings(fps: renderer.fps, loopCount: 0))
        return "wrote \(output) (\(frames.count) frames, \(ByteCount.formatFile(output)))"
    }
}

/// A preview frame that cannot be had, with the message `render` prints for it.
package struct PreviewFrameError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// Why a scene cannot be previewed: every problem, as the command prints it.
package struct ScenePreviewFailure: Error {
    package var messages: [String]
}
