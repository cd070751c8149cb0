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

    /// The drawn layers of a layer list (null layers left out).
    private func array(_ value: LottieJSON?) -> [LottieJSON] {
        if case .array(let items)? = value { return items.filter { $0["ty"] != 3 } }
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
                                      glyphs: { _, rect, _ in BezierPath.rect(rect) })
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

/// A translucent layer fades itself and its sublayers as one composited group (Core
/// Animation's default, `allowsGroupOpacity`): overlapping sublayers do not show through
/// one another.
struct GroupOpacityTests {
    @Test func aTranslucentLayerIsAPrecompositionAtItsOpacityOverOpaqueSublayers() throws {
        func square(_ id: String, _ place: String, _ frame: Rect, opacity: Double = 1) -> Layer {
            var layer = Layer(id: id, place: place)
            layer.bounds = Rect(0, 0, frame.width, frame.height)
            layer.position = Point(frame.midX, frame.midY)
            layer.backgroundColor = Color(red: 1, green: 0, blue: 0)
            layer.opacity = opacity
            return layer
        }
        var card = square("card", "layers[0]", Rect(20, 20, 100, 100), opacity: 0.5)
        card.sublayers = [square("a", "layers[0].sublayers[0]", Rect(10, 10, 50, 50)),
                          square("b", "layers[0].sublayers[1]", Rect(30, 30, 50, 50), opacity: 0.8)]
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 200), background: .color(.clear), layers: [card]))
        let doc = exporter.document()
        guard case .array(let layers)? = doc["layers"], case .array(let assets)? = doc["assets"],
              case .array(let all)? = assets.first?["layers"] else { Issue.record("no precomposition"); return }
        let inner = all.filter { $0["ty"] != 3 }
        #expect(layers.count == 1 && layers[0]["ty"] == 0 && layers[0]["nm"] == "card/group")
        #expect(layers[0]["ks"]?["o"]?["k"] == 50)
        #expect(layers[0]["masksProperties"] == nil)
        // Inside, each at its own opacity only: b at 80 %, not 40 %.
        #expect(inner.map { $0["nm"] } == ["b", "a", "card"])
        #expect(inner.map { $0["ks"]?["o"]?["k"] } == [80, 100, 100])
        // An opaque layer over several sublayers is no group.
        card.opacity = 1
        var flat = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        try flat.add(SceneFrame(index: 0, time: 0, size: Size(200, 200), background: .color(.clear), layers: [card]))
        guard case .array(let none)? = flat.document()["assets"] else { Issue.record("no assets"); return }
        #expect(none.isEmpty)
    }
}
