import ArgumentParser
import Kinetic

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
            var session = GoldenCheckSession(output: output, recordMissing: recordMissing,
                                             say: { print($0) }, complain: Terminal.error)
            if let html {
                do { session.html = try HTMLReport(folder: html) } catch {
                    Terminal.error("\(error)")
                    throw ExitStatus.cannotCreate
                }
            }
            let skipped = try options.forEachScene({ rendered in
                for picture in rendered.pictures { session.checkPicture(picture, of: rendered) }
                if let state = rendered.state { session.checkState(state, of: rendered) }
            }, skipped: { path, code in session.skip(path, code.rawValue) })
            var status = session.status.map { ExitCode($0) }
            if let skipped { status = GoldenCommand.worst(status, skipped) }
            let t = session.tally
            print("golden check: \(t.pictures) frames, \(t.picturesFailed) mismatched; \(t.states) states, \(t.statesFailed) mismatched"
                  + (t.recorded > 0 ? "; \(t.recorded) recorded (review and commit them)" : ""))
            do {
                if let junit { try session.junit.write(to: junit) }
                try session.html?.finish()
            } catch {
                Terminal.error("\(error)")
                status = GoldenCommand.worst(status, ExitStatus.cannotCreate)
            }
            if let status { throw status }
        }
    }
}
