import Foundation
import Testing
import KineticGeometry
import KineticLayers
import KineticScene
@testable import KineticRender

/// `shouldRasterize` with `rasterizationScale`: the subtree drawn into a bitmap at that
/// scale, then composited — a low scale shows.
@Suite struct RasterizationTests {
    func render(_ layer: String, scale: Double = 1) throws -> PixelImage {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [60, 60], duration: 1, background: white}
        layers: [\(layer)]
        """, file: "t.yaml")
        return Renderer(scale: scale).render(Timeline(scene: scene).frame(0))
    }

    let square = "{frame: [10, 10, 40, 40], backgroundColor: red, cornerRadius: 8, sublayers: [{frame: [5, 5, 10, 10], backgroundColor: blue}]"

    @Test func atTheScaleDrawnItLooksTheSame() throws {
        let plain = try render(square + "}")
        let cached = try render(square + ", shouldRasterize: true}")
        var worst = 0
        for y in 0..<60 {
            for x in 0..<60 {
                let a = plain.rgba(x: x, y: y), b = cached.rgba(x: x, y: y)
                worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            }
        }
        #expect(worst <= 1)
    }

    @Test func aLowScaleShowsBlurred() throws {
        // rasterizationScale 0.2: the 40 pt square is an 8 px bitmap, a bitmap pixel 5 pt.
        // Device pixel 10 (centre 10.5 pt, bitmap x 2.1) blends bitmap pixels 1 (clear) and
        // 2 (red) 0.4 : 0.6, so white shows through: green ≈ 0.4 · 255 = 102.
        let plain = try render(square + "}")
        let coarse = try render(square + ", shouldRasterize: true, rasterizationScale: 0.2}")
        #expect(plain.rgba(x: 10, y: 30) == (255, 0, 0, 255))
        let edge = coarse.rgba(x: 10, y: 30)
        #expect(abs(Int(edge.g) - 102) <= 8, "\(edge)")
        // Drawn at --scale 2 with the default rasterizationScale 1, the bitmap has half
        // the pixels drawn: the edge is softer than the direct drawing at scale 2.
        let direct2 = try render(square + "}", scale: 2), cached2 = try render(square + ", shouldRasterize: true}", scale: 2)
        func soft(_ image: PixelImage) -> Int {
            (0..<120).filter { x in let p = image.rgba(x: x, y: 60); return p.g > 10 && p.g < 245 }.count
        }
        #expect(soft(cached2) > soft(direct2))
    }

    @Test func theScaleIsChecked() {
        #expect(throws: SceneLoadError.self) {
            try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [60, 60], duration: 1}
            layers: [{frame: [0, 0, 10, 10], shouldRasterize: true, rasterizationScale: 0}]
            """, file: "t.yaml")
        }
    }
}
