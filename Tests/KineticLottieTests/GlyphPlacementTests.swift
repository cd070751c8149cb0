import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// A text layer's glyphs are placed by its map to the canvas at the first frame it is
/// drawn unscaled and unturned, kept while it moves (the renderer puts glyphs on whole
/// pixels; the outline stays one path).
struct GlyphPlacementTests {
    private func label(at position: Point, scale: Double = 1) -> Layer {
        var layer = Layer(id: "label", place: "layers[0]", type: .text)
        layer.bounds = Rect(0, 0, 60, 20)
        layer.anchorPoint = Point(0, 0)
        layer.position = position
        if scale != 1 { layer.transform = .scale(scale, scale, 1) }
        var style = TextStyle()
        style.string = "Hi"
        layer.text = style
        return layer
    }

    @Test func theFirstUnscaledFramesMapPlacesTheGlyphsFromThenOn() throws {
        final class Seen: @unchecked Sendable { var maps: [PlaneProjection?] = [] }
        let seen = Seen()
        var exporter = LottieExporter(size: Size(200, 100), fps: 30, background: .color(.clear), options: LottieOptions(),
                                      glyphs: { _, rect, map in seen.maps.append(map); return BezierPath.rect(rect) })
        // Growing from a tenth: no placement (a pixel there is ten of the label's units);
        // then still at (10.5, 20.25); then moving.
        let frames = [label(at: Point(10.5, 20.25), scale: 0.1), label(at: Point(10.5, 20.25)),
                      label(at: Point(10.5, 20.25)), label(at: Point(13.7, 21))]
        for (i, layer) in frames.enumerated() {
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 100), background: .color(.clear),
                                        layers: [layer]))
        }
        let still = PlaneProjection(affine: 1, 0, 0, 1, 10.5, 20.25)
        #expect(seen.maps.count == 4)
        #expect(seen.maps.first == .some(nil))
        #expect(seen.maps.dropFirst().allSatisfy { $0 == still })
    }
}
