import Foundation
import KineticEncode
import KineticLayers
import KineticRender
import KineticScene

// What the `kinetic` command asks of a loaded scene besides writing it: `inspect`'s
// report at an exact time, `validate`'s checks past loading, `batch`'s inputs.
extension Scene {
    /// The scene file and every file it reads (image assets, imported SVGs): an output
    /// newer than all of them is up to date.
    package var inputFiles: [String] { model.inputFiles }

    /// `kinetic inspect`'s JSON of frame `index` computed at `time` exactly (`--time T`
    /// need not be the start of its frame).
    ///
    /// - Throws: What a render throws for that frame (``FrameRenderError``, a
    ///   `SimulationError`).
    package func inspectionJSON(atTime time: Double, frame index: Int, particles: Bool) throws -> String {
        let clock = FrameClock(scene: model, limits: limits)
        let state = try clock.renderingFrame(at: time, index: index)
        return InspectReport.json(for: state, items: clock.itemStates, particles: particles)
    }

    /// What `kinetic validate` checks past loading: the canvas at the scene's own scale
    /// (located at `scene.size`), then every frame's limits and physics.
    ///
    /// - Throws: ``FrameRenderError`` with the located problem, or the `SimulationError`
    ///   of a simulation that fails.
    package func checkRendering() throws {
        if let problem = limits.canvasProblem(size: model.settings.size, scale: model.settings.scale) {
            let location = model.sourceMap?.location(of: "scene.size") ?? SourceLocation(file: model.file, line: 1, column: 1)
            throw FrameRenderError(message: SceneProblem(location: location, keyPath: "scene.size", message: problem).description)
        }
        if let failure = FrameClock.runtimeFailure(in: model, limits: limits) {
            throw FrameClock.renderingError(failure, scene: model)
        }
    }

    /// The JSON Schema of scene files (`kinetic schema`), for editors' completion and checks.
    package static var jsonSchema: String { SceneSchema.json() }
}

/// The sysexits status of an error met while computing or writing frames, and the line
/// the command prints for it.
package struct FailureReport {
    package var message: String
    package var status: Int32

    /// A blown-up simulation 70, an output that cannot be written 73, any other scene
    /// problem (a frame over a limit, an impossible joint) 65. A failure placed in the
    /// file already starts with FILE:LINE:COLUMN; others are prefixed with `path`.
    package init(_ error: any Error, scene path: String) {
        if let error = error as? FrameRenderError {
            (message, status) = (error.message, 65)
            return
        }
        let located = (error as? SimulationError)?.place != nil
        message = located ? "\(error)" : "\(path): \(error)"
        if let e = error as? SimulationError, case .blewUp = e.kind {
            status = 70
        } else if error is EncodeError {
            status = 73
        } else if let e = error as? RenderError {
            if case .outOfMemory = e { status = 70 } else { status = 73 }
        } else {
            status = 65
        }
    }

    /// The reason of an encoder's refusal of its settings (an odd H.264 size, an encoder
    /// missing from this FFmpeg): a usage error. Nil for any other error.
    package static func invalidOptions(_ error: any Error) -> String? {
        guard let error = error as? EncodeError, case .invalidOptions = error else { return nil }
        return error.description
    }

    /// The sysexits status of a failed `encode`: 65 for a frame that cannot be read or is
    /// of another size, 73 for an output that cannot be written; nil for an error that is
    /// not the encoder's.
    package static func encodeStatus(_ error: any Error) -> Int32? {
        guard let error = error as? EncodeError else { return nil }
        switch error {
        case .cannotRead, .invalidImage: return 65
        default: return 73
        }
    }
}

extension SceneRenderError {
    /// The sysexits status of a scene the library cannot render as asked: 65 for its
    /// assets, 64 for a limit a flag can change, 71 for the system's memory limit.
    package var exitCode: Int32 {
        switch self {
        case .assets: 65
        case .outOfLimits: 64
        case .outOfMemory: 71
        }
    }
}

/// Temporary files of unfinished outputs (removed when the command is interrupted).
package enum UnfinishedOutputs {
    package static func removeAll() { TemporaryFiles.removeAll() }
}
