import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// The layer tree as Lottie parenting: a null layer per Kinetic layer, parented as the
/// layers nest, its drawables parented to it; checked by composing the written transforms
/// the way the Lottie format composes a layer with its parents.
struct LayerTreeTests {
    // MARK: Reading a document as a player does

    /// The layer whose `ind` is `layer`'s `parent`, in the same composition.
    static func parent(of layer: LottieJSON, in layers: [LottieJSON]) -> LottieJSON? {
        guard let index = layer["parent"] else { return nil }
        return layers.first { $0["ind"] == index }
    }

    /// A value at its first keyframe (or the still value).
    private static func first(_ property: LottieJSON?) -> [Double] {
        func numbers(_ v: LottieJSON?) -> [Double] {
            switch v {
            case .number(let x)?: [x]
            case .array(let items)?: items.flatMap { numbers($0) }
            default: []
            }
        }
        if property?["a"] == 1, case .array(let keys)? = property?["k"] { return numbers(keys.first?["s"]) }
        return numbers(property?["k"])
    }

    typealias Affine = (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)

    /// A layer's transform at its first keyframes (anchor at the origin, as the export
    /// writes it): scale, then rotate clockwise by `r` degrees, then move to `p`.
    static func own(_ layer: LottieJSON) -> Affine {
        let ks = layer["ks"]
        let x = first(ks?["p"]?["x"]).first ?? 0, y = first(ks?["p"]?["y"]).first ?? 0
        let s = first(ks?["s"]), r = (first(ks?["r"]).first ?? 0) * .pi / 180
        let sx = (s.first ?? 100) / 100, sy = (s.last ?? 100) / 100
        return (cos(r) * sx, sin(r) * sx, -sin(r) * sy, cos(r) * sy, x, y)
    }

    /// A layer's map to its composition: its own, then its parents' (Lottie's parenting).
    static func canvasMap(of layer: LottieJSON, in layers: [LottieJSON]) -> Affine {
        let m = own(layer)
        guard let up = parent(of: layer, in: layers) else { return m }
        let p = canvasMap(of: up, in: layers)
        return (m.a * p.a + m.b * p.c, m.a * p.b + m.b * p.d, m.c * p.a + m.d * p.c, m.c * p.b + m.d * p.d,
                m.tx * p.a + m.ty * p.c + p.tx, m.tx * p.b + m.ty * p.d + p.ty)
    }

    static func apply(_ m: Affine, _ p: Point) -> Point {
        let r = Point(p.x * m.a + p.y * m.c + m.tx, p.x * m.b + p.y * m.d + m.ty)
        // Rounded as the document's numbers are (4 decimals).
        return Point((r.x * 1e3).rounded() / 1e3, (r.y * 1e3).rounded() / 1e3)
    }

    // MARK: Scenes

    private func box(_ id: String, _ place: String, bounds: Size, position: Point) -> Layer {
        var layer = Layer(id: id, place: place)
        layer.bounds = Rect(0, 0, bounds.width, bounds.height)
        layer.position = position
        layer.backgroundColor = Color(red: 0, green: 0.5, blue: 1)
        return layer
    }

    private func document(_ frames: [[Layer]]) throws -> LottieJSON {
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        for (i, layers) in frames.enumerated() {
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 200), background: .color(.clear), layers: layers))
        }
        return exporter.document()
    }

    private func layers(_ doc: LottieJSON) -> [LottieJSON] {
        if case .array(let items)? = doc["layers"] { return items }
        return []
    }

    @Test func aSublayerOfAMovingSuperlayerHangsFromItWithAStillTransform() throws {
        // The superlayer slides 4 pt a frame; its sublayer sits still inside it.
        let doc = try document((0..<10).map { i in
            var card = box("card", "layers[0]", bounds: Size(80, 60), position: Point(60 + 4 * Double(i), 100))
            card.sublayers = [box("dot", "layers[0].sublayers[0]", bounds: Size(10, 10), position: Point(20, 30))]
            return [card]
        })
        let all = layers(doc)
        guard let dot = all.first(where: { $0["nm"] == "dot" && $0["ty"] == 4 }),
              let dotNull = Self.parent(of: dot, in: all), let cardNull = Self.parent(of: dotNull, in: all) else {
            Issue.record("the dot is not parented through two nulls"); return
        }
        #expect(dotNull["ty"] == 3 && dotNull["nm"] == "dot")
        #expect(cardNull["ty"] == 3 && cardNull["nm"] == "card" && cardNull["parent"] == nil)
        // Only the card's null moves: the dot's null and drawing are still.
        #expect(cardNull["ks"]?["p"]?["x"]?["a"] == 1)
        for still in [dot, dotNull] {
            #expect(still["ks"]?["p"]?["x"]?["a"] == 0 && still["ks"]?["p"]?["y"]?["a"] == 0)
            #expect(still["ks"]?["r"]?["a"] == 0 && still["ks"]?["s"]?["a"] == 0)
        }
        // The dot's plane origin within the card: (20, 30) − (5, 5).
        #expect(dotNull["ks"]?["p"]?["x"]?["k"] == 15 && dotNull["ks"]?["p"]?["y"]?["k"] == 25)
        // On the canvas at frame 0: the card's origin (60 − 40, 100 − 30) + (15, 25).
        #expect(Self.apply(Self.canvasMap(of: dot, in: all), Point(0, 0)) == Point(35, 95))
    }

    @Test func aRotatedSuperlayerCarriesItsSublayerRound() throws {
        // By hand: the card (40×40 at (100, 50)) turns 90° about its centre. The dot's
        // plane origin is (25, 15) in the card, (5, −5) from its anchor (20, 20); turned
        // by 90° (x' = −y, y' = x on a y-down canvas) that is (5, 5) from (100, 50):
        // (105, 55). The dot's x axis points down the canvas: (10, 0) lands at (105, 65).
        var card = box("card", "layers[0]", bounds: Size(40, 40), position: Point(100, 50))
        card.transform = .rotation(.pi / 2, 0, 0, 1)
        card.sublayers = [box("dot", "layers[0].sublayers[0]", bounds: Size(10, 10), position: Point(30, 20))]
        let all = layers(try document([[card]]))
        guard let dot = all.first(where: { $0["nm"] == "dot" && $0["ty"] == 4 }) else { Issue.record("no dot"); return }
        #expect(Self.parent(of: dot, in: all)?["ty"] == 3)
        let map = Self.canvasMap(of: dot, in: all)
        #expect(Self.apply(map, Point(0, 0)) == Point(105, 55))
        #expect(Self.apply(map, Point(10, 0)) == Point(105, 65))
        // The turn is the card's null's, not the dot's.
        #expect(Self.parent(of: Self.parent(of: dot, in: all) ?? .null, in: all)?["ks"]?["r"]?["k"] == 90)
    }

    @Test func aSublayerTransformIsANullBetweenALayerAndItsSublayers() throws {
        var card = box("card", "layers[0]", bounds: Size(100, 100), position: Point(100, 100))
        card.sublayerTransform = .scale(2, 0.5)
        card.sublayers = [box("dot", "layers[0].sublayers[0]", bounds: Size(10, 10), position: Point(50, 50))]
        let all = layers(try document([[card]]))
        guard let dot = all.first(where: { $0["nm"] == "dot" && $0["ty"] == 4 }),
              let dotNull = Self.parent(of: dot, in: all), let space = Self.parent(of: dotNull, in: all) else {
            Issue.record("no chain"); return
        }
        #expect(space["nm"] == "card/sublayers" && Self.parent(of: space, in: all)?["nm"] == "card")
        // About the card's centre (50, 50), which the dot's centre is: the dot scales in place,
        // its origin (45, 45) in the card → (50 − 10, 50 − 2.5), on the canvas + (50, 50).
        let map = Self.canvasMap(of: dot, in: all)
        #expect(Self.apply(map, Point(0, 0)) == Point(90, 97.5))
        #expect(Self.apply(map, Point(10, 10)) == Point(110, 102.5))
    }

    @Test func aPerspectiveSubtreeStaysFlattened() throws {
        // A turn about y under the superlayer's perspective: no Lottie transform says it.
        var card = box("card", "layers[0]", bounds: Size(100, 100), position: Point(100, 100))
        card.sublayerTransform = .perspective(300)
        var dot = box("dot", "layers[0].sublayers[0]", bounds: Size(40, 40), position: Point(50, 50))
        dot.transform = .rotation(0.6, 0, 1, 0)
        card.sublayers = [dot]
        let all = layers(try document([[card]]))
        let drawn = all.first { $0["nm"] == "dot" && $0["ty"] == 4 }
        #expect(drawn != nil && drawn?["parent"] == nil)
        // The card itself still hangs from its null.
        #expect(all.first { $0["nm"] == "card" && $0["ty"] == 4 }?["parent"] != nil)
    }

    @Test func aPrecompositionRepeatsTheNullsItsLayersHangFrom() throws {
        var clip = box("clip", "layers[0]", bounds: Size(100, 100), position: Point(100, 100))
        clip.masksToBounds = true
        clip.sublayers = [box("a", "layers[0].sublayers[0]", bounds: Size(40, 40), position: Point(10, 30)),
                          box("b", "layers[0].sublayers[1]", bounds: Size(40, 40), position: Point(70, 60))]
        let doc = try document((0..<5).map { i in
            var c = clip
            c.position.x += Double(i) * 3
            return [c]
        })
        guard case .array(let assets)? = doc["assets"], case .array(let inner)? = assets.first?["layers"] else {
            Issue.record("no precomposition"); return
        }
        // Every parent is a null of the same composition.
        let drawn = inner.filter { $0["ty"] == 4 }
        #expect(drawn.count == 3)
        for layer in inner where layer["parent"] != nil {
            #expect(Self.parent(of: layer, in: inner)?["ty"] == 3)
        }
        #expect(Set(inner.filter { $0["ty"] == 3 }.compactMap { layer -> String? in
            if case .string(let n)? = layer["nm"] { return n } else { return nil }
        }) == ["clip", "a", "b"])
        // b's origin: the clip's (50, 50) + (50, 40).
        if let b = drawn.first(where: { $0["nm"] == "b" }) {
            #expect(Self.apply(Self.canvasMap(of: b, in: inner), Point(0, 0)) == Point(100, 90))
        }
    }

    @Test func movingTransformsAlongAChainShareTheTolerance() throws {
        // The card slides; the dot spins inside it; the card's own painting only rides along.
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        for i in 0..<10 {
            var card = box("card", "layers[0]", bounds: Size(80, 60), position: Point(60 + 4 * Double(i), 100))
            var dot = box("dot", "layers[0].sublayers[0]", bounds: Size(10, 10), position: Point(20, 30))
            dot.transform = .rotation(Double(i) * 0.3, 0, 0, 1)
            card.sublayers = [dot]
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 200), background: .color(.clear), layers: [card]))
        }
        _ = exporter.document()
        // Two moving maps between the dot's drawing and the canvas: each gets half of the
        // 0.05 pt, so that their errors together stay within it; the card's drawing has one.
        #expect(exporter.layerTree.drawableShares["dot"] == 2)
        #expect(exporter.layerTree.drawableShares["card"] == 1)
        #expect(exporter.layerTree.shares["card"] == 2 && exporter.layerTree.shares["dot"] == 2)
    }
}
