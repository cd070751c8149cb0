import Foundation
import KineticEncode
import KineticFiles

/// Where `kinetic batch` writes one scene: `OUTDIR/NAME.gif`, or PNG frames
/// `OUTDIR/NAME/frame-NNNN.png`; and whether what is there is up to date.
package struct BatchOutput {
    /// `OUTDIR`.
    package var folder: String
    /// The scene file's name without its extension.
    package var name: String
    /// PNG frames instead of a GIF (`batch --png`).
    package var writesPNGFrames: Bool

    package init(folder: String, scene scenePath: String, writesPNGFrames: Bool) {
        self.folder = folder
        self.name = GoldenFrames.sceneName(scenePath)
        self.writesPNGFrames = writesPNGFrames
    }

    /// The files written for `frames`.
    package func files(frames: [Int]) -> [String] {
        writesPNGFrames
            ? frames.map { GoldenFrames.join(GoldenFrames.join(folder, name), GoldenFrames.fileName(frame: $0)) }
            : [GoldenFrames.join(folder, name + ".gif")]
    }

    /// The renderer of `scene` for this output and the frames `range` selects (every
    /// frame when nil). A GIF keeps GIF's frame-rate rule, which `warn` reports.
    package func renderer(for scene: Scene, frames range: ClosedRange<Int>?, jobs: Int, showsProgress: Bool,
                          warn: (String) -> Void) throws(SceneRenderError) -> (renderer: SceneRenderer, frames: [Int]) {
        var model = scene.model
        if !writesPNGFrames, let warning = SceneRenderer.applyFrameRateRule(to: &model, format: .gif, fpsGiven: false) {
            warn(warning)
        }
        let renderer = try SceneRenderer(scene: model, limits: scene.limits, jobs: jobs, showsProgress: showsProgress)
        return (renderer, try renderer.frames(range))
    }

    /// Renders `frames` with `renderer` into the output (making `OUTDIR` first).
    package func write(_ renderer: SceneRenderer, frames: [Int], loopCount: Int) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if writesPNGFrames {
            try renderer.renderPNGFrames(frames: frames, pattern: GoldenFrames.join(GoldenFrames.join(folder, name), "frame-%04d.png"))
        } else {
            try renderer.renderGIF(frames: frames, to: files(frames: frames)[0], loopCount: loopCount)
        }
    }

    /// Makes `path` and its parents; nil when it exists as a folder or was made, else the
    /// system's reason.
    package static func makeFolder(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o777) != 0, errno != EEXIST { return String(cString: strerror(errno)) }
            prefix += "/"
        }
        return GuardedFile.kind(of: path) == .directory ? nil : "\(path) is not a folder"
    }

    /// Whether every output exists and is newer than every input.
    package static func isUpToDate(_ outputs: [String], inputs: [String]) -> Bool {
        let outputTimes = outputs.map(modification)
        let inputTimes = inputs.map(modification)
        guard let oldestOutput = outputTimes.map({ $0 ?? .distantPast }).min(),
              !outputTimes.contains(where: { $0 == nil }) else { return false }
        // An input that cannot be read cannot be trusted to be older.
        guard !inputTimes.contains(where: { $0 == nil }) else { return false }
        return inputTimes.allSatisfy { $0.map { $0 < oldestOutput } ?? false }
    }

    private static func modification(of path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
