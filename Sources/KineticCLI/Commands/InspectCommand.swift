import ArgumentParser
import KineticScene

/// `kinetic inspect SCENE --frame N`: the presentation state as JSON.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the presentation state of one frame as JSON.",
        discussion: """
        Layers by id (or by place, e.g. layers[2].sublayers[0]) with position, bounds,
        transform, the bounds' corners in scene points, colors and (shape layers) the trimmed
        path, as section 10 of the scene format lays out.

        Examples:
          kinetic inspect scene.yaml --frame 25
          kinetic inspect scene.yaml --time 0.5 | jq '.layers.star.corners'
        """)

    @Argument(help: "The scene file.")
    var scene: String

    @Option(help: "Frame index (0-based).")
    var frame: Int?

    @Option(help: "Time in seconds (the frame showing it is computed at exactly this time).")
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
        let timeline = Timeline(scene: loaded)
        let fps = loaded.settings.fps
        let index = frame ?? Int((time ?? 0) * fps)
        if let frame, frame >= loaded.frameCount {
            Terminal.error("--frame \(frame) is past the last frame (\(loaded.frameCount - 1))")
            throw ExitStatus.usage
        }
        let simulation = Simulation(timeline: timeline)
        var particleSimulation = ParticleSimulation(scene: loaded, maxParticles: limitOptions.limits.maxParticles)
        do {
            let state = try particleSimulation.addingParticles(to: simulation.frame(at: time ?? Double(index) / fps, index: index))
            print(InspectReport.json(for: state, items: simulation.itemStates, particles: particles))
        } catch {
            throw SceneLoading.exit(for: error, scene: scene)
        }
    }
}
