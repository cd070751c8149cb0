import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// The flat renderings reused by projected layers from frame to frame.
@Suite struct FlatRasterCacheTests {
    func tilted(_ angle: Double, at position: Point = Point(100, 100), color: Color = red) -> Layer {
        var card = solid(color, size: Size(80, 120), at: position, place: "card")
        card.cornerRadius = 10
        card.shadowOpacity = 0.5
        card.shadowRadius = 6
        card.transform = Transform3D.rotation(angle, 0, 1, 0).concatenating(.perspective(400))
        return card
    }

    @Test func keysIgnoreOnlyWhereTheImageGoes() {
        let a = FlatRasterCache.Key(layer: tilted(0.3), opacity: 1, scale: 2)
        var moved = tilted(0.5, at: Point(30, 40))
        moved.zPosition = 4
        moved.id = "other"
        #expect(FlatRasterCache.Key(layer: moved, opacity: 1, scale: 2) == a)
        #expect(FlatRasterCache.Key(layer: tilted(0.3, color: blue), opacity: 1, scale: 2) != a)
        #expect(FlatRasterCache.Key(layer: tilted(0.3), opacity: 0.5, scale: 2) != a)
        #expect(FlatRasterCache.Key(layer: tilted(0.3), opacity: 1, scale: 2.5) != a)
        var reshaped = tilted(0.3)
        reshaped.anchorPoint = Point(0, 0)
        #expect(FlatRasterCache.Key(layer: reshaped, opacity: 1, scale: 2) != a)
    }

    @Test func aCachedFrameIsTheUncachedFrameToTheByte() {
        let cache = FlatRasterCache()
        let cached = Renderer(scale: 2, flatRasters: cache)
        let uncached = Renderer(scale: 2, flatRasters: nil)
        for angle in [0.30, 0.31, 0.33, -0.2, 0.30] {
            let f = frame([tilted(angle)])
            let same = cached.render(f).bytes == uncached.render(f).bytes
            #expect(same, "angle \(angle)")
        }
        // Nearby tilts share a raster scale, hence one entry.
        #expect(cache.count < 5)
        #expect(cache.count >= 1)
    }

    @Test func entriesAreBoundedByBytesAndCount() {
        let small = FlatRasterCache(capacityBytes: 1 << 30, capacityEntries: 3)
        let renderer = Renderer(scale: 1, flatRasters: small)
        for k in 0..<6 {
            _ = renderer.render(frame([tilted(0.3, color: Color(red: Double(k) / 6, green: 0, blue: 1))]))
        }
        #expect(small.count == 3)
        let tiny = FlatRasterCache(capacityBytes: 1000)
        _ = Renderer(scale: 1, flatRasters: tiny).render(frame([tilted(0.3)]))
        #expect(tiny.count == 0)
    }
}
