import Foundation
import Testing
import KineticGeometry
import KineticLayers
import KineticScene
@testable import KineticRender

/// Replicator copies as pixels: loaded, expanded by the runtime, rendered.
@Suite struct ReplicatorRenderTests {
    func image(_ body: String, time: Double = 0, scale: Double = 1, name: String) throws -> PixelImage {
        let yaml = "kinetic: 1\nscene: {size: [120, 40], duration: 1, background: clear}\n" + body
        let timeline = Timeline(scene: try SceneLoader.load(text: yaml, file: "t.yaml"))
        let image = Renderer(scale: scale).render(timeline.frame(at: time, index: 0))
        try? writePNG(image, to: "/tmp/kinetic-render-\(name).png")
        return image
    }

    func near(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ expected: (Int, Int, Int, Int)) -> Bool {
        abs(Int(p.r) - expected.0) <= 2 && abs(Int(p.g) - expected.1) <= 2
            && abs(Int(p.b) - expected.2) <= 2 && abs(Int(p.a) - expected.3) <= 2
    }

    @Test func threeInstancesWithColorOffsets() throws {
        // Copy k sits 40 points further right; its red is multiplied by 1 − 0.4k and its
        // alpha by 1 − 0.25k: #FF8000 becomes (255, 128, 0, 255), (153, 128, 0, 191),
        // (51, 128, 0, 128) in straight (unpremultiplied) 8-bit values.
        let image = try image("""
        layers:
          - type: replicator
            frame: [0, 0, 120, 40]
            instanceCount: 3
            instanceTransform: {translate: [40, 0, 0]}
            instanceRedOffset: -0.4
            instanceAlphaOffset: -0.25
            sublayers: [{frame: [5, 5, 30, 30], backgroundColor: "#FF8000"}]
        """, name: "replicator3")
        let expected = [(255, 128, 0, 255), (153, 128, 0, 191), (51, 128, 0, 128)]
        for (k, e) in expected.enumerated() {
            for (x, y) in [(20 + 40 * k, 20), (7 + 40 * k, 7), (32 + 40 * k, 32)] {
                let pixel = image.rgba(x: x, y: y)
                #expect(near(pixel, e), "copy \(k) at (\(x), \(y)): \(pixel)")
            }
            // The gaps between copies stay clear.
            let gapsClear = image.isClear(40 * k + 2, 20) && image.isClear(40 * k + 37, 20)
            #expect(gapsClear)
        }
    }

    @Test func instanceColorMultipliesGradientsAndStrokesToo() throws {
        // A white stroke multiplied by #3366CC shows #3366CC.
        let image = try image("""
        layers:
          - type: replicator
            frame: [0, 0, 120, 40]
            instanceCount: 1
            instanceColor: "#3366CC"
            sublayers:
              - {type: shape, path: "M 0 20 L 120 20", strokeColor: white, lineWidth: 10, fillColor: clear}
        """, scale: 2, name: "replicatorTint")
        let stroke = image.rgba(x: 100, y: 40)
        #expect(near(stroke, (0x33, 0x66, 0xCC, 255)), "\(stroke)")
        let outsideClear = image.isClear(100, 20)
        #expect(outsideClear)
    }
}
