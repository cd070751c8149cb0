import ArgumentParser
import Foundation
import Kinetic

/// `kinetic plan SCENE --shards N`: the frame ranges a job runner hands out.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Split a scene's frames into shards for a job runner, as JSON lines.",
        discussion: """
        Prints one JSON object a line, shard 0 first:
          {"scene": …, "frames": "A-B", "output": …}
        Each shard renders with `kinetic render SCENE --frames A-B -o OUTPUT`; together the \
        shards cover every frame exactly once, in ranges of equal length (±1). Then `kinetic \
        encode OUTPUT -o scene.mp4 --fps N` makes the animation. Line i+1 is the shard of a \
        Kubernetes Indexed Job's JOB_COMPLETION_INDEX i or of Slurm array task i \
        (docs/outputs.md has both manifests and a GNU parallel recipe).

        Examples:
          kinetic plan scene.yaml --shards 8
          kinetic plan scene.yaml --shards 2 -o frames/ | jq -r .frames |
            parallel kinetic render scene.yaml --frames {} -o frames/ --quiet
        """)

    @Argument(help: "The scene file (.yaml, .yml or .json).")
    var scene: String

    @Option(help: "How many shards (at most one per frame).")
    var shards: Int

    @Option(name: [.short, .customLong("output")], help: "Where the shards write PNG frames: a folder or a %04d pattern.")
    var output = "frames/"

    @OptionGroup var limitOptions: LimitOptions

    func validate() throws {
        guard shards >= 1 else { throw ValidationError("--shards must be at least 1") }
        guard case .pngFrames(let pattern) = try? OutputTarget.parse(output), OutputTarget.isValidPattern(pattern) else {
            throw ValidationError("\(output): shards write PNG frames: give a folder (frames/) or a pattern (frame-%04d.png)")
        }
    }

    func run() throws {
        let loaded = try SceneLoading.load(scene, limits: limitOptions.limits)
        let count = loaded.frameCount
        guard shards <= count else {
            Terminal.error("--shards \(shards): the scene has only \(count) frames")
            throw ExitStatus.usage
        }
        func json(_ text: String) throws -> String {
            let data = try JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self)
        }
        var lines = ""
        for range in FrameShards.ranges(frameCount: count, shards: shards) {
            // Keys in the order a reader expects them: what, which frames, where.
            lines += "{\"scene\":\(try json(scene)),\"frames\":\"\(range.lowerBound)-\(range.upperBound)\",\"output\":\(try json(output))}\n"
        }
        FileHandle.standardOutput.write(Data(lines.utf8))
    }
}
