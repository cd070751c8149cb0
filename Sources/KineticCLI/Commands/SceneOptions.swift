import ArgumentParser
import Foundation
import KineticEncode
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

    var limits: SceneLimits {
        var l = SceneLimits()
        l.maxCanvasSide = maxCanvasSide; l.maxCanvasPixels = maxCanvasPixels; l.maxFrames = maxFrames
        l.maxParticles = maxParticles
        return l
    }
}

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
