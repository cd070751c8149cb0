import ArgumentParser
import Foundation
import Testing
@testable import KineticCLI

/// `batch` renders each scene in a child process of kinetic: the child's command line, and
/// the child process itself.
@Suite struct BatchChildTests {
    /// Each option of `batch`, set away from its default, and how the child shows it.
    private static let forwarded: [(arguments: [String], holds: @Sendable (BatchCommand) -> Bool)] = [
        (["-o", "elsewhere"], { $0.output == "elsewhere" }),
        (["--png"], { $0.png }),
        (["--force"], { $0.force }),
        (["--frames", "2-5"], { $0.frameRange.frames == FrameRange(2...5) }),
        (["--loop", "3"], { $0.loop == 3 }),
        (["--quiet"], { $0.quiet }),
        (["--max-canvas-side", "999"], { $0.limitOptions.maxCanvasSide == 999 }),
        (["--max-canvas-pixels", "123456"], { $0.limitOptions.maxCanvasPixels == 123_456 }),
        (["--max-frames", "77"], { $0.limitOptions.maxFrames == 77 }),
        (["--max-particles", "5000"], { $0.limitOptions.maxParticles == 5000 }),
        (["--appearance", "dark"], { $0.limitOptions.appearance == .dark }),
        (["--max-memory", "1G"], { $0.limitOptions.maxMemory == "1G" }),
        (["--asset-root", "/tmp/assets"], { $0.limitOptions.assetRoot == "/tmp/assets" }),
        (["--allow-any-path"], { $0.limitOptions.allowAnyPath }),
    ]
    /// The batch's own: they shape the batch, not a scene's render.
    private static let batchOnly: Set = ["--jobs", "--parallel-scenes", "--timeout", "--help"]

    @Test func everyOptionOfBatchIsForwardedOrTheBatchsOwn() {
        let help = BatchCommand.helpMessage(columns: 200)
        let listed = help.split(separator: "\n").filter { $0.drop(while: { $0 == " " }).hasPrefix("-") }
            .flatMap { line in line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) } }
            .filter { $0.hasPrefix("--") }
        #expect(listed.count > 10, "\(help)")
        let covered = Set(Self.forwarded.compactMap { $0.arguments.first { $0.hasPrefix("--") } } + ["--output"])
        for option in listed {
            #expect(covered.contains(option) || Self.batchOnly.contains(option),
                    "\(option): add it to BatchChildTests.forwarded (or to batchOnly)")
        }
    }

    @Test func theChildParsesTheBatchsOptions() throws {
        for (arguments, holds) in Self.forwarded {
            let given = ["scenes"] + (arguments.first == "-o" ? [] : ["-o", "out"]) + arguments
            let parent = try BatchCommand.parse(given)
            let child = try BatchCommand.parse(Array(BatchCommand.childArguments(given: given, scene: "-odd name.yaml", frameJobs: 3,
                                                                                  showsProgress: false).dropFirst()))
            #expect(holds(parent), "\(arguments)")
            #expect(holds(child), "\(arguments) did not reach the child")
            #expect(child.oneScene == "-odd name.yaml" && child.sceneJobs == 3 && child.noProgress)
        }
        let shown = try BatchCommand.parse(Array(BatchCommand.childArguments(given: ["a.yaml", "-o", "out"], scene: "a.yaml",
                                                                             frameJobs: 1, showsProgress: true).dropFirst()))
        #expect(!shown.noProgress)
    }

    /// The kinetic executable beside the test bundle; nil when it was not built.
    private static var executable: String? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("kinetic").path
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let built = root.appendingPathComponent(".build/debug/kinetic").path
        return [beside, built].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the executable with `arguments`; its exit status.
    private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The real executable starts a child per scene (the unit tests render in process):
    /// the child renders only the frames `--frames` asks for, as PNGs (`--png`), and
    /// refuses the scene over `--max-frames`, so the options reached it.
    @Test func theChildProcessRendersWithTheBatchsOptions() throws {
        let executable = try #require(Self.executable, "build the kinetic product first")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try folder.write(slidingSquareScene(golden: ""), to: "scenes/slide.yaml")
        let out = folder.file("out")
        #expect(try Self.run(executable, ["batch", scene, "-o", out, "--png", "--frames", "1-2", "--quiet"]) == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: out + "/slide").sorted()
        #expect(written == ["frame-0001.png", "frame-0002.png"])
        // 25 frames over a limit of 10: the child's load refuses the scene (65).
        #expect(try Self.run(executable, ["batch", scene, "-o", folder.file("limited"), "--max-frames", "10", "--quiet"]) == 65)
        #expect(!FileManager.default.fileExists(atPath: folder.file("limited") + "/slide.gif"))
    }
}
