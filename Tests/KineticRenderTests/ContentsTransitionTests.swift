import Foundation
import Testing
import KineticGeometry
import KineticLayers
import KineticScene
@testable import KineticRender

/// `contents` animations and `contentsScale`, rendered from scene files with PNG assets.
@Suite struct ContentsTransitionTests {
    /// A folder holding `red.png` and `blue.png` (solid, `side` px square, also as
    /// `name@2x.png`) and `scene.yaml` with `body` under a 20×20 pt scene.
    func folder(_ body: String, side: Int = 10) throws -> String {
        let dir = NSTemporaryDirectory() + "kinetic-contents-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, color) in [("red", (255, 0, 0)), ("blue", (0, 0, 255))] {
            var pixels = PixelImage(width: side, height: side)
            for y in 0..<side {
                for x in 0..<side {
                    let i = y * pixels.stride + x * 4   // B, G, R, A
                    pixels.bytes[i] = UInt8(color.2); pixels.bytes[i + 1] = UInt8(color.1)
                    pixels.bytes[i + 2] = UInt8(color.0); pixels.bytes[i + 3] = 255
                }
            }
            try writePNG(pixels, to: "\(dir)/\(name).png")
            try writePNG(pixels, to: "\(dir)/\(name)@2x.png")
        }
        // Only a @3x variant: UIImage(named: "solo") finds it.
        try FileManager.default.copyItem(atPath: "\(dir)/red.png", toPath: "\(dir)/solo@3x.png")
        try ("kinetic: 1\nscene: {size: [20, 20], duration: 1, fps: 20}\n" + body)
            .write(toFile: dir + "/scene.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    func render(_ dir: String, at time: Double, scale: Double = 1) throws -> PixelImage {
        let scene = try SceneLoader.load(path: dir + "/scene.yaml")
        let frame = Timeline(scene: scene).frame(at: time, index: 0)
        return Renderer(scale: scale, images: try ImageCache(loading: scene.assets)).render(frame)
    }

    @Test func contentsAnimationsCrossFade() throws {
        // Core Animation cross-fades contents: a quarter of the way the layer shows
        // 0.75·red + 0.25·blue = (191, 0, 64); main switched at the half (255, 0, 0).
        let dir = try folder("""
        layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: red.png}]
        animations: [{layer: i, keyPath: contents, to: blue.png, duration: 1}]
        """)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (t, r, b) in [(0.25, 191, 64), (0.5, 128, 128), (0.75, 64, 191)] {
            let p = try render(dir, at: t).rgba(x: 10, y: 10)
            #expect(abs(Int(p.r) - r) <= 1 && p.g == 0 && abs(Int(p.b) - b) <= 1 && p.a == 255, "t=\(t): \(p)")
        }
        let end = try render(dir, at: 1).rgba(x: 10, y: 10)
        #expect(end.r == 0 && end.b == 255)
    }

    @Test func keyframedContentsCrossFadeAndDiscreteSwitches() throws {
        let dir = try folder("""
        layers: [{id: i, type: image, frame: [0, 0, 20, 20], contents: red.png},
                 {id: d, type: image, frame: [0, 0, 10, 10], contents: red.png}]
        animations:
          - {layer: i, keyPath: contents, values: [red.png, blue.png, red.png], keyTimes: [0, 0.5, 1], duration: 1}
          - {layer: d, keyPath: contents, values: [red.png, blue.png], keyTimes: [0, 0.5, 1], calculationMode: discrete, duration: 1}
        """)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try render(dir, at: 0.75)
        // Half-way through the second segment (blue → red): (128, 0, 128).
        let p = image.rgba(x: 15, y: 15)
        #expect(abs(Int(p.r) - 128) <= 1 && abs(Int(p.b) - 128) <= 1, "\(p)")
        // Discrete keyframes hold each value: blue from key time 0.5.
        let q = image.rgba(x: 5, y: 5)
        #expect(q.r == 0 && q.b == 255, "\(q)")
    }

    /// The columns of row 10 the image covers (red), at scene scale `scale`.
    func redColumns(_ dir: String, scale: Double = 1) throws -> ClosedRange<Int>? {
        let image = try render(dir, at: 0, scale: scale)
        let y = Int(10 * scale)
        let xs = (0..<image.width).filter { let p = image.rgba(x: $0, y: y); return p.r == 255 && p.g == 0 && p.b == 0 }
        return xs.first.flatMap { a in xs.last.map { a...$0 } }
    }

    @Test func contentsScaleAndAtNxNamesSetPixelsPerPoint() throws {
        // A 10 px image centred in 20 pt (contentsGravity center): at contentsScale 1 it
        // covers x 5…15 pt; red@2x.png is 5 pt (7.5…12.5), contentsScale 0.5 makes 20 pt.
        // Main drew every asset at one pixel a point: 5…15 each time.
        func layer(_ contents: String, _ extra: String = "") -> String {
            "layers: [{id: i, type: image, frame: [0, 0, 20, 20], contentsGravity: center, contents: \(contents)\(extra)}]\n"
        }
        let plain = try folder(layer("red.png")), twice = try folder(layer("red@2x.png"))
        let half = try folder(layer("red.png", ", contentsScale: 0.5")), solo = try folder(layer("solo.png"))
        defer { for d in [plain, twice, half, solo] { try? FileManager.default.removeItem(atPath: d) } }
        let found = [try redColumns(plain), try redColumns(twice), try redColumns(half), try redColumns(solo),
                     try redColumns(twice, scale: 2)]
        let expected: [ClosedRange<Int>?] = [5...14, 8...11, 0...19, 9...10, 15...24]
        #expect(found == expected, "\(found)")
    }
}
