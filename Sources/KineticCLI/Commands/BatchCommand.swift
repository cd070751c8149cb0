import ArgumentParser
import Foundation
import Kinetic
import Synchronization

/// `kinetic batch [DIR|SCENE…] -o OUTDIR`: render many scenes, report them in a table.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render every scene of folders or a list to OUTDIR/NAME.gif (or PNG frame folders).",
        discussion: """
        A folder stands for its .yaml, .yml and .json files. An output newer than its scene and \
        the scene's image assets is left alone (--force renders it anyway). A scene that fails \
        is reported and the others still render; a table of every scene (frames, seconds, size, \
        status) ends the run on stderr. Each scene renders in a child process of kinetic, so \
        even one that crashes or is killed is only its own row (with its real exit status and \
        message).

        Parallelism: --jobs threads in all (default: every core). Scenes render one after \
        another, each rasterizing and encoding its frames on all --jobs threads, which keeps \
        memory to one scene's frames in flight and the log in order; --parallel-scenes S renders \
        S scenes at once with --jobs / S threads each, for folders of many short scenes whose \
        sequential parts (simulation, GIF writing) would leave cores idle.

        Output is deterministic, so a big batch can be sharded across machines with any job \
        runner: give each machine a different list of scenes, or the same scene with --png and a \
        different --frames range.

        Examples:
          kinetic batch scenes -o out/
          kinetic batch scenes/a.yaml scenes/b.yaml -o out/ --png --frames 0-49
          kinetic batch scenes -o out/ --force --parallel-scenes 2

        --timeout SECONDS stops a scene's render that takes longer (its row says "timed out"; \
        the others go on). SIGINT, SIGTERM and SIGHUP reach the scene being rendered, which \
        removes its temporary files before the batch exits.

        Exit status: 0 when every scene rendered or was up to date, else the status of the first \
        scene that failed (64 usage, 65 invalid, 66 missing, 70 internal, 73 not writable, 75 \
        timed out); 73 at once when OUTDIR cannot be created.
        """)

    @Argument(help: "Scene files or folders of them (default: scenes).")
    var inputs: [String] = []

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The output folder.", valueName: "OUTDIR"))
    var output: String

    @Flag(help: "Write PNG frame folders OUTDIR/NAME/frame-NNNN.png instead of GIFs.")
    var png = false

    @Flag(help: "Render even when an output is newer than its scene and assets.")
    var force = false

    @OptionGroup var frameRange: FrameRangeOptions

    @OptionGroup var jobOptions: JobOptions
    /// Worker threads in all, shared by the scenes rendered at once.
    var jobs: Int { jobOptions.jobs }

    @Option(help: "Scenes rendered at once, sharing the --jobs threads.")
    var parallelScenes = 1

    @Option(help: ArgumentHelp("Stop a scene's render after SECONDS (its row: timed out); the others go on.", valueName: "SECONDS"))
    var timeout: Double?

    @OptionGroup var loopOptions: LoopOptions
    var loop: Int { loopOptions.loop }

    @Flag(name: .shortAndLong, help: "Report only failures: no progress, no table.")
    var quiet = false

    @OptionGroup var limitOptions: LimitOptions

    /// Set on the child process that renders one scene for the batch: that scene (see
    /// `isolated`).
    @Option(help: .hidden)
    var oneScene: String?

    /// The child's share of the batch's threads (its `--jobs`, as given, is the batch's).
    @Option(help: .hidden)
    var sceneJobs: Int?

    @Flag(help: .hidden)
    var noProgress = false

    func validate() throws {
        if parallelScenes < 1 { throw ValidationError("--parallel-scenes must be at least 1") }
        if let timeout, !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be more than 0 and at most 86400 seconds") }
    }

    /// What became of one scene.
    struct Row: Sendable {
        enum Status: Sendable {
            case rendered
            case upToDate
            case failed(ExitCode, String)
        }
        var scene: String
        var frames: Int?
        var seconds: Double
        var bytes: Int?
        var status: Status
    }

    /// A row as the child process reports it on stdout (one JSON line).
    private struct RowReport: Codable {
        var frames: Int?
        var seconds: Double
        var bytes: Int?
        /// `rendered`, `upToDate` or `failed`.
        var status: String
        var code: Int32
        var message: String

        init(_ row: Row) {
            frames = row.frames; seconds = row.seconds; bytes = row.bytes; code = 0; message = ""
            switch row.status {
            case .rendered: status = "rendered"
            case .upToDate: status = "upToDate"
            case .failed(let c, let m): status = "failed"; code = c.rawValue; message = m
            }
        }

        func row(scene: String) -> Row {
            let s: Row.Status = switch status {
            case "rendered": .rendered
            case "upToDate": .upToDate
            default: .failed(ExitCode(code), message)
            }
            return Row(scene: scene, frames: frames, seconds: seconds, bytes: bytes, status: s)
        }
    }

    func run() throws {
        if let path = oneScene {
            // The child: one scene, its row on stdout, its status as the exit code.
            let row = render(path, frameJobs: sceneJobs ?? jobs, showsProgress: !noProgress)
            if let data = try? JSONEncoder().encode(RowReport(row)) {
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            }
            if case .failed(let code, _) = row.status { throw code }
            return
        }
        let scenes = try scenePaths()
        // Made once, before any scene: a folder that cannot be made is the batch's own
        // failure (73, with the system's reason), not every scene's.
        if let reason = BatchOutput.makeFolder(output) {
            Terminal.error("\(output): cannot create the output folder: \(reason)")
            throw ExitStatus.cannotCreate
        }
        // Two scenes with one name would write one output: the later ones fail instead.
        var owner: [String: String] = [:]
        let clashes = scenes.reduce(into: [String: String]()) { clashes, path in
            let name = GoldenFrames.sceneName(path)
            if let first = owner[name] { clashes[path] = first } else { owner[name] = path }
        }
        let sceneJobs = min(parallelScenes, jobs, max(1, scenes.count))
        let frameJobs = max(1, jobs / sceneJobs)
        let rows = try Parallel.map(scenes, jobs: sceneJobs) { path -> Row in
            if let first = clashes[path] {
                return Row(scene: path, frames: nil, seconds: 0, bytes: nil,
                           status: .failed(ExitStatus.usage, "same output name as \(first)"))
            }
            // In-process only where this process is not the kinetic executable (the unit tests).
            guard let executable = Self.executable else { return render(path, frameJobs: frameJobs, showsProgress: sceneJobs == 1) }
            return isolated(path, executable: executable, frameJobs: frameJobs, showsProgress: sceneJobs == 1)
        }
        if !quiet { Terminal.error(Self.table(rows)) }
        for row in rows {
            if case .failed(let code, _) = row.status { throw code }
        }
    }

    /// Renders one scene in a child process (this executable, `batch --one-scene`): a
    /// scene that crashes, aborts or is killed is that scene's row, and the others render.
    private func isolated(_ path: String, executable: String, frameJobs: Int, showsProgress: Bool) -> Row {
        let started = Date()
        func failed(_ code: ExitCode, _ message: String) -> Row {
            Row(scene: path, frames: nil, seconds: Date().timeIntervalSince(started), bytes: nil, status: .failed(code, message))
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = Self.childArguments(given: Self.givenArguments, scene: path, frameJobs: frameJobs,
                                              showsProgress: showsProgress)
        let stdout = Pipe()
        child.standardOutput = stdout
        do { try child.run() } catch { return failed(ExitStatus.software, "cannot start a process for it: \(error)") }
        ChildProcesses.add(child)
        defer { ChildProcesses.remove(child) }
        // The timeout: SIGTERM (the child removes its temporary files), SIGKILL after the grace.
        let timedOut = Mutex(false)
        let timer = timeout.map { seconds in
            let pid = child.processIdentifier
            let item = DispatchWorkItem {
                timedOut.withLock { $0 = true }
                kill(pid, SIGTERM)
                DispatchQueue.global().asyncAfter(deadline: .now() + ChildProcesses.grace) {
                    if timedOut.withLock({ $0 }) { kill(pid, SIGKILL) }
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
            return item
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        timer?.cancel()
        if timedOut.withLock({ $0 }) {
            timedOut.withLock { $0 = false }  // the SIGKILL, if still pending, has nothing to do
            let message = "timed out after \(Self.seconds(timeout ?? 0)) s"
            Terminal.error("\(path): \(message)")
            return failed(ExitStatus.timedOut, message)
        }
        if child.terminationReason == .uncaughtSignal {
            let message = "crashed (signal \(child.terminationStatus))"
            Terminal.error("\(path): \(message)")
            return failed(ExitStatus.software, message)
        }
        guard let line = data.split(separator: UInt8(ascii: "\n")).last,
              let report = try? JSONDecoder().decode(RowReport.self, from: Data(line)) else {
            let message = "stopped with exit \(child.terminationStatus) and no report"
            Terminal.error("\(path): \(message)")
            return failed(ExitCode(child.terminationStatus == 0 ? ExitStatus.software.rawValue : child.terminationStatus), message)
        }
        return report.row(scene: path)
    }

    /// The command line of the child that renders `scene`: which scene, its share of the
    /// threads and whether it draws progress, then the batch's own arguments exactly as
    /// they were given and parsed. So every option reaches the child, one added later
    /// included, without being forwarded one by one; the batch's inputs, `--jobs`,
    /// `--parallel-scenes` and `--timeout` go unused there. The scene is joined to its
    /// option with `=`, so a path starting with `-` stays a value.
    static func childArguments(given: [String], scene: String, frameJobs: Int, showsProgress: Bool) -> [String] {
        ["batch", "--one-scene=" + scene, "--scene-jobs", String(frameJobs)] + (showsProgress ? [] : ["--no-progress"]) + given
    }

    /// The arguments this process's `batch` was given: those after the subcommand's name.
    private static var givenArguments: [String] {
        Array(CommandLine.arguments.dropFirst().drop { $0 != "batch" }.dropFirst())
    }

    /// `12`, `2.5`: a number of seconds as the user wrote it.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// This executable's path, for the child processes, whatever the file is named (a copy,
    /// a link); nil when this process is not the kinetic executable (the unit tests).
    private static var executable: String? {
        guard KineticCommand.runningAsExecutable.load(ordering: .relaxed) else { return nil }
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath
    }

    /// The scene files: folders expand to their scenes in name order.
    private func scenePaths() throws -> [String] {
        var paths: [String] = []
        for input in inputs.isEmpty ? ["scenes"] : inputs {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []
                let sceneNames = names.filter { [".yaml", ".yml", ".json"].contains(where: $0.lowercased().hasSuffix) }
                if sceneNames.isEmpty { Terminal.warning("\(input): no scene files") }
                paths += sceneNames.sorted().map { GoldenFrames.join(input, $0) }
            } else {
                // A missing file is reported as that scene's failure, with the others rendering.
                paths.append(input)
            }
        }
        guard !paths.isEmpty else {
            Terminal.error("no scenes to render")
            throw ExitStatus.noInput
        }
        return paths
    }

    /// Renders one scene unless its output is up to date; never throws, so one failing
    /// scene leaves the others alone.
    private func render(_ path: String, frameJobs: Int, showsProgress: Bool) -> Row {
        let started = Date()
        let destination = BatchOutput(folder: output, scene: path, writesPNGFrames: png)
        var row = Row(scene: path, frames: nil, seconds: 0, bytes: nil, status: .rendered)
        func fail(_ code: ExitCode, _ message: String) -> Row {
            row.seconds = Date().timeIntervalSince(started)
            row.status = .failed(code, message)
            if message != "" { Terminal.error("\(path): \(message)") }
            return row
        }
        let scene: Scene
        do { scene = try SceneLoading.load(path, limits: limitOptions.limits) } catch {
            // SceneLoading has printed the problems.
            let code = error as? ExitCode ?? ExitStatus.software
            return fail(code, "")
        }
        let renderer: SceneRenderer
        let indices: [Int]
        do {
            (renderer, indices) = try destination.renderer(for: scene, frames: frameRange.frames?.range, jobs: frameJobs,
                                                           showsProgress: showsProgress && !quiet,
                                                           warn: { Terminal.warning("\(path): \($0)") })
        } catch {
            return fail(ExitCode(error.exitCode), "\(error)")
        }
        row.frames = indices.count
        let outputs = destination.files(frames: indices)
        if !force, BatchOutput.isUpToDate(outputs, inputs: [path] + scene.inputFiles) {
            row.status = .upToDate
        } else {
            do {
                try destination.write(renderer, frames: indices, loopCount: loop)
            } catch {
                // The real status and message (a simulation that blew up is 70, not 73).
                let code = SceneLoading.exit(for: error, scene: path)
                row.seconds = Date().timeIntervalSince(started)
                row.status = .failed(code, error is ExitCode ? "" : "\(error)")
                return row
            }
        }
        row.seconds = Date().timeIntervalSince(started)
        row.bytes = outputs.compactMap(ByteCount.ofFile).reduce(0, +)
        if !quiet, case .rendered = row.status {
            Terminal.error(String(format: "%@: %d frames in %.2f s", path, indices.count, row.seconds))
        }
        return row
    }

    /// The summary: scene, frames, seconds, size, status, one row per scene.
    static func table(_ rows: [Row]) -> String {
        let header = ["scene", "frames", "seconds", "size", "status"]
        var lines = [header]
        for row in rows {
            let status: String
            switch row.status {
            case .rendered: status = "rendered"
            case .upToDate: status = "up to date"
            case .failed(let code, let message):
                status = "FAILED (\(code.rawValue))" + (message.isEmpty ? "" : ": \(message)")
            }
            lines.append([row.scene,
                          row.frames.map(String.init) ?? "-",
                          String(format: "%.2f", row.seconds),
                          row.bytes.map(ByteCount.format) ?? "-",
                          status])
        }
        let failed = rows.filter { if case .failed = $0.status { true } else { false } }.count
        // Left-align names and status, right-align numbers.
        let widths = (0..<4).map { c in lines.map { $0[c].count }.max() ?? 0 }
        let text = lines.map { cells in
            [cells[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)]
                + (1..<4).map { String(repeating: " ", count: widths[$0] - cells[$0].count) + cells[$0] }
                + [cells[4]]
        }.map { $0.joined(separator: "  ") }
        return (text + ["\(rows.count) scene\(rows.count == 1 ? "" : "s"), \(failed) failed"]).joined(separator: "\n")
    }
}
