import ArgumentParser
import Kinetic

/// `kinetic golden update`: writes the goldens as rendered now, saying what changed.
extension GoldenCommand {
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
                    try GoldenUpdate.write(rendered, say: { print($0) })
                } catch {
                    Terminal.error("\(error)")
                    status = GoldenCommand.worst(status, ExitStatus.cannotCreate)
                }
            }
            if let skipped { status = GoldenCommand.worst(status, skipped) }
            if let status { throw status }
        }
    }
}
