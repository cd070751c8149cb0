import Foundation
import KineticEncode
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// Why a frame cannot be produced.
public struct FrameRenderError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, one line.
    public var message: String
    public var description: String { message }
}

/// A frame's pixels as straight (not premultiplied) RGBA bytes, rows top to bottom.
public struct RGBAImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public var bytes: [UInt8]
}

extension Scene {
    /// Hands `body` the presentation tree of each of `frames` (ascending) and the clock
    /// that made it, simulated from the start as the command does (physics and particles
    /// advance frame by frame). Frame N shows time N / fps, as `kinetic render --frame N`.
    package func forEachFrame(_ frames: [Int], _ body: (SceneFrame, FrameClock) -> Void) throws(FrameRenderError) {
        guard frames == frames.sorted() else { throw FrameRenderError(message: "frames are simulated in order: give them ascending") }
        if let bad = frames.first(where: { $0 < 0 || $0 >= frameCount }) {
            throw FrameRenderError(message: "frame \(bad) is outside the scene's frames 0-\(frameCount - 1)")
        }
        let clock = FrameClock(timeline: Timeline(scene: model), maxParticles: limits.maxParticles)
        for index in frames {
            do { body(try clock.frame(at: Double(index) / framesPerSecond, index: index), clock) } catch {
                throw FrameRenderError(message: "\(error)")
            }
        }
    }

    /// The presentation trees of `frames` (ascending).
    package func trees(_ frames: [Int]) throws(FrameRenderError) -> [SceneFrame] {
        var trees: [SceneFrame] = []
        try forEachFrame(frames) { tree, _ in trees.append(tree) }
        return trees
    }

    /// A renderer with the scene's images decoded, at its scale.
    package func renderer() throws(FrameRenderError) -> Renderer {
        if let problem = limits.canvasProblem(size: model.settings.size, scale: model.settings.scale) {
            throw FrameRenderError(message: problem)
        }
        do { return Renderer(scale: model.settings.scale, images: try ImageCache(loading: model.assets)) } catch {
            throw FrameRenderError(message: "\(error)")
        }
    }

    /// The rasters of `frames` (ascending).
    package func images(atFrames frames: [Int]) throws(FrameRenderError) -> [PixelImage] {
        let renderer = try renderer()
        var images: [PixelImage] = []
        for tree in try trees(frames) {
            do { images.append(try renderer.rasterize(tree)) } catch { throw FrameRenderError(message: "\(error)") }
        }
        return images
    }

    /// Frame `index` encoded as PNG: the same bytes `kinetic render SCENE --frame N -o
    /// FILE.png` writes.
    public func pngData(atFrame index: Int) throws(FrameRenderError) -> Data {
        let image = try images(atFrames: [index])[0]
        do { return Data(try PNGWriter.encode(image)) } catch { throw FrameRenderError(message: "\(error)") }
    }

    /// Frame `index` as straight RGBA pixels.
    public func rgbaImage(atFrame index: Int) throws(FrameRenderError) -> RGBAImage {
        let image = try images(atFrames: [index])[0]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                bytes += [p.r, p.g, p.b, p.a]
            }
        }
        return RGBAImage(width: image.width, height: image.height, bytes: bytes)
    }
}
