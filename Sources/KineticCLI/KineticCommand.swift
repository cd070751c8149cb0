import ArgumentParser
import Kinetic
import Synchronization

/// The `kinetic` command.
public struct KineticCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "kinetic",
        abstract: "Render UIKit Dynamics and Core Animation scenes to GIF, APNG, WebP, MP4, WebM, MOV or PNG frames.",
        discussion: """
        A scene file (YAML or JSON) describes layers, Bezier paths, animations and physics; \
        kinetic computes every frame at a fixed step and rasterizes it with Cairo.

        Examples:
          kinetic render scenes/jump-star.yaml -o star.gif
          kinetic render scene.yaml -o frames/            # PNG frames frame-0000.png …
          kinetic render scene.yaml -o still.png --time 1.5
          kinetic render scene.yaml -o clip.mp4           # also .webm .mov .webp .apng
          kinetic encode frames/ -o clip.webp --fps 30    # PNG frames → an animation
          kinetic plan scene.yaml --shards 8              # frame ranges for a job runner
          kinetic validate scenes/*.yaml
          kinetic inspect scene.yaml --frame 25 | jq '.layers.ball.position'
          kinetic batch scenes -o out/                    # every scene to out/NAME.gif
          kinetic golden check                            # scenes/*.yaml against golden/
          kinetic golden update scenes/jump-star.yaml     # re-bless its golden frames
          kinetic preview scenes/jump-star.yaml           # live player in the browser
          kinetic schema > kinetic.schema.json            # JSON Schema for editors
        """,
        subcommands: [RenderCommand.self, ValidateCommand.self, InspectCommand.self,
                      BatchCommand.self, GoldenCommand.self, EncodeCommand.self, PlanCommand.self,
                      PreviewCommand.self, SchemaCommand.self])
    public init() {}

    /// Removes unfinished outputs' temporary files on Ctrl-C or SIGTERM.
    public static func installInterruptionHandler() { Interruption.install() }

    /// The executable's entry point: runs the command line, with this process known to be
    /// the `kinetic` executable (whatever its file is named), so `batch` may start copies of
    /// it for its scenes. In-process callers (the unit tests) never are.
    public static func main() {
        runningAsExecutable.store(true, ordering: .relaxed)
        MemoryCeiling.tuneAllocator()
        main(nil)
    }

    /// Set once by `main()`, before any command runs.
    static let runningAsExecutable = Atomic<Bool>(false)
}
