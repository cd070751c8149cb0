import Kinetic
import KineticPreview

/// The library's preview session as KineticPreview's server asks for a scene.
final class PreviewFrames: PreviewScene {
    private let session: ScenePreview

    private init(_ session: ScenePreview) { self.session = session }

    /// Loads the scene at `path`: every problem as the CLI prints it on failure.
    static func load(path: String, limits: SceneLimits) -> Result<any PreviewScene, PreviewLoadFailure> {
        switch ScenePreview.load(path: path, limits: limits) {
        case .success(let session): .success(PreviewFrames(session))
        case .failure(let failure): .failure(PreviewLoadFailure(messages: failure.messages))
        }
    }

    var info: PreviewSceneInfo {
        PreviewSceneInfo(fps: session.framesPerSecond, frameCount: session.frameCount,
                         width: session.size.width, height: session.size.height, scale: session.scale,
                         files: session.files, exportFormats: session.exportFormats)
    }

    func png(frame index: Int, debug: Bool) throws -> [UInt8] { try session.png(frame: index, debug: debug) }

    func inspect(frame index: Int) throws -> String { try session.inspect(frame: index) }

    func export(format name: String) throws -> String { try session.export(format: name, warn: Terminal.warning) }
}
