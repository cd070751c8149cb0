import ArgumentParser
import Kinetic

/// `kinetic validate SCENE…`: load and check only.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scene files without rendering them.",
        discussion: """
        Prints every problem as FILE:LINE:COLUMN: KEY.PATH: message on stderr. What can fail \
        only while frames are computed is checked by running the scene's frames as render does, \
        without drawing them: the physics (a value an expression or a behavior animation drives \
        out of range, an impossible joint, a blow-up), live particles of all emitters together, \
        layer instances of animated replicator counts. So is the canvas at the scene's scale \
        against the canvas limits (at scene.size). A scene that validates is not refused by \
        render with the same options.
        Exit status: 0 when all scenes are valid, 65 if any has a problem (a physics blow-up \
        too, which render reports with 70), 66 if a file is missing.

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
                // The canvas render would refuse at the scene's own scale (with these
                // options' limits), then the frames' limits and physics.
                do { try scene.checkRendering() } catch {
                    // Printed as render prints it; every failure is a problem of the scene here.
                    _ = SceneLoading.exit(for: error, scene: path)
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
