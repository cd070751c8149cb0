import ArgumentParser
import Foundation
import Kinetic

/// Limits of section 9 that flags can raise, shared by every command that loads scenes.
struct LimitOptions: ParsableArguments {
    @Option(help: "Largest canvas side in pixels.")
    var maxCanvasSide = SceneLimits().maxCanvasSide
    @Option(help: "Largest canvas area in pixels.")
    var maxCanvasPixels = SceneLimits().maxCanvasPixels
    @Option(help: "Most frames a render may have.")
    var maxFrames = SceneLimits().maxFrames
    @Option(help: "Most live particles all emitters together may have.")
    var maxParticles = SceneLimits().maxParticles
    @Option(help: "Resolve semantic and system colors (label, systemBackground, systemBlue, …) in the light or dark appearance; overrides scene.appearance.")
    var appearance: Appearance?

    @Option(help: ArgumentHelp("Memory budget (bytes, or with K, M, G); the limits on layer instances, YAML nodes and frames in flight derive from it. A render's frames also fit what ulimit -v or a cgroup limit leaves.",
                               valueName: "SIZE"))
    var maxMemory = "4G"
    @Option(help: ArgumentHelp("Folder image assets must resolve inside (default: the scene file's folder).", valueName: "DIR"))
    var assetRoot: String?
    @Flag(help: "Trust the scene's asset paths: absolute paths, .. and symlinks leaving the asset root.")
    var allowAnyPath = false

    /// Cairo draws images up to 32767 pixels a side.
    static let largestCanvasSide = 32767

    func validate() throws {
        guard let bytes = Self.bytes(maxMemory), bytes >= 64 << 20 else {
            throw ValidationError("--max-memory takes a size of at least 64M, e.g. 2G, 512M or 1073741824")
        }
        if !(1...Self.largestCanvasSide).contains(maxCanvasSide) {
            throw ValidationError("--max-canvas-side must be 1…\(Self.largestCanvasSide) (Cairo's largest image)")
        }
        // Raised limits must fit the budget; the defaults shrink with a smaller one.
        let d = SceneLimits()
        for (flag, value, fallback, cap) in [("--max-canvas-pixels", maxCanvasPixels, d.maxCanvasPixels, bytes / 4),
                                             ("--max-frames", maxFrames, d.maxFrames, bytes / 1024),
                                             ("--max-particles", maxParticles, d.maxParticles, bytes / SceneLimits.bytesPerParticle)] {
            if value < 1 || (value != fallback && value > cap) {
                throw ValidationError("\(flag) must be 1…\(cap) with --max-memory \(maxMemory)")
            }
        }
    }

    var limits: SceneLimits {
        var l = SceneLimits()
        let bytes = Self.bytes(maxMemory) ?? l.maxMemory
        l.maxMemory = bytes
        l.maxCanvasSide = maxCanvasSide
        l.maxCanvasPixels = min(maxCanvasPixels, bytes / 4)
        l.maxFrames = min(maxFrames, bytes / 1024)
        l.maxParticles = min(maxParticles, bytes / SceneLimits.bytesPerParticle)
        l.assets.root = assetRoot
        l.assets.allowsAnyPath = allowAnyPath
        l.appearance = appearance
        return l
    }

    /// `4G`, `512M`, `64k` or a plain number of bytes; nil when malformed or absurd.
    static func bytes(_ text: String) -> Int? {
        let k = 1024.0
        let units: [Character: Double] = ["k": k, "K": k, "m": k * k, "M": k * k, "g": k * k * k, "G": k * k * k,
                                          "t": k * k * k * k, "T": k * k * k * k]
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        var factor = 1.0
        if digits.last == "B" || digits.last == "b" { digits = digits.dropLast() }
        if let last = digits.last, let f = units[last] { factor = f; digits = digits.dropLast() }
        guard let v = Double(digits), v.isFinite, v > 0, v * factor <= k * k * k * k * k else { return nil }
        return Int(v * factor)
    }
}

extension Appearance: ExpressibleByArgument {}

/// Loads a scene, printing problems on stderr and mapping them to exit codes.
enum SceneLoading {
    static func load(_ path: String, limits: SceneLimits) throws -> Scene {
        do {
            return try Scene(path: path, limits: limits)
        } catch let error as SceneFileError {
            Terminal.error("\(error)")
            throw ExitStatus.noInput
        } catch let error as SceneLoadError {
            for problem in error.problems { Terminal.error(problem.description) }
            throw ExitStatus.dataError
        }
    }

    /// Prints a failure met while computing frames and gives its exit status: a blown-up
    /// simulation 70, an output that cannot be written 73, any other scene problem
    /// (too many particles, an impossible joint) 65.
    static func exit(for error: Error, scene path: String) -> ExitCode {
        if let code = error as? ExitCode { return code }
        let report = FailureReport(error, scene: path)
        Terminal.error(report.message)
        return ExitCode(report.status)
    }
}

/// Writing to the terminal: stdout carries only what the user asked for.
enum Terminal {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func warning(_ message: String) { error("warning: \(message)") }
}

extension FrameChoiceError {
    /// A usage error.
    var exitCode: ExitCode { ExitStatus.usage }
}
