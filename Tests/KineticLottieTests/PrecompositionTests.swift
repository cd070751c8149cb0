import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// Drawables under one clip go into a precomposition masked once (Core Animation clips
/// a `masksToBounds` layer's sublayers as one group), nested for clips inside clips.
struct PrecompositionTests {
    private func box(_ id: String, _ place: String, _ frame: Rect, clips: Bool = false) -> Layer {
        var layer = Layer(id: id, place: place)
        layer.bounds = Rect(0, 0, frame.width, frame.height)
        layer.position = Point(frame.midX, frame.midY)
        layer.backgroundColor = Color(red: 0, green: 0.5, blue: 1)
        layer.masksToBounds = clips
        return layer
    }

    private func export(_ frames: [[Layer]]) throws -> LottieJSON {
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        for (i, layers) in frames.enumerated() {
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 200), background: .color(.clear), layers: layers))
        }
        return exporter.document()
    }

    private func array(_ value: LottieJSON?) -> [LottieJSON] {
        if case .array(let items)? = value { return items }
        return []
    }

    @Test func aClippingLayersSublayersShareOneMaskedPrecomposition() throws {
        var clip = box("clip", "layers[0]", Rect(50, 50, 100, 100), clips: true)
        clip.sublayers = [box("a", "layers[0].sublayers[0]", Rect(-10, 10, 40, 40)),
                          box("b", "layers[0].sublayers[1]", Rect(60, 60, 80, 20))]
        // The clip moves, so its mask is animated: written once, not once per sublayer.
        let doc = try export((0..<10).map { i in
            var c = clip
            c.position.x += Double(i) * 5
            return [c]
        })
        let layers = array(doc["layers"]), assets = array(doc["assets"])
        // Its own background is clipped by its bounds too: all three go in.
        #expect(layers.map { $0["ty"] } == [0])
        #expect(layers[0]["nm"] == "clip/bounds")
        #expect(assets.count == 1 && assets[0]["id"] == layers[0]["refId"])
        // Canvas-sized and untransformed: the layers inside keep canvas coordinates.
        #expect(layers[0]["w"] == 200 && layers[0]["h"] == 200 && layers[0]["ks"]?["p"]?["k"] == [0, 0])
        let masks = array(layers[0]["masksProperties"])
        #expect(layers[0]["hasMask"] == true && masks.count == 1 && masks[0]["mode"] == "a")
        #expect(masks[0]["pt"]?["a"] == 1)
        // Inside: b over a over the clip's background, none masked again.
        let inner = array(assets[0]["layers"])
        #expect(inner.map { $0["nm"] } == ["b", "a", "clip"])
        #expect(inner.allSatisfy { $0["masksProperties"] == nil })
    }

    @Test func clipsInsideClipsNestPrecompositionsEachAddingItsOutline() throws {
        var outer = box("outer", "layers[0]", Rect(20, 20, 160, 160), clips: true)
        var inner = box("inner", "layers[0].sublayers[0]", Rect(10, 10, 100, 100), clips: true)
        inner.sublayers = [box("x", "layers[0].sublayers[0].sublayers[0]", Rect(0, 0, 150, 20)),
                           box("y", "layers[0].sublayers[0].sublayers[1]", Rect(0, 50, 150, 20))]
        outer.sublayers = [inner, box("z", "layers[0].sublayers[1]", Rect(100, 100, 100, 100))]
        let doc = try export([[outer]])
        let assets = array(doc["assets"])
        // outer's precomposition holds its background, inner's precomposition and z.
        #expect(assets.count == 2)
        #expect(array(doc["layers"]).map { $0["nm"] } == ["outer/bounds"])
        let top = array(assets[0]["layers"])
        #expect(top.map { $0["nm"] } == ["z", "inner/bounds", "outer"])
        #expect(top[1]["refId"] == assets[1]["id"])
        #expect(array(top[1]["masksProperties"]).map { $0["mode"] } == ["a"])
        #expect(array(assets[1]["layers"]).map { $0["nm"] } == ["y", "x", "inner"])
        #expect(!doc.text.contains(#""mode":"i""#))
    }

    @Test func aClippedTextUnderAClipIsPrecomposedRatherThanIntersected() throws {
        // A text layer clips its glyphs to its bounds; inside a clipping layer that
        // paints nothing itself, it is the only layer under that clip.
        var clip = box("clip", "layers[0]", Rect(20, 20, 100, 100), clips: true)
        clip.backgroundColor = nil
        var label = Layer(id: "label", place: "layers[0].sublayers[0]", type: .text)
        label.bounds = Rect(0, 0, 150, 30)
        label.position = Point(75, 15)
        clip.sublayers = [label]
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions(),
                                      glyphs: { _, rect in BezierPath.rect(rect) })
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 200), background: .color(.clear), layers: [clip]))
        let doc = exporter.document()
        #expect(!doc.text.contains(#""mode":"i""#))
        let precomp = array(doc["layers"]).first
        #expect(precomp?["ty"] == 0 && precomp?["nm"] == "clip/bounds")
        let inner = array(array(doc["assets"]).first?["layers"])
        #expect(inner.map { $0["nm"] } == ["label"])
        #expect(array(inner.first?["masksProperties"]).map { $0["mode"] } == ["a"])
    }
}
