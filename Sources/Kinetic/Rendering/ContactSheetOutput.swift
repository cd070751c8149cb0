import Foundation
import KineticEncode
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// A contact sheet whose frames, rasterized together, do not fit the memory budget.
package struct ContactSheetTooLarge: Error {
    package var frames: Int
    package var width: Int
    package var height: Int
    /// What the frames need, about.
    package var bytes: Int
    /// The system's limit when it is what binds; nil when the budget (`--max-memory`) is.
    package var ceiling: MemoryCeiling?
}

extension SceneRenderer {
    /// Writes a PNG of twelve evenly spaced frames (fewer in a shorter scene), four to a
    /// row, each labelled with its frame and time (`render --contact-sheet`).
    ///
    /// - Throws: ``SceneRenderError`` when the system leaves too little memory,
    ///   ``ContactSheetTooLarge`` when the frames do not fit `maxMemory`, else what the
    ///   frames and the PNG writer throw.
    package func writeContactSheet(frameCount count: Int, maxMemory: Int, to path: String) throws {
        let n = min(12, count)
        // The frames are rasterized together: all of them must fit the memory budget.
        let size = renderer.pixelSize(of: timeline.scene.settings.size)
        let bytes = Double(size.width) * Double(size.height) * 4 * Double(n + 1)
        let budget = try MemoryCeiling.frameBudget(maxMemory)
        guard bytes <= Double(budget.bytes) else {
            throw ContactSheetTooLarge(frames: n, width: size.width, height: size.height, bytes: Int(bytes),
                                       ceiling: budget.ceiling)
        }
        let indices = (0..<n).map { n == 1 ? 0 : Int((Double($0) * Double(count - 1) / Double(n - 1)).rounded()) }
        // Trees in order (physics and emitters advance frame by frame), then rasterized in parallel.
        let clock = FrameClock(timeline: timeline, maxParticles: maxParticles)
        let renderer = self.renderer, fps = self.fps
        let trees = try indices.map { try clock.renderingFrame($0, fps: fps) }
        let thumbs = try Parallel.map(trees, jobs: jobs) { tree -> (label: String, image: PixelImage) in
            let i = tree.index
            return (label: "\(i) · \(String(format: "%.2f", Double(i) / fps))s", image: try renderer.rasterize(tree))
        }
        let sheet = ContactSheet.compose(thumbs, columns: 4, background: .white)
        try PNGWriter.write(sheet, to: path)
    }
}
