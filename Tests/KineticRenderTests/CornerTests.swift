import Testing
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// `maskedCorners` and `cornerCurve: continuous` on background, border, clip and shadow.
@Suite struct CornerTests {
    static func image(_ layer: String, size: Int = 200) throws -> PixelImage {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [\(size), \(size)], scale: 1, duration: 1, background: clear}
        layers:
          - \(layer)
        """, file: "t.yaml")
        return Renderer(scale: 1).render(Timeline(scene: scene).frame(0))
    }

    /// Covered area in points: the alpha of every pixel, summed.
    static func coverage(_ image: PixelImage) -> Double {
        var sum = 0.0
        for y in 0..<image.height { for x in 0..<image.width { sum += Double(image.rgba(x: x, y: y).a) / 255 } }
        return sum
    }

    @Test func onlyTheMaskedCornerIsRoundedAndAContinuousOneCutsMore() throws {
        // A 200-point square, radius 60, only the top-left corner (MinX, MinY) rounded.
        // Circular cut: 60²(1 − π/4) = 772.6 pt²; continuous: 0.22470 × 60² = 808.9 pt².
        let base = "{frame: [0, 0, 200, 200], backgroundColor: white, cornerRadius: 60, maskedCorners: [layerMinXMinYCorner]"
        let circular = try Self.image(base + "}")
        let continuous = try Self.image(base + ", cornerCurve: continuous}")
        for (x, y) in [(199, 0), (199, 199), (0, 199)] {
            #expect(circular.rgba(x: x, y: y).a == 255 && continuous.rgba(x: x, y: y).a == 255)
        }
        #expect(circular.rgba(x: 0, y: 0).a == 0 && continuous.rgba(x: 0, y: 0).a == 0)
        // Cairo samples coverage on a grid: the sums land within 4 pt² (the two differ by 36).
        #expect(abs(Self.coverage(circular) - (40000 - 772.6)) < 4)
        #expect(abs(Self.coverage(continuous) - (40000 - 808.9)) < 4)
        // Along the top edge at x = 61…62 the circle has ended; the squircle still bends
        // (it reaches 1.5287 × 60 = 91.7 points along the edge).
        #expect(circular.rgba(x: 61, y: 0).a == 255)
        #expect(continuous.rgba(x: 61, y: 0).a < 255)
    }

    @Test func borderAndClipFollowTheMaskedCorners() throws {
        // masksToBounds clips a sublayer to the same outline: the bottom-right corner
        // (MaxX, MaxY) is cut, the others stay square.
        let clipped = try Self.image("""
        {frame: [0, 0, 100, 100], cornerRadius: 40, maskedCorners: [layerMaxXMaxYCorner], masksToBounds: true,
             sublayers: [{frame: [0, 0, 100, 100], backgroundColor: red}]}
        """, size: 100)
        #expect(clipped.rgba(x: 99, y: 99).a == 0 && clipped.rgba(x: 0, y: 0).a == 255 && clipped.rgba(x: 99, y: 0).a == 255)
        // A 4-point border keeps its corners' centres: at the rounded corner the ring is
        // 4 points thick along the diagonal, at the square ones it fills the corner pixel.
        let bordered = try Self.image("{frame: [0, 0, 100, 100], cornerRadius: 40, maskedCorners: [layerMaxXMaxYCorner], borderWidth: 4, borderColor: blue}", size: 100)
        #expect(bordered.rgba(x: 0, y: 0).a == 255 && bordered.rgba(x: 50, y: 50).a == 0)
        // The diagonal meets the arc (centre 60, 60, radius 40) at 60 + 28.28 = 88.3.
        #expect(bordered.rgba(x: 86, y: 86).a == 255 && bordered.rgba(x: 90, y: 90).a == 0)
    }

    @Test func unknownCornerNamesAreLocatedErrors() {
        #expect(throws: SceneLoadError.self) {
            _ = try Self.image("{frame: [0, 0, 10, 10], maskedCorners: [layerMinXMinYcorner]}")
        }
    }
}
