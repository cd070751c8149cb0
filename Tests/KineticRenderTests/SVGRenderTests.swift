import Foundation
import Testing
import KineticGeometry
import KineticLayers
import KineticScene
@testable import KineticRender

/// SVG in, in pixels at `--scale 3`: an SVG path on a shape layer and SVG contents drawn
/// as vector, their edges where the geometry puts them (to within the pixel that the
/// edge crosses), not an upscaled bitmap's blur.
@Suite struct SVGRenderTests {
    /// A circle of radius 40 at the centre of a 100 × 100 viewBox, filled blue.
    static let circle = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
          <circle cx="50" cy="50" r="40" fill="#0000ff"/>
        </svg>
        """

    /// A folder holding `files` and `scene.yaml` (a 100 × 100 pt scene with `layers`).
    func folder(_ layers: String, files: [String: String]) throws -> String {
        let dir = NSTemporaryDirectory() + "kinetic-svg-render-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8) }
        try ("kinetic: 1\nscene: {size: [100, 100], duration: 1, fps: 10, background: clear}\nlayers:\n" + layers)
            .write(toFile: dir + "/scene.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    func render(_ dir: String, scale: Double = 3, at time: Double = 0) throws -> PixelImage {
        let scene = try SceneLoader.load(path: dir + "/scene.yaml")
        let frame = Timeline(scene: scene).frame(at: time, index: Int(time * 10))
        return Renderer(scale: scale, images: try ImageCache(loading: scene.assets)).render(frame)
    }

    /// The circle's edges at scale 3: centre (150, 150) px, radius 120 px. Along the
    /// middle row and column the edge crosses pixel 30 and pixel 270 at their borders:
    /// pixels 28 and 271 are outside, 31 and 268 inside, and no more than the one pixel
    /// on each border is partly covered (the same circle as a 100 px PNG, drawn at scale 3,
    /// smears its rim over 5 px: measured with `kinetic render`).
    func expectCircleEdges(_ image: PixelImage, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(image.width == 300 && image.height == 300, sourceLocation: sourceLocation)
        for (x, y) in [(28, 150), (271, 150), (150, 28), (150, 271), (40, 40)] {
            #expect(image.alpha(x, y) == 0, "(\(x), \(y)) outside", sourceLocation: sourceLocation)
        }
        for (x, y) in [(31, 150), (268, 150), (150, 31), (150, 268), (150, 150)] {
            #expect(image.alpha(x, y) == 255, "(\(x), \(y)) inside", sourceLocation: sourceLocation)
        }
        let row = (20..<40).map { image.alpha($0, 150) }
        #expect(row.filter { $0 > 0 && $0 < 255 }.count <= 2, "\(row)", sourceLocation: sourceLocation)
        // The area: π r² = π · 120² ≈ 45,239 px, to within the antialiased rim.
        let covered = (0..<300).flatMap { y in (0..<300).map { image.alpha($0, y) } }.reduce(0) { $0 + Double($1) / 255 }
        #expect(abs(covered - Double.pi * 120 * 120) < 2 * Double.pi * 120 * 0.5, "\(covered)", sourceLocation: sourceLocation)
    }

    @Test func anSVGPathLayerIsDrawnAtItsGeometryAtScale3() throws {
        let dir = try folder("""
              - type: shape
                frame: [0, 0, 100, 100]
                path: {svg: circle.svg}
                fillColor: blue
            """, files: ["circle.svg": Self.circle])
        let image = try render(dir)
        expectCircleEdges(image)
        #expect(image.isOpaque(Color(red: 0, green: 0, blue: 1), 150, 150))
    }

    @Test func anSVGPathFollowsTheLayersBoundsAndTheFilesGroups() throws {
        // A 10 × 10 square at (5, 5) in a group moved by (80, 0) of a 100-unit viewBox, the
        // layer 50 pt wide: the square lands at x 42.5…47.5 pt → 127.5…142.5 px at scale 3.
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
              <g transform="translate(80 0)"><rect x="5" y="5" width="10" height="10"/></g>
            </svg>
            """
        let dir = try folder("""
              - type: shape
                frame: [0, 0, 50, 50]
                path: {svg: square.svg}
                fillColor: black
            """, files: ["square.svg": svg])
        let image = try render(dir)
        #expect(image.alpha(126, 15) == 0 && image.alpha(129, 15) == 255 && image.alpha(141, 15) == 255)
        #expect(image.alpha(143, 15) == 0 && image.alpha(135, 6) == 0 && image.alpha(135, 9) == 255)
    }

    @Test func svgContentsAreDrawnAsVectorAtScale3() throws {
        let dir = try folder("""
              - frame: [0, 0, 100, 100]
                contents: circle.svg
            """, files: ["circle.svg": Self.circle])
        let image = try render(dir)
        expectCircleEdges(image)
        #expect(image.isOpaque(Color(red: 0, green: 0, blue: 1), 150, 150))
    }

    @Test func svgContentsFollowContentsGravity() throws {
        // A 50 × 50 pt document centred in 100 × 100 pt bounds: 25…75 pt, 75…225 px.
        let square = """
            <svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><rect width="50" height="50" fill="red"/></svg>
            """
        let dir = try folder("""
              - frame: [0, 0, 100, 100]
                contents: square.svg
                contentsGravity: center
            """, files: ["square.svg": square])
        let image = try render(dir)
        #expect(image.alpha(74, 150) == 0 && image.alpha(75, 150) == 255 && image.alpha(224, 150) == 255)
        #expect(image.alpha(225, 150) == 0 && image.alpha(150, 74) == 0 && image.alpha(150, 75) == 255)
    }

    @Test func svgContentsCrossFadeAsImagesDo() throws {
        // Red fades to blue over the second: halfway, each contributes half (linear blend).
        let red = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#ff0000"/></svg>"##
        let blue = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0000ff"/></svg>"##
        let dir = try folder("""
              - id: pic
                frame: [0, 0, 100, 100]
                contents: red.svg
            animations:
              - {layer: pic, keyPath: contents, from: red.svg, to: blue.svg, duration: 1}
            """, files: ["red.svg": red, "blue.svg": blue])
        let start = try render(dir, scale: 1, at: 0).rgba(x: 50, y: 50)
        #expect(start.r == 255 && start.b == 0 && start.a == 255)
        let half = try render(dir, scale: 1, at: 0.5).rgba(x: 50, y: 50)
        #expect(abs(Int(half.r) - 128) <= 2 && abs(Int(half.b) - 128) <= 2 && half.a == 255, "\(half)")
    }

    @Test func anSVGThatLibrsvgCannotReadIsAnAssetError() throws {
        let path = NSTemporaryDirectory() + "kinetic-bad-\(UUID().uuidString).svg"
        try "<svg xmlns='http://www.w3.org/2000/svg'><rect".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ImageCacheError.self) { try ImageCache(loading: [path]) }
    }
}
