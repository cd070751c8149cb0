import Foundation
import KineticGeometry
import KineticScene

/// One scene's goldens as rendered now (``GoldenRun``), and where its golden files live.
package struct RenderedGoldens {
    package var scene: KineticScene.Scene
    package var frames: [(index: Int, image: PixelImage)]
    /// The scene's name (its file name without extension).
    package var name: String
    /// `golden/NAME`.
    package var folder: String
    /// Where every golden file must resolve (nil with `--allow-any-path`).
    package var root: String?
    /// Every frame in a grid, when `golden.filmstrip` is on.
    package var filmstrip: PixelImage?
    /// Every frame's state, unless `golden.state` is off.
    package var state: StateTable?

    /// Renders the goldens of `scene` (loaded from `path`) in one run of its frames: the
    /// golden frames `indices` at `golden.scale`, the filmstrip and the state.
    package init(scene: Scene, path: String, frames indices: [Int], folder: String, root: String?,
                 limits: SceneLimits, jobs: Int) throws {
        let run = try GoldenRun(scene.model, frames: indices, limits: limits, jobs: jobs)
        (self.scene, self.frames, self.filmstrip, self.state) = (scene.model, run.frames, run.filmstrip, run.state)
        (self.name, self.folder, self.root) = (GoldenFrames.sceneName(path), folder, root)
    }

    /// `frame NNNN`: the reports print `NAME frame NNNN`.
    package static func caseName(_ index: Int) -> String { "frame \(String(format: "%04d", index))" }

    /// The pictures to compare: each golden frame, then the filmstrip.
    package var pictures: [(name: String, file: String, image: PixelImage)] {
        frames.map { (Self.caseName($0.index), GoldenFrames.fileName(frame: $0.index), $0.image) }
            + (filmstrip.map { [("filmstrip", GoldenFrames.filmstripFileName, $0)] } ?? [])
    }

    /// `golden/NAME/FILE`.
    package func path(_ file: String) -> String { GoldenFrames.join(folder, file) }
}
