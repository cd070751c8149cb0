import ArgumentParser
import KineticScene

/// `kinetic validate SCENE…`: load and check only.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scene files without rendering them.",
        discussion: """
        Prints every problem as FILE:LINE:COLUMN: KEY.PATH: message on stderr.
        The limits met only while frames are computed (live particles of all emitters
        together, layer instances of animated replicator counts) are checked by running the
        scene's frames as render does, without drawing them: a scene that validates is not
        refused by render for them.
        Exit status: 0 when all scenes are valid, 65 if any has a problem, 66 if a file is missing.

        Example:
          kinetic validate scenes/*.yaml
        """)

    @Argument(help: "Scene files (.yaml, .yml or .json).")
    var scenes: [String]

    @OptionGroup var limitOptions: LimitOptions

    func run() throws {
        var status: ExitCode?
        for path in scenes {
            do {
                let scene = try SceneLoading.load(path, limits: limitOptions.limits)
                if let problem = FrameClock.limitProblem(in: scene, limits: limitOptions.limits) {
                    Terminal.error(problem.description)
                    throw ExitStatus.dataError
                }
            } catch let code as ExitCode {
                // A missing file outranks invalid content.
                if status != ExitStatus.noInput { status = code }
            }
        }
        if let status { throw status }
    }
}
