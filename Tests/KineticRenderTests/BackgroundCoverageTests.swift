import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// `LayerRenderer.backgroundPaintsEveryPixel`: a frame whose background sets every pixel
/// opaquely is drawn over a reused buffer without clearing it first (issue 42), so the
/// answer must be yes only where the drawing really ignores what the buffer held.
@Suite struct BackgroundCoverageTests {
    static func gradient(_ colors: [Color], type: GradientType = .axial) -> Background {
        var g = Gradient()
        g.colors = colors
        g.gradientType = type
        g.startPoint = Point(0.5, 0.5)
        g.endPoint = Point(1, 1)
        return .gradient(g)
    }

    static let navy = Color(red: 0.04, green: 0.09, blue: 0.2, alpha: 1)
    static let slate = Color(red: 0.16, green: 0.25, blue: 0.42, alpha: 1)

    /// Backgrounds, canvas sizes (points, at scale 2) and whether they paint every pixel.
    static let cases: [(name: String, background: Background, size: Size, paints: Bool)] = [
        ("opaque colour", .color(navy), Size(50, 40), true),
        ("opaque colour, canvas rounded up", .color(navy), Size(50.3, 40.3), true),
        ("translucent colour", .color(Color(red: 1, green: 0, blue: 0, alpha: 0.5)), Size(50, 40), false),
        ("opaque axial", gradient([navy, slate]), Size(50, 40), true),
        ("opaque axial, one stop", gradient([navy]), Size(50, 40), true),
        ("opaque axial, canvas rounded down", gradient([navy, slate]), Size(50.2, 40.2), true),
        // 100.6 × 80.6 pixels on a 101 × 81 canvas: the last column and row are half covered.
        ("opaque axial, canvas rounded up", gradient([navy, slate]), Size(50.3, 40.3), false),
        ("axial with a translucent stop", gradient([navy, Color(red: 1, green: 1, blue: 1, alpha: 0.5)]), Size(50, 40), false),
        ("axial without stops", gradient([]), Size(50, 40), false),
        ("opaque radial", gradient([navy, slate], type: .radial), Size(50, 40), false),
        ("opaque conic", gradient([navy, slate], type: .conic), Size(50, 40), false),
    ]

    @Test func onlyOpaqueColoursAndCoveringOpaqueAxialGradientsPaintEveryPixel() {
        let renderer = Renderer(scale: 2)
        for c in Self.cases {
            let pixels = renderer.pixelSize(of: c.size)
            #expect(LayerRenderer.backgroundPaintsEveryPixel(c.background, size: c.size, scale: 2, pixels: pixels) == c.paints,
                    "\(c.name)")
        }
    }

    /// Every case drawn over a reused buffer full of another colour is the frame drawn on
    /// a cleared one: a background said to paint every pixel that left one (a half-covered
    /// edge) would show the old colour there.
    @Test func aFrameDrawnOverAReusedBufferIsTheFreshFrame() throws {
        let renderer = Renderer(scale: 2)
        for c in Self.cases {
            let f = frame([], size: c.size, background: c.background)
            let fresh = try renderer.rasterize(f)
            let garbage = [UInt8](repeating: 0xA7, count: fresh.bytes.count)
            let reused = try renderer.rasterize(f, reusing: garbage)
            // A Bool: a failure prints no pixels.
            let same = reused.bytes == fresh.bytes
            #expect(same, "\(c.name)")
        }
    }
}
