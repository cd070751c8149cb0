import Foundation
import Testing
import KineticGeometry
import KineticLayers
import KineticScene
@testable import KineticRender

/// `allowsEdgeAntialiasing` and `edgeAntialiasingMask` (CALayer): a rotated red layer on
/// white has only whole pixels (red or white) along the edges that are not antialiased,
/// and blended ones along those that are.
@Suite struct EdgeAntialiasingTests {
    /// A 60 × 40 pt layer centred at (50, 50), turned 0.3 rad, drawn at scale 1.
    func render(_ keys: String) throws -> PixelImage {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], duration: 1, background: white}
        layers:
          - {position: [50, 50], bounds: [60, 40], backgroundColor: red, transform: {rotate: 0.3}\(keys)}
        """, file: "t.yaml")
        return Renderer(scale: 1).render(Timeline(scene: scene).frame(0))
    }

    /// A pixel neither white nor red (nor another colour drawn whole): part-covered.
    static func isPartial(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), whole: [(UInt8, UInt8, UInt8)]) -> Bool {
        !whole.contains { $0.0 == p.r && $0.1 == p.g && $0.2 == p.b }
    }

    static let redAndWhite: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (255, 255, 255)]

    /// The partial pixels along each edge of the layer (by name), leaving out those within
    /// 4 pt of a corner: each pixel centre mapped back into the layer's bounds space.
    static func partialPixels(_ image: PixelImage) -> [String: Int] {
        var counts = ["layerLeftEdge": 0, "layerRightEdge": 0, "layerBottomEdge": 0, "layerTopEdge": 0]
        let c = cos(-0.3), s = sin(-0.3)
        for y in 0..<image.height {
            for x in 0..<image.width where isPartial(image.rgba(x: x, y: y), whole: redAndWhite) {
                let dx = Double(x) + 0.5 - 50, dy = Double(y) + 0.5 - 50
                // Bounds space: (0, 0) … (60, 40).
                let u = c * dx - s * dy + 30, v = s * dx + c * dy + 20
                let distances = [("layerLeftEdge", abs(u)), ("layerRightEdge", abs(u - 60)),
                                 ("layerBottomEdge", abs(v)), ("layerTopEdge", abs(v - 40))]
                guard let nearest = distances.min(by: { $0.1 < $1.1 }), nearest.1 < 2 else { continue }
                let nearCorner = (u < 4 || u > 56) && (v < 4 || v > 36)
                if !nearCorner { counts[nearest.0, default: 0] += 1 }
            }
        }
        return counts
    }

    @Test func withoutEdgeAntialiasingEveryPixelIsWhole() throws {
        let smooth = try render("")
        let hard = try render(", allowsEdgeAntialiasing: false")
        func partial(_ image: PixelImage, _ whole: [(UInt8, UInt8, UInt8)]) -> Int {
            (0..<image.height).reduce(0) { n, y in
                n + (0..<image.width).filter { Self.isPartial(image.rgba(x: $0, y: y), whole: whole) }.count
            }
        }
        // Antialiased (Kinetic's default): the slanted edges blend (≈ 200 px of edge).
        #expect(partial(smooth, Self.redAndWhite) > 100)
        #expect(partial(hard, Self.redAndWhite) == 0)
        // The same area, give or take the edge pixels: about 60 × 40 = 2400 red ones.
        let red = (0..<100).reduce(0) { n, y in n + (0..<100).filter { hard.rgba(x: $0, y: y).g == 0 }.count }
        #expect(abs(red - 2400) < 100, "\(red)")
        // The border too: red, blue and white only.
        let bordered = try render(", borderWidth: 5, borderColor: blue, allowsEdgeAntialiasing: false")
        #expect(partial(bordered, Self.redAndWhite + [(0, 0, 255)]) == 0)
        #expect(partial(try render(", borderWidth: 5, borderColor: blue"), Self.redAndWhite + [(0, 0, 255)]) > 100)
    }

    @Test func theMaskChoosesTheEdgesThatStayAntialiased() throws {
        let all = Self.partialPixels(try render(""))
        #expect(all.values.allSatisfy { $0 > 10 }, "\(all)")
        let some = Self.partialPixels(try render(", edgeAntialiasingMask: [layerLeftEdge, layerTopEdge]"))
        #expect(some["layerLeftEdge", default: 0] > 10 && some["layerTopEdge", default: 0] > 10, "\(some)")
        #expect(some["layerRightEdge"] == 0 && some["layerBottomEdge"] == 0, "\(some)")
        let none = Self.partialPixels(try render(", edgeAntialiasingMask: []"))
        #expect(none.values.allSatisfy { $0 == 0 }, "\(none)")
        // The mask matters only while edge antialiasing is allowed.
        let off = Self.partialPixels(try render(", allowsEdgeAntialiasing: false, edgeAntialiasingMask: [layerLeftEdge]"))
        #expect(off.values.allSatisfy { $0 == 0 }, "\(off)")
    }

    @Test func theMaskNamesAreApples() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [10, 10], duration: 1}
        layers: [{id: a, edgeAntialiasingMask: [layerBottomEdge, layerTopEdge], allowsEdgeAntialiasing: false}]
        """, file: "t.yaml")
        let layer = try #require(scene.layers.first)
        #expect(layer.edgeAntialiasingMask.rawValue == 4 | 8)
        #expect(layer.allowsEdgeAntialiasing == false)
        #expect(throws: SceneLoadError.self) {
            try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [10, 10], duration: 1}
            layers: [{edgeAntialiasingMask: [layerMinXEdge]}]
            """, file: "t.yaml")
        }
    }
}
