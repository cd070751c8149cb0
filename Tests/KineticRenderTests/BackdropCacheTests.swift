import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// The blurred backdrops reused by `backgroundFilters` from frame to frame.
@Suite struct BackdropCacheTests {
    /// A red square at `x` under a glass layer that blurs what lies behind it (σ 12 pt at
    /// 2×: the backdrop is downsampled, as gooey-slide-menu's blur view is), fading by
    /// `opacity`.
    func frameWithGlass(squareAt x: Double, opacity: Double = 0.8) -> SceneFrame {
        var glass = solid(Color(red: 0.1, green: 0.1, blue: 0.1, alpha: 0.3), size: Size(160, 160), at: Point(100, 100),
                          place: "glass")
        glass.backgroundFilters = [.gaussianBlur(radius: 12)]
        glass.opacity = opacity
        return frame([solid(red, size: Size(40, 40), at: Point(x, 90)), glass], background: .color(.white))
    }

    @Test func aCachedBackdropIsTheUncachedOneToTheByte() {
        let cache = BackdropCache()
        let cached = Renderer(scale: 2, backdrops: cache)
        let uncached = Renderer(scale: 2, backdrops: nil)
        // A still backdrop under a fading glass, then one that moves, then the first again.
        for (x, opacity) in [(80.0, 0.2), (80, 0.5), (80, 1), (95, 1), (80, 1)] {
            let f = frameWithGlass(squareAt: x, opacity: opacity)
            let same = cached.render(f).bytes == uncached.render(f).bytes
            #expect(same, "square at \(x), opacity \(opacity)")
        }
        // One entry for each backdrop: the fade does not change what lies behind.
        #expect(cache.count == 2)
    }

    @Test func entriesAreBoundedByBytesAndCount() {
        let small = BackdropCache(capacityBytes: 1 << 30, capacityEntries: 2)
        let renderer = Renderer(scale: 1, backdrops: small)
        for x in [60.0, 70, 80, 90] { _ = renderer.render(frameWithGlass(squareAt: x)) }
        #expect(small.count == 2)
        // A key holds its whole target (200 × 200 × 4 bytes): beyond half the budget,
        // nothing is kept, and the frame is drawn all the same.
        let tiny = BackdropCache(capacityBytes: 300_000)
        let f = frameWithGlass(squareAt: 80)
        let same = Renderer(scale: 1, backdrops: tiny).render(f).bytes == Renderer(scale: 1, backdrops: nil).render(f).bytes
        #expect(same)
        #expect(tiny.count == 0)
    }
}
