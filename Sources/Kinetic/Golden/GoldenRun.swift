import Foundation
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// A scene's goldens as rendered now, from one run of its frames: the golden frames (at
/// `golden.scale`), the filmstrip's thumbnails and every frame's state are taken from the
/// same presentation trees, each computed once by one `FrameClock`.
package struct GoldenRun {
    package var frames: [(index: Int, image: PixelImage)] = []
    /// Every frame in a grid, when `golden.filmstrip` is on.
    package var filmstrip: PixelImage?
    /// Every frame's state, unless `golden.state` is off.
    package var state: StateTable?

    /// Runs `scene` once and renders the golden frames `indices` (ascending), the
    /// filmstrip and the state it asks for. The renderers are made first: they check the
    /// canvas and the memory budget before anything is simulated.
    package init(_ scene: KineticScene.Scene, frames indices: [Int], limits: SceneLimits, jobs: Int) throws {
        var scaled = scene
        scaled.settings.scale = scene.golden.scale
        let golden = try SceneRenderer(scene: scaled, limits: limits, jobs: jobs, showsProgress: false)
        let small = scene.golden.filmstrip
            ? try SceneRenderer(scene: GoldenFrames.filmstripScene(scene), limits: limits, jobs: jobs, showsProgress: false) : nil
        var recorder = scene.golden.state ? StateTable.Recorder(scene) : nil
        // Without a state or a filmstrip, the frames after the last golden one are not needed.
        let count = recorder != nil || small != nil ? scene.frameCount : (indices.last.map { $0 + 1 } ?? 0)
        let wanted = Set(indices)
        let clock = FrameClock(timeline: Timeline(scene: scene), maxParticles: limits.maxParticles)
        let workers = min(golden.jobs, small?.jobs ?? golden.jobs)
        var thumbnails: [PixelImage] = []
        // In chunks: the trees are computed in order (the clock is stateful), then drawn in parallel.
        for start in stride(from: 0, to: count, by: max(2, 2 * workers)) {
            var trees: [SceneFrame] = []
            for index in start..<min(count, start + max(2, 2 * workers)) {
                let tree = try clock.renderingFrame(index)
                try recorder?.add(tree, items: clock.itemStates)
                trees.append(tree)
            }
            let chosen = trees.filter { wanted.contains($0.index) }
            let renderer = golden.renderer
            let images = try Parallel.map(chosen, jobs: workers) { try renderer.rasterize($0) }
            frames += zip(chosen, images).map { ($0.index, $1) }
            if let small {
                let renderer = small.renderer
                thumbnails += try Parallel.map(trees, jobs: workers) { try renderer.rasterize($0) }
            }
        }
        filmstrip = small.map { _ in GoldenFrames.filmstrip(thumbnails) }
        state = recorder?.table
    }
}
