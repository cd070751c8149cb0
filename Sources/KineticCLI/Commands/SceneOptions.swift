import ArgumentParser
import Foundation
import KineticEncode
import KineticGeometry
import KineticScene

/// Limits of section 9 that flags can raise, shared by every command that loads scenes.
struct LimitOptions: ParsableArguments {
    @Option(help: "Largest canvas side in pixels.")
    var maxCanvasSide = SceneLimits().maxCanvasSide
    @Option(help: "Largest canvas area in pixels.")
    var maxCanvasPixels = SceneLimits().maxCanvasPixels
    @Option(help: "Most frames a render may have.")
    var maxFrames = SceneLimits().maxFrames
    @Option(help: "Most live particles one emitter may have.")
    var maxParticles = SceneLimits().maxParticles
    @Option(help: "Resolve semantic and system colors (label, systemBackground, systemBlue, …) in the light or dark appearance; overrides scene.appearance.")
    var appearance: Appearance?

    var limits: SceneLimits {
        var l = SceneLimits()
        l.maxCanvasSide = maxCanvasSide; l.maxCanvasPixels = maxCanvasPixels; l.maxFrames = maxFrames
        l.maxParticles = maxParticles
        l.appearance = appearance
        return l
    }
}

extension Appearance: ExpressibleByArgument {}

/// Loads a scene, printing problems on stderr and mapping them to exit codes.
enum SceneLoading {
    static func load(_ path: String, limits: SceneLimits) throws -> Scene {
        do {
            return try SceneLoader.load(path: path, limits: limits)
        } catch let error as SceneFileError {
            Terminal.error("\(error)")
            throw ExitStatus.noInput
        } catch let error as SceneLoadError {
            for problem in error.problems { Terminal.error(problem.description) }
            throw ExitStatus.dataError
        }
    }

    /// Prints a simulation failure; a blow-up exits 70, a value the physics refuses 65.
    /// Prints a failure met while computing frames and gives its exit status: a blown-up
    /// simulation 70, an output that cannot be written 73, any other scene problem
    /// (too many particles, an impossible joint) 65.
    static func exit(for error: Error, scene path: String) -> ExitCode {
        if let code = error as? ExitCode { return code }
        Terminal.error("\(path): \(error)")
        if let e = error as? SimulationError, case .blewUp = e.kind { return ExitStatus.software }
        if error is EncodeError { return ExitStatus.cannotCreate }
        return ExitStatus.dataError
    }
}

/// Writing to the terminal: stdout carries only what the user asked for.
enum Terminal {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func warning(_ message: String) { error("warning: \(message)") }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }
}

/// The one frame `--frame N` or `--time T` asks for, checked against the scene's frames:
/// both stop at the scene's end.
struct FrameChoice {
    /// The frame's index (0-based).
    var index: Int
    /// The time it is computed at: T itself for `--time T` (exactly there, not at the
    /// start of the frame showing it), N / fps for `--frame N`.
    var time: Double

    /// Frame N is past the end when N ≥ `frameCount`. Time T is past the end when it is
    /// after the end of the last frame, `frameCount` / fps (the duration, when that is a
    /// whole number of frames); T is shown by frame ⌊T × fps⌋, and the end itself by the
    /// last frame (the state the scene ends in).
    init(frame: Int?, time: Double?, frameCount: Int, fps: Double) throws(FrameChoiceError) {
        let last = frameCount - 1
        if let time {
            let end = Double(frameCount) / fps
            guard time <= end else { throw .timePastEnd(time: time, end: end, lastFrame: last) }
            self.index = min(Int((time * fps).rounded(.down)), last)
            self.time = time
        } else {
            let index = frame ?? 0
            guard index < frameCount else { throw .framePastEnd(frame: index, lastFrame: last) }
            self.index = index
            self.time = Double(index) / fps
        }
    }
}

/// A `--frame` or `--time` past the scene's end: a usage error (exit 64).
enum FrameChoiceError: Error, Equatable, CustomStringConvertible {
    case framePastEnd(frame: Int, lastFrame: Int)
    /// `end`: when the last frame ends, the last time `--time` accepts.
    case timePastEnd(time: Double, end: Double, lastFrame: Int)

    var description: String {
        switch self {
        case .framePastEnd(let frame, let last):
            "--frame \(frame) is past the last frame (\(last))"
        case .timePastEnd(let time, let end, let last):
            "--time \(SceneValues.format(time)) is past the scene's end (\(Self.seconds(end)) s; the last frame is \(last))"
        }
    }

    var exitCode: ExitCode { ExitStatus.usage }

    /// Computed seconds for a message: at most 6 decimals, no trailing zeros.
    static func seconds(_ t: Double) -> String {
        SceneValues.format((t * 1e6).rounded() / 1e6)
    }
}
