import KineticLayers
import KineticScene

extension FrameClock {
    /// Frame `index` at `fps` for a command: a frame over a limit (particles, layer
    /// instances) is printed as its located problem and exits 65; a physics failure is
    /// rethrown for `SceneLoading.exit(for:scene:)` (a blow-up exits 70).
    func commandFrame(_ index: Int, fps: Double? = nil) throws -> SceneFrame {
        try commandFrame(at: Double(index) / (fps ?? scene.settings.fps), index: index)
    }

    /// The frame at `time` (frame `index`) for a command, as `commandFrame(_:fps:)`.
    func commandFrame(at time: Double, index: Int) throws -> SceneFrame {
        do {
            return try frame(at: time, index: index)
        } catch {
            throw Self.commandError(error, scene: scene)
        }
    }

    /// What a command does with a frame it cannot have: see `commandFrame(_:fps:)`.
    static func commandError(_ error: FrameError, scene: Scene) -> Error {
        if case .simulation(let e) = error { return e }
        Terminal.error(FrameRenderError(locating: error, in: scene).message)
        return ExitStatus.dataError
    }
}
