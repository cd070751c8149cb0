import ArgumentParser
import Foundation
import KineticScene

/// Limits of section 9 that flags can raise, shared by every command that loads scenes.
struct LimitOptions: ParsableArguments {
    @Option(help: "Largest canvas side in pixels.")
    var maxCanvasSide = SceneLimits().maxCanvasSide
    @Option(help: "Largest canvas area in pixels.")
    var maxCanvasPixels = SceneLimits().maxCanvasPixels
    @Option(help: "Most frames a render may have.")
    var maxFrames = SceneLimits().maxFrames

    var limits: SceneLimits {
        var l = SceneLimits()
        l.maxCanvasSide = maxCanvasSide; l.maxCanvasPixels = maxCanvasPixels; l.maxFrames = maxFrames
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
    static func exit(for error: SimulationError, scene path: String) -> ExitCode {
        Terminal.error("\(path): \(error)")
        if case .blewUp = error.kind { return ExitStatus.software }
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
