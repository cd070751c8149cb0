import KineticLayers
import KineticScene

extension FrameClock {
    /// Frame `index` at `fps` for a render: a frame over a limit (particles, layer
    /// instances) throws its located problem as a ``FrameRenderError``; a physics failure
    /// throws its `SimulationError` (the command exits 70 for a blow-up).
    package func renderingFrame(_ index: Int, fps: Double? = nil) throws -> SceneFrame {
        try renderingFrame(at: Double(index) / (fps ?? scene.settings.fps), index: index)
    }

    /// The frame at `time` (frame `index`), as ``renderingFrame(_:fps:)``.
    package func renderingFrame(at time: Double, index: Int) throws -> SceneFrame {
        do {
            return try frame(at: time, index: index)
        } catch {
            throw Self.renderingError(error, scene: scene)
        }
    }

    /// What a render makes of a frame it cannot have (see ``renderingFrame(_:fps:)``);
    /// `validate` reports a scene's runtime failure as this too.
    package static func renderingError(_ error: FrameError, scene: KineticScene.Scene) -> any Error {
        if case .simulation(let e) = error { return e }
        return FrameRenderError(locating: error, in: scene)
    }
}

extension FrameRenderError {
    /// A frame over a limit, at its FILE:LINE:COL and key path when the scene places it.
    package init(locating error: FrameError, in scene: KineticScene.Scene) {
        self.init(message: error.problem(in: scene).map(\.description) ?? "\(scene.file): \(error)")
    }
}
