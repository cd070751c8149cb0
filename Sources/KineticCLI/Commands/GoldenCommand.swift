import ArgumentParser
import Foundation
import KineticFiles
import KineticEncode
import KineticGeometry
import KineticScene

/// `kinetic golden check|update [SCENE…]`: golden-image regression.
struct GoldenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "golden",
        abstract: "Compare scenes' goldens (frames and every frame's state) with fresh renders, or re-bless them.",
        discussion: """
        Each scene's `golden:` block lists frames (`last` is the final one; without a list, \
        frames spread over the timeline: first, last, each animation's begin and end, and enough \
        between that none passes unseen), the scale they are rendered at (default 1, whatever \
        the scene's scale), a tolerance, `state` (default true: the presentation state of every \
        frame is a golden too) and `filmstrip` (default false: a grid of every frame, small). \
        Goldens live in golden/NAME/ beside scenes/NAME.yaml: frame-NNNN.png, state.jsonl, \
        filmstrip.png (docs/golden.md).

        Examples:
          kinetic golden check                        # every scenes/*.yaml of this folder
          kinetic golden check scenes/download-button.yaml --output /tmp/failures
          kinetic golden check --junit build/golden.xml --html build/golden-report
          kinetic golden update scenes/download-button.yaml
        """,
        subcommands: [Check.self, Update.self])

    /// What both subcommands take.
    struct Options: ParsableArguments {
        @Argument(help: "Scene files (default: every scenes/*.yaml of the current folder).")
        var scenes: [String] = []

        @Option(help: ArgumentHelp("Goldens are read from DIR/NAME/ (default: golden/ beside each scene's folder).",
                                   valueName: "DIR"))
        var goldenDir: String?

        @OptionGroup var jobOptions: JobOptions
        var jobs: Int { jobOptions.jobs }

        @OptionGroup var limitOptions: LimitOptions

        /// The scenes named, or every `scenes/*.yaml` of the current folder in name order.
        func scenePaths() throws -> [String] {
            if !scenes.isEmpty { return scenes }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: "scenes") else {
                Terminal.error("no scenes given and no scenes/ folder here")
                throw ExitStatus.noInput
            }
            let yaml = names.filter { $0.hasSuffix(".yaml") }.sorted()
            guard !yaml.isEmpty else {
                Terminal.error("no scenes given and no .yaml file in scenes/")
                throw ExitStatus.noInput
            }
            return yaml.map { "scenes/" + $0 }
        }

        /// Loads the scene at `path`, renders its golden frames at `golden.scale` (and its
        /// filmstrip) and records its state. Problems are printed; the error thrown is the
        /// exit status.
        func renderGoldens(_ path: String) throws -> RenderedScene {
            let scene = try SceneLoading.load(path, limits: limitOptions.limits)
            let (indices, outOfRange) = GoldenFrames.indices(scene)
            if !outOfRange.isEmpty {
                Terminal.error("\(path): golden frames \(outOfRange.map(String.init).joined(separator: ", ")) are outside 0…\(scene.frameCount - 1)")
                throw ExitStatus.dataError
            }
            let folder = GoldenFrames.folder(forScene: path, goldenDir: goldenDir)
            let root = limitOptions.allowAnyPath ? nil : GoldenFrames.root(forScene: path, goldenDir: goldenDir)
            if let root {
                // The folder (or, before the first update, its parent) must resolve inside the root.
                let existing = GuardedFile.kind(of: folder) != nil ? folder : root
                if GuardedFile.kind(of: existing) != nil {
                    do { try GuardedFile.checkInside(existing, root: root) } catch {
                        Terminal.error("\(folder): \(error.reason): goldens resolve inside \(root); pass --allow-any-path to trust the link")
                        throw ExitStatus.dataError
                    }
                }
            }
            do {
                var scaled = scene
                scaled.settings.scale = scene.golden.scale
                let renderer = try SceneRenderer(scene: scaled, limits: limitOptions.limits, jobs: jobs, showsProgress: false)
                return RenderedScene(
                    scene: scene, frames: try renderer.images(frames: indices),
                    name: GoldenFrames.sceneName(path), folder: folder, root: root,
                    filmstrip: scene.golden.filmstrip ? try GoldenFrames.filmstrip(scene, limits: limitOptions.limits, jobs: jobs) : nil,
                    state: scene.golden.state ? try StateTable.record(scene, maxParticles: limitOptions.limits.maxParticles) : nil)
            } catch let error as SceneRenderError {
                Terminal.error("\(path): \(error)")
                throw ExitCode(error.exitCode)
            } catch {
                throw SceneLoading.exit(for: error, scene: path)
            }
        }

        /// One scene's goldens as rendered now, and where its golden files live.
        struct RenderedScene {
            var scene: Scene
            var frames: [(index: Int, image: PixelImage)]
            /// The scene's name (its file name without extension).
            var name: String
            /// `golden/NAME`.
            var folder: String
            /// Where every golden file must resolve (nil with `--allow-any-path`).
            var root: String?
            /// Every frame in a grid, when `golden.filmstrip` is on.
            var filmstrip: PixelImage?
            /// Every frame's state, unless `golden.state` is off.
            var state: StateTable?

            /// `frame NNNN`: the reports print `NAME frame NNNN`.
            static func caseName(_ index: Int) -> String { "frame \(String(format: "%04d", index))" }

            /// The pictures to compare: each golden frame, then the filmstrip.
            var pictures: [(name: String, file: String, image: PixelImage)] {
                frames.map { (Self.caseName($0.index), GoldenFrames.fileName(frame: $0.index), $0.image) }
                    + (filmstrip.map { [("filmstrip", GoldenFrames.filmstripFileName, $0)] } ?? [])
            }

            /// `golden/NAME/FILE`.
            func path(_ file: String) -> String { GoldenFrames.join(folder, file) }
        }

        /// Renders each scene's goldens in turn and hands them to `body`. A scene that
        /// cannot be rendered is skipped (the other scenes are still done) and handed to
        /// `skipped` with its path and exit status; the worst of those is returned.
        func forEachScene(_ body: (RenderedScene) throws -> Void,
                          skipped: (String, ExitCode) -> Void = { _, _ in }) throws -> ExitCode? {
            var status: ExitCode?
            for path in try scenePaths() {
                let rendered: RenderedScene
                do { rendered = try renderGoldens(path) } catch let code as ExitCode {
                    status = GoldenCommand.worst(status, code)
                    skipped(path, code)
                    continue
                }
                try body(rendered)
            }
            return status
        }
    }

    /// The exit status of several scenes: a missing scene outranks an invalid one, which
    /// outranks anything else (the check could not run at all).
    /// The status of a run with several outcomes: a missing scene (66) outranks an
    /// invalid one (65), which outranks a report or golden that cannot be written (73),
    /// which outranks a simulation failure (70) and a mismatch (1) — so a CI that
    /// cannot write its reports learns it even when frames mismatch.
    static func worst(_ a: ExitCode?, _ b: ExitCode) -> ExitCode {
        let rank: [Int32: Int] = [ExitStatus.noInput.rawValue: 5, ExitStatus.dataError.rawValue: 4,
                                  ExitStatus.cannotCreate.rawValue: 3, ExitStatus.software.rawValue: 2]
        guard let a else { return b }
        return (rank[b.rawValue] ?? 1) > (rank[a.rawValue] ?? 1) ? b : a
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Render every golden frame and compare it with its golden image; compare every frame's state.",
            discussion: """
            A pixel differs when any of its RGBA channels (un-premultiplied) is more than \
            tolerance.channel away; a frame mismatches when more than tolerance.pixels of its \
            pixels differ, its size differs, or its golden image is missing. One line per frame \
            on stdout: the share of differing pixels, the largest channel difference, and SSIM \
            (mean over 8×8 windows of Rec. 601 luma over white; 1 = identical). For each \
            mismatch a PNG with the actual frame, the expected one and an amplified diff side by \
            side (red: over the tolerance, blue: within it) is written to \
            OUTPUT/NAME/frame-NNNN.png. A filmstrip (golden.filmstrip) is compared the same way.

            The state of every frame (golden/NAME/state.jsonl, unless golden.state is off) is \
            compared key by key under a tolerance per kind of value; a mismatch names the first \
            frame where the scene parts from it:
              NAME state  FAIL  btn.position.x at frame 7 (0.14 s): golden 49.2, actual 52

            --junit FILE writes JUnit XML (a test case per frame, filmstrip and state); --html \
            DIR a static report with expected / actual / diff of each mismatch; --record-missing \
            writes the goldens that do not exist yet (never overwriting one) and says so; they \
            count as passed.

            Exit status: 0 all match, 1 something mismatches, 65 invalid scene (or a golden \
            folder linking out of golden/), 66 missing scene, 70 simulation failure, 73 a report \
            or failure picture not writable (each file is named). Precedence: 66, then 65, then \
            73, then 70, then 1 — so an unwritable report is reported even when frames mismatch; \
            the other scenes are still checked.

            Examples:
              kinetic golden check --junit reports/golden.xml --html reports/golden
              kinetic golden check scenes/button.yaml --record-missing
            """)

        @OptionGroup var options: Options

        @Option(name: [.short, .long], help: ArgumentHelp("Folder for the pictures of mismatching frames.", valueName: "DIR"))
        var output = "golden-failures"

        @Option(help: ArgumentHelp("Write a JUnit XML report to FILE.", valueName: "FILE"))
        var junit: String?

        @Option(help: ArgumentHelp("Write a static HTML report (index.html and PNGs) to DIR.", valueName: "DIR"))
        var html: String?

        @Flag(help: "Write goldens that do not exist yet (never overwriting one), and say so.")
        var recordMissing = false

        func run() throws {
            var session = CheckSession(output: output, recordMissing: recordMissing)
            if let html {
                do { session.html = try HTMLReport(folder: html) } catch {
                    Terminal.error("\(error)")
                    throw ExitStatus.cannotCreate
                }
            }
            let skipped = try options.forEachScene({ rendered in
                for picture in rendered.pictures { session.checkPicture(picture, of: rendered) }
                if let state = rendered.state { session.checkState(state, of: rendered) }
            }, skipped: { path, code in session.skip(path, code) })
            var status = session.status
            if let skipped { status = GoldenCommand.worst(status, skipped) }
            let t = session.tally
            print("golden check: \(t.pictures) frames, \(t.picturesFailed) mismatched; \(t.states) states, \(t.statesFailed) mismatched"
                  + (t.recorded > 0 ? "; \(t.recorded) recorded (review and commit them)" : ""))
            do {
                if let junit { try AtomicFile.write(Array(session.junit.xml().utf8), to: junit) }
                try session.html?.finish()
            } catch {
                Terminal.error("\(error)")
                status = GoldenCommand.worst(status, ExitStatus.cannotCreate)
            }
            if let status { throw status }
        }
    }

    /// What a check has found so far, and the reports it writes.
    struct CheckSession {
        var output: String
        var recordMissing: Bool
        var junit = JUnitReport()
        var html: HTMLReport?
        var tally = (pictures: 0, picturesFailed: 0, states: 0, statesFailed: 0, recorded: 0)
        var status: ExitCode?

        init(output: String, recordMissing: Bool) {
            self.output = output
            self.recordMissing = recordMissing
        }

        /// A frame or filmstrip against its golden image.
        mutating func checkPicture(_ picture: (name: String, file: String, image: PixelImage),
                                   of rendered: Options.RenderedScene) {
            let spec = rendered.scene.golden
            let goldenPath = rendered.path(picture.file)
            let label = "\(rendered.name) \(picture.name)"
            let actual = picture.image
            tally.pictures += 1
            let expected: PixelImage?
            let verdict: GoldenFrames.Verdict
            switch GoldenFrames.read(goldenPath, root: rendered.root) {
            case .success(let image):
                expected = image
                verdict = GoldenFrames.judge(actual, against: image, spec: spec)
            case .failure(let error):
                expected = nil
                verdict = .unreadable(error)
            }
            var c = GoldenCase(scene: rendered.name, name: picture.name, status: .failed, message: "", goldenPath: goldenPath)
            let failurePicture = GoldenFrames.join(GoldenFrames.join(output, rendered.name), picture.file)
            switch verdict {
            case .match(let d):
                c.status = .passed
                c.difference = d
                c.message = GoldenFrames.describe(d)
                print("\(label)  ok    \(c.message)")
                // A picture left by an earlier failing run would mislead.
                try? FileManager.default.removeItem(atPath: failurePicture)
            case .missing where recordMissing:
                record(&c, label: label) { try PNGWriter.write(actual, to: goldenPath) }
            case .mismatch(let d):
                c.difference = d
                c.message = "\(GoldenFrames.describe(d))  (over \(String(format: "%.3f", spec.pixelTolerance * 100)) % at Δ > \(spec.channelTolerance))"
            case .sizeMismatch(let error):
                c.message = "\(error)"
            case .missing:
                c.message = "no golden image \(goldenPath) (bless it with kinetic golden update)"
            case .unreadable(let error):
                c.message = "\(error)"
            }
            if c.status == .failed {
                tally.picturesFailed += 1
                status = GoldenCommand.worst(status, ExitCode.failure)
                let line = "\(label)  FAIL  \(c.message)"
                let diff = ImageComparison.diffImage(actual: actual, expected: expected ?? PixelImage(width: 0, height: 0),
                                                     channelTolerance: spec.channelTolerance)
                do {
                    try FileManager.default.createDirectory(atPath: (failurePicture as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    try PNGWriter.write(ImageComparison.sideBySide([actual, expected ?? PixelImage(width: 0, height: 0), diff]),
                                        to: failurePicture)
                    print("\(line)\n    actual | expected | diff → \(failurePicture)")
                } catch {
                    print(line)
                    Terminal.error("\(failurePicture): cannot write the failure picture: \(error)")
                    status = GoldenCommand.worst(status, ExitStatus.cannotCreate)
                }
                add(c, images: (actual, expected, diff))
            } else {
                add(c, images: nil)
            }
        }

        /// Every frame's state against the golden state.
        mutating func checkState(_ state: StateTable, of rendered: Options.RenderedScene) {
            let goldenPath = rendered.path(StateTable.fileName)
            let label = "\(rendered.name) state"
            tally.states += 1
            var c = GoldenCase(scene: rendered.name, name: "state", status: .failed, message: "", goldenPath: goldenPath)
            switch StateTable.read(goldenPath, root: rendered.root) {
            case .success(let golden?):
                if let d = state.difference(from: golden) {
                    c.message = d.description
                    c.stateParts = d.parts
                } else {
                    c.status = .passed
                    c.message = "\(state.columns.count) keys × \(state.frameCount) frames"
                    let added = state.newKeys(since: golden)
                    if !added.isEmpty {
                        c.message += "; \(added.count) not in the golden (golden update records them): "
                            + added.prefix(3).joined(separator: ", ") + (added.count > 3 ? ", …" : "")
                    }
                    print("\(label)  ok    \(c.message)")
                }
            case .success(nil) where recordMissing:
                record(&c, label: label) { try AtomicFile.write(Array(state.encoded().utf8), to: goldenPath) }
            case .success(nil):
                c.message = "no golden state \(goldenPath) (bless it with kinetic golden update)"
            case .failure(let error):
                c.message = "\(error)"
            }
            if c.status == .failed {
                tally.statesFailed += 1
                status = GoldenCommand.worst(status, ExitCode.failure)
                print("\(label)  FAIL  \(c.message)")
            }
            add(c, images: nil)
        }

        /// A scene that could not be checked, in the reports too, so it does not vanish
        /// from CI's view.
        mutating func skip(_ path: String, _ code: ExitCode) {
            add(GoldenCase(scene: GoldenFrames.sceneName(path), name: "scene", status: .error,
                           message: "\(path) could not be checked (exit \(code.rawValue); the problems are on stderr)",
                           goldenPath: path), images: nil)
        }

        /// Writes a missing golden with `write` (`--record-missing`); a failure to write it
        /// is a failure of the case.
        private mutating func record(_ c: inout GoldenCase, label: String, _ write: () throws -> Void) {
            do {
                try FileManager.default.createDirectory(atPath: (c.goldenPath as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try write()
                c.status = .recorded
                c.message = "no golden yet: recorded \(c.goldenPath)"
                tally.recorded += 1
                print("\(label)  recorded  \(c.message)")
            } catch {
                c.message = "no golden yet, and it could not be recorded: \(error)"
            }
        }

        private mutating func add(_ c: GoldenCase, images: (actual: PixelImage, expected: PixelImage?, diff: PixelImage)?) {
            junit.add(c)
            do { try html?.add(c, images: images) } catch {
                Terminal.error("\(error)")
                status = GoldenCommand.worst(status, ExitStatus.cannotCreate)
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Re-render the golden frames and record every frame's state as the new goldens.",
            discussion: """
            Prints for each frame (and the filmstrip) whether it is new, unchanged (the file is \
            left alone), or changed and by how much (differing pixels under the scene's \
            tolerance, the largest channel difference and SSIM against the old image), and for \
            the state file where the new state first parts from the old. Files are written \
            atomically. Golden files no longer wanted (frames no longer listed, a state or \
            filmstrip turned off) are reported, not deleted. Look at the changed frames before \
            committing them.

            Exit status: 0 done, 65 invalid scene, 66 missing scene, 70 simulation failure, 73 \
            not writable.
            """)

        @OptionGroup var options: Options

        func run() throws {
            var status: ExitCode?
            let skipped = try options.forEachScene { rendered in
                do {
                    try FileManager.default.createDirectory(atPath: rendered.folder, withIntermediateDirectories: true)
                    for picture in rendered.pictures {
                        let file = rendered.path(picture.file)
                        let bytes = try PNGWriter.encode(picture.image)
                        let old = Self.oldBytes(file, root: rendered.root)
                        let change = old.map { $0 == bytes ? nil : describeChange(picture.image, oldFile: file, root: rendered.root,
                                                                                   spec: rendered.scene.golden) }
                        try write(bytes, to: file, label: "\(rendered.name) \(picture.name)", change: change)
                    }
                    if let state = rendered.state {
                        let file = rendered.path(StateTable.fileName)
                        let text = state.encoded()
                        let change = Self.oldBytes(file, root: rendered.root).map { old -> String? in
                            if String(decoding: old, as: UTF8.self) == text { return nil }
                            switch StateTable.read(file, root: rendered.root) {
                            case .success(let golden?):
                                if let d = state.difference(from: golden) { return "changed: \(d.description)" }
                                let added = state.newKeys(since: golden).count
                                return "changed within tolerance" + (added > 0 ? ", \(added) new keys" : "")
                            case .success(nil), .failure: return "changed (the old file was not a readable state file)"
                            }
                        }
                        try write(Array(text.utf8), to: file, label: "\(rendered.name) state", change: change)
                    }
                    reportStale(rendered)
                } catch {
                    Terminal.error("\(error)")
                    status = GoldenCommand.worst(status, ExitStatus.cannotCreate)
                }
            }
            if let skipped { status = GoldenCommand.worst(status, skipped) }
            if let status { throw status }
        }

        /// Writes a golden file; `change` is nil for an existing file left as it is, and
        /// how it changed otherwise (no file: new).
        private func write(_ bytes: [UInt8], to file: String, label: String, change: String??) throws {
            switch change {
            case .some(nil):
                print("\(label)  unchanged")
            case .some(let how?):
                try AtomicFile.write(bytes, to: file)
                print("\(label)  \(how)  → \(file)")
            case nil:
                try AtomicFile.write(bytes, to: file)
                print("\(label)  new  → \(file)")
            }
        }

        /// Lists golden files of the folder the scene no longer has.
        private func reportStale(_ rendered: Options.RenderedScene) {
            var kept = Set(rendered.pictures.map(\.file))
            if rendered.state != nil { kept.insert(StateTable.fileName) }
            let present = (try? FileManager.default.contentsOfDirectory(atPath: rendered.folder)) ?? []
            for stale in present.sorted() where !kept.contains(stale) {
                let golden = (stale.hasPrefix("frame-") && stale.hasSuffix(".png")) || stale == GoldenFrames.filmstripFileName
                    || stale == StateTable.fileName
                if golden { print("\(rendered.name) \(stale)  stale: no longer a golden (delete it if it is not needed)") }
            }
        }

        /// The bytes of the golden file `file` replaces: nil when there is none; empty when
        /// it cannot be read (a corrupt golden, a FIFO, a file over the limit) — then it
        /// is written over (re-blessing always works), or refused by the writer if it is
        /// not a regular file.
        static func oldBytes(_ file: String, root: String?) -> [UInt8]? {
            guard GuardedFile.kind(of: file, followingLinks: false) != nil else { return nil }
            return (try? GuardedFile.read(file, maxBytes: GoldenFrames.maxFileBytes, root: root)) ?? []
        }

        /// How the new frame differs from the golden image it replaces.
        private func describeChange(_ image: PixelImage, oldFile: String, root: String?, spec: GoldenSpec) -> String {
            switch GoldenFrames.read(oldFile, root: root) {
            case .failure, .success(nil): return "changed (the old file was not a readable PNG)"
            case .success(let old?):
                switch GoldenFrames.judge(image, against: old, spec: spec) {
                case .match(let d): return "changed, within tolerance: \(GoldenFrames.describe(d))"
                case .mismatch(let d): return "changed, over tolerance: \(GoldenFrames.describe(d))"
                case .sizeMismatch(let error): return "changed size: \(error)"
                case .missing, .unreadable: return "changed"
                }
            }
        }
    }
}
