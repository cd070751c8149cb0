import Foundation
import KineticGeometry
import KineticLayers
import KineticRender
import Testing
@testable import KineticLottie

/// A text layer's colour bitmap glyphs (emoji) become image layers on the rect the
/// renderer paints them, over the outlines; the same pixels are one asset.
struct ColorGlyphExportTests {
    private func label(_ id: String, at position: Point) -> Layer {
        var layer = Layer(id: id, place: "layers[\(id == "a" ? 0 : 1)]", type: .text)
        layer.bounds = Rect(0, 0, 60, 20)
        layer.anchorPoint = Point(0, 0)
        layer.position = position
        var style = TextStyle()
        style.string = "Hi 👋"
        layer.text = style
        return layer
    }

    @Test func anEmojiIsAnImageLayerOnItsRectAndRepeatsShareTheAsset() throws {
        // Stand-in pixels: the exporter embeds the bytes as they are.
        let pixels = ColorGlyphImage(png: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3], width: 20, height: 10, rect: Rect(12, 3, 20, 10))
        final class Seen: @unchecked Sendable { var maps: [PlaneProjection] = [] }
        let seen = Seen()
        var exporter = LottieExporter(size: Size(200, 100), fps: 30, background: .color(.clear), options: LottieOptions(),
                                      glyphs: { _, rect, _ in BezierPath.rect(Rect(rect.minX, rect.minY, 5, 5)) },
                                      colorGlyphs: { _, _, map in seen.maps.append(map); return [pixels] })
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 100), background: .color(.clear),
                                    layers: [label("a", at: Point(10.5, 20.25)), label("b", at: Point(100, 50))]))
        let doc = exporter.document()
        guard case .array(let assets)? = doc["assets"], case .array(let layers)? = doc["layers"] else {
            Issue.record("no assets or layers"); return
        }
        // Placed by each label's map to the canvas (a translation).
        #expect(seen.maps == [PlaneProjection(affine: 1, 0, 0, 1, 10.5, 20.25), PlaneProjection(affine: 1, 0, 0, 1, 100, 50)])
        // One asset for both, its bytes inline.
        let images = assets.filter { $0["e"] == 1 }
        try #require(images.count == 1)
        #expect(images[0]["w"] == 20 && images[0]["h"] == 10)
        #expect(images[0]["p"] == .string("data:image/png;base64," + Data(pixels.png).base64EncodedString()))
        let glyphLayers = layers.filter { $0["ty"] == 2 }
        try #require(glyphLayers.count == 2)
        #expect(glyphLayers.allSatisfy { $0["refId"] == images[0]["id"] })
        // By hand: the rect's corner (12, 3) in each label's bounds, one pixel a point:
        // (10.5 + 12, 20.25 + 3) and (100 + 12, 50 + 3).
        let corners = glyphLayers.map { layer -> Point in
            let map = LayerTreeTests.canvasMap(of: layer, in: layers)
            #expect([map.a, map.b, map.c, map.d] == [1, 0, 0, 1])
            return LayerTreeTests.apply(map, Point(0, 0))
        }
        #expect(Set(corners.map { [$0.x, $0.y] }) == [[22.5, 23.25], [112, 53]])
    }

    @Test func colourGlyphImagesCountTowardsTheEmbeddedBytesCap() throws {
        // Two distinct 7-byte glyph images under a 10-byte cap: the first fits, the
        // second would pass it, and the export stops at the second label's text.
        let first = ColorGlyphImage(png: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3], width: 20, height: 10, rect: Rect(12, 3, 20, 10))
        let second = ColorGlyphImage(png: [0x89, 0x50, 0x4E, 0x47, 4, 5, 6], width: 20, height: 10, rect: Rect(12, 3, 20, 10))
        var options = LottieOptions()
        options.maximumImageBytes = 10
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        var exporter = LottieExporter(size: Size(200, 100), fps: 30, background: .color(.clear), options: options,
                                      glyphs: { _, rect, _ in BezierPath.rect(Rect(rect.minX, rect.minY, 5, 5)) },
                                      colorGlyphs: { _, _, _ in calls.count += 1; return [calls.count == 1 ? first : second] })
        do {
            try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 100), background: .color(.clear),
                                        layers: [label("a", at: Point(10, 20)), label("b", at: Point(100, 50))]))
            Issue.record("the export passed its 10-byte cap")
        } catch {
            #expect(error.keyPath == "layers[1].string")
            #expect(error.message.contains("would pass 10 bytes"))
        }
    }
}
