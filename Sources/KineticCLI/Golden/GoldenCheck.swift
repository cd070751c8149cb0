import ArgumentParser
import Foundation
import KineticEncode
import KineticFiles
import KineticGeometry
import KineticScene

/// `kinetic golden check`: compares fresh renders with the goldens and writes the reports.
extension GoldenCommand {
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
}
