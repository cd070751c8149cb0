import ArgumentParser
import Kinetic

/// `kinetic inspect SCENE --frame N`: the presentation state as JSON.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the presentation state of one frame as JSON.",
        discussion: """
        Layers by id (or by place, e.g. layers[2].sublayers[0]) with position, bounds, \
        transform, the bounds' corners in scene points, colors and (shape layers) the trimmed \
        path, as section 10 of the scene format lays out. Masks are listed as layers too, under \
        their id or place (layers[1].mask), and their host names them in "mask". A corner at or \
        behind the eye (w ≤ 0 under a perspective) is null. A replicator copy's colorMultiplier \
        is the product of its replicators' colors, as rendered.

        --frame takes 0 to the last frame, --time 0 to the scene's end (the last frame ends \
        there); past those the command stops with exit 64.

        Examples:
          kinetic inspect scene.yaml --frame 25
          kinetic inspect scene.yaml --time 0.5 | jq '.layers.star.corners'
        """)

    @Argument(help: "The scene file.")
    var scene: String

    @Option(help: "Frame index (0-based), at most the scene's last frame.")
    var frame: Int?

    @Option(help: "Time in seconds, up to the scene's end (the frame showing it is computed at exactly this time).")
    var time: Double?

    @Flag(help: "Add every live particle to the emitter report.")
    var particles = false

    @OptionGroup var limitOptions: LimitOptions

    func validate() throws {
        if (frame == nil) == (time == nil) { throw ValidationError("give exactly one of --frame N or --time T") }
        if let frame, frame < 0 { throw ValidationError("--frame must not be negative") }
        if let time, !(time.isFinite && time >= 0) { throw ValidationError("--time must be a finite number ≥ 0") }
    }

    func run() throws {
        let loaded = try SceneLoading.load(scene, limits: limitOptions.limits)
        let choice: FrameChoice
        do {
            choice = try FrameChoice(frame: frame, time: time, frameCount: loaded.frameCount, fps: loaded.framesPerSecond)
        } catch {
            Terminal.error("\(error)")
            throw error.exitCode
        }
        do {
            print(try loaded.inspectionJSON(atTime: choice.time, frame: choice.index, particles: particles))
        } catch {
            throw SceneLoading.exit(for: error, scene: scene)
        }
    }
}
