import Foundation
import Testing
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// `filters`, `backgroundFilters` and `compositingFilter` (contract 1.1).
@Suite struct FilterTests {
    static func image(background: String, _ layers: String) throws -> PixelImage {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 200], scale: 1, duration: 1, background: "\(background)"}
        layers:
        \(layers)
        """, file: "t.yaml")
        return Renderer(scale: 1).render(Timeline(scene: scene).frame(0))
    }

    @Test func blendModesComputeThePixelByHand() throws {
        // Backdrop #8080FF = (128, 128, 255), layer #CC6633 = (204, 102, 51), in bytes.
        // multiply a·b/255: (102.4, 51.2, 51) → (102, 51, 51); screen a + b − a·b/255:
        // (229.6, 178.8, 255); difference |a − b|: (76, 26, 204).
        let expected: [(String, (Int, Int, Int))] = [
            ("multiply", (102, 51, 51)), ("screen", (230, 179, 255)), ("difference", (76, 26, 204)),
            ("darken", (128, 102, 51)), ("lighten", (204, 128, 255)),
        ]
        for (mode, rgb) in expected {
            let image = try Self.image(background: "#8080FF", """
              - {frame: [50, 50, 100, 100], backgroundColor: "#CC6633", compositingFilter: \(mode)}
            """)
            let p = image.rgba(x: 100, y: 100)
            #expect(abs(Int(p.r) - rgb.0) <= 1 && abs(Int(p.g) - rgb.1) <= 1 && abs(Int(p.b) - rgb.2) <= 1,
                    "\(mode): \(p)")
            // Outside the layer the backdrop is untouched.
            let q = image.rgba(x: 10, y: 10)
            #expect(q.r == 128 && q.g == 128 && q.b == 255)
        }
    }

    @Test func gaussianBlurKeepsTheEnergyAndSpreadsByTheRadius() throws {
        // A 20-point white square blurred with radius (σ) 5: its alpha still sums to 400
        // pt², and along x its variance grows from the square's (20² − 1)/12 = 33.25 px² by
        // σ² = 25 (the three box blurs give 23.3 for σ = 5: odd widths 9, 9, 11).
        let image = try Self.image(background: "#00000000", """
          - {frame: [90, 90, 20, 20], backgroundColor: white, filters: [{gaussianBlur: 5}]}
        """)
        var sum = 0.0, sumX = 0.0, sumXX = 0.0
        for y in 0..<200 {
            for x in 0..<200 {
                let a = Double(image.rgba(x: x, y: y).a) / 255
                sum += a; sumX += a * (Double(x) + 0.5); sumXX += a * (Double(x) + 0.5) * (Double(x) + 0.5)
            }
        }
        let mean = sumX / sum, variance = sumXX / sum - mean * mean
        #expect(abs(sum - 400) < 8)
        #expect(abs(mean - 100) < 0.05)
        #expect(abs(variance - 58.25) < 2.5)
        // It spread: 3 points outside the square there is alpha, 20 points out none.
        #expect(image.rgba(x: 87, y: 100).a > 20 && image.rgba(x: 70, y: 100).a == 0)
    }

    @Test func backgroundBlurSoftensTheEdgeBehindTheLayerOnly() throws {
        // White left half, black right half; a glass layer over the middle blurs what lies
        // behind it with σ = 5. An edge blurred so reads 255·Φ(−d/σ) at distance d into
        // the black: d = 0.5 → 117, 5.5 → 35; d = −5.5 (white side) → 220.
        let image = try Self.image(background: "#000000", """
          - {frame: [0, 0, 100, 200], backgroundColor: white}
          - {frame: [50, 50, 100, 100], backgroundFilters: [{gaussianBlur: 5}]}
        """)
        func gray(_ x: Int, _ y: Int) -> Int { Int(image.rgba(x: x, y: y).r) }
        #expect(abs(gray(100, 100) - 117) <= 8)
        #expect(abs(gray(105, 100) - 35) <= 8)
        #expect(abs(gray(94, 100) - 220) <= 8)
        // Outside the glass the edge stays sharp.
        #expect(gray(100, 20) == 0 && gray(99, 20) == 255 && gray(105, 180) == 0)
    }

    @Test func aBlurredBarAtTheCanvasEdgeStaysOpaque() throws {
        // A navigation bar's backdrop at the top of an opaque canvas: past the edge the
        // blur repeats the edge pixels, so the bar's top row stays opaque white.
        let image = try Self.image(background: "#FFFFFF", """
          - {frame: [0, 0, 200, 44], backgroundFilters: [{gaussianBlur: 20}]}
        """)
        let corner = image.rgba(x: 0, y: 0), top = image.rgba(x: 100, y: 0)
        #expect(corner.a == 255 && corner.r == 255 && top.a == 255 && top.b == 255)
    }

    @Test func badFiltersAreLocatedErrors() {
        for bad in ["filters: [{gaussianBlur: -1}]", "filters: [{gausianBlur: 2}]", "compositingFilter: multiplyBlend",
                    "backgroundFilters: [{gaussianBlur: 1000}]"] {
            #expect(throws: SceneLoadError.self) {
                _ = try Self.image(background: "#000000", "  - {frame: [0, 0, 10, 10], \(bad)}")
            }
        }
    }
}
