import Foundation
import Testing
import KineticGeometry
import KineticLayers
import KineticScene
@testable import KineticRender

/// `contentsRect`, `minificationFilter`/`magnificationFilter` and `allowsGroupOpacity`,
/// rendered from scene files against hand-computed pixels.
@Suite struct ContentsSamplingTests {
    /// A folder with `checker.png`, 2×2 px: red, blue / blue, red; and `scene.yaml` (20×20 pt).
    func folder(_ body: String) throws -> String {
        let dir = NSTemporaryDirectory() + "kinetic-sampling-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var pixels = PixelImage(width: 2, height: 2)
        for y in 0..<2 {
            for x in 0..<2 {
                let i = y * pixels.stride + x * 4   // B, G, R, A
                let isRed = x == y
                pixels.bytes[i] = isRed ? 0 : 255; pixels.bytes[i + 1] = 0
                pixels.bytes[i + 2] = isRed ? 255 : 0; pixels.bytes[i + 3] = 255
            }
        }
        try writePNG(pixels, to: "\(dir)/checker.png")
        // nine.png, 3×3 px: red corners, green edges, a blue middle.
        var nine = PixelImage(width: 3, height: 3)
        for y in 0..<3 {
            for x in 0..<3 {
                let i = y * nine.stride + x * 4
                let edges = (x == 1 ? 1 : 0) + (y == 1 ? 1 : 0)   // 0 corner, 1 edge, 2 middle
                nine.bytes[i] = edges == 2 ? 255 : 0; nine.bytes[i + 1] = edges == 1 ? 255 : 0
                nine.bytes[i + 2] = edges == 0 ? 255 : 0; nine.bytes[i + 3] = 255
            }
        }
        try writePNG(nine, to: "\(dir)/nine.png")
        try ("kinetic: 1\nscene: {size: [20, 20], duration: 1, fps: 20}\n" + body)
            .write(toFile: dir + "/scene.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    func render(_ body: String, at time: Double = 0) throws -> PixelImage {
        let dir = try folder(body)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = try SceneLoader.load(path: dir + "/scene.yaml")
        return Renderer(scale: 1, images: try ImageCache(loading: scene.assets)).render(Timeline(scene: scene).frame(at: time, index: 0))
    }

    @Test func nearestMagnificationKeepsThePixelsSharp() throws {
        // 2 px over 20 pt: each image pixel covers 10×10 device pixels.
        let sharp = try render("layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: checker.png, magnificationFilter: nearest}]\n")
        #expect(sharp.rgba(x: 9, y: 5) == (255, 0, 0, 255) && sharp.rgba(x: 10, y: 5) == (0, 0, 255, 255))
        #expect(sharp.rgba(x: 0, y: 19) == (0, 0, 255, 255) && sharp.rgba(x: 19, y: 19) == (255, 0, 0, 255))
        // linear (the default) blends across the middle.
        let smooth = try render("layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: checker.png}]\n")
        let p = smooth.rgba(x: 9, y: 5)
        #expect(p.r < 255 && p.b > 0)
        // Minified, nearest is not used for magnification.
        let minified = try render("""
        layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: checker.png, magnificationFilter: linear,
                  minificationFilter: nearest}]
        """)
        #expect(minified.rgba(x: 9, y: 5) == p)
    }

    @Test func contentsRectDrawsOneCellOfTheSheet() throws {
        // The top-right cell (blue) fills the layer.
        let cell = try render("""
        layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: checker.png, contentsRect: [0.5, 0, 0.5, 0.5],
                  magnificationFilter: nearest}]
        """)
        for (x, y) in [(0, 0), (10, 10), (19, 19), (19, 0)] { #expect(cell.rgba(x: x, y: y) == (0, 0, 255, 255), "\(x),\(y)") }
        // The bottom-left cell (blue too) and the bottom-right (red), animated between them.
        let body = """
        layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: checker.png, contentsRect: [0, 0.5, 0.5, 0.5],
                  magnificationFilter: nearest}]
        animations: [{layer: i, keyPath: contentsRect, to: [0.5, 0.5, 0.5, 0.5], duration: 1}]
        """
        #expect(try render(body, at: 0).rgba(x: 10, y: 10) == (0, 0, 255, 255))
        #expect(try render(body, at: 1).rgba(x: 10, y: 10) == (255, 0, 0, 255))
        // Half way the cell straddles both: its left half blue, its right half red.
        let half = try render(body, at: 0.5)
        #expect(half.rgba(x: 2, y: 10) == (0, 0, 255, 255) && half.rgba(x: 17, y: 10) == (255, 0, 0, 255))
    }

    @Test func contentsCenterStretchesOnlyTheMiddle() throws {
        // contentsScale 0.25: each image pixel is 4 pt. The corners stay 4×4 pt, the edges
        // 4 pt thick, the middle fills the other 12×12 pt of the 20×20 layer.
        let image = try render("""
        layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: nine.png, contentsScale: 0.25,
                  contentsCenter: [0.3333333333333333, 0.3333333333333333, 0.3333333333333334, 0.3333333333333334],
                  magnificationFilter: nearest}]
        """)
        let red = (UInt8(255), UInt8(0), UInt8(0), UInt8(255)), green = (UInt8(0), UInt8(255), UInt8(0), UInt8(255))
        let blue = (UInt8(0), UInt8(0), UInt8(255), UInt8(255))
        for (x, y) in [(0, 0), (3, 3), (16, 0), (19, 19), (0, 16)] { #expect(image.rgba(x: x, y: y) == red, "\(x),\(y)") }
        for (x, y) in [(4, 0), (15, 3), (0, 10), (19, 10), (10, 19)] { #expect(image.rgba(x: x, y: y) == green, "\(x),\(y)") }
        for (x, y) in [(4, 4), (10, 10), (15, 15)] { #expect(image.rgba(x: x, y: y) == blue, "\(x),\(y)") }
    }

    @Test func ninePatchesShrinkBordersThatDoNotFit() {
        // Borders of 8 + 8 pt in a 10 pt rect: both scaled by 10/16, the middle empty.
        let patches = ninePatches(source: Rect(0, 0, 3, 3), center: Rect(1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3),
                                  scale: 0.125, into: Rect(0, 0, 10, 40))
        #expect(patches.count == 9)
        let top = patches[0].1, middle = patches[4].1
        #expect(abs(top.width - 5) < 1e-9 && abs(top.height - 8) < 1e-9)
        #expect(abs(middle.width) < 1e-9 && abs(middle.height - 24) < 1e-9)
    }

    @Test func withoutGroupOpacityOverlapsShowThrough() throws {
        func overlap(_ group: Bool) throws -> (Int, Int) {
            let image = try render("""
            layers:
              - {id: p, frame: [0, 0, 20, 20], opacity: 0.5, allowsGroupOpacity: \(group),
                 sublayers: [{frame: [0, 0, 12, 20], backgroundColor: red}, {frame: [8, 0, 12, 20], backgroundColor: red}]}
            """)
            return (Int(image.rgba(x: 10, y: 10).g), Int(image.rgba(x: 2, y: 10).g))
        }
        // Over the white background: as a group the overlap is half red, green 255·0.5;
        // apart, red covers 1 − 0.5·0.5 = 0.75 of it, green 255·0.25 ≈ 64. One layer alone: 128.
        let grouped = try overlap(true), apart = try overlap(false)
        #expect(abs(grouped.0 - 128) <= 1 && abs(grouped.1 - 128) <= 1, "\(grouped)")
        #expect(abs(apart.0 - 64) <= 1 && abs(apart.1 - 128) <= 1, "\(apart)")
    }
}
