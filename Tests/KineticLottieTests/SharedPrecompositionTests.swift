import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// Two clipped copies of one subtree (a YAML alias used twice) share one asset: the second
/// precomposition layer is the first's contents moved, with its mask moved back into the
/// layer's own coordinates, so it still clips where its own layer's bounds are.
struct SharedPrecompositionTests {
    /// A 40×40 clipping layer at `origin` holding a red and a green square, the same
    /// subtree whatever its place.
    private func photo(_ id: String, _ place: String, at origin: Point) -> Layer {
        var clip = Layer(id: id, place: place)
        clip.bounds = Rect(0, 0, 40, 40)
        clip.position = Point(origin.x + 20, origin.y + 20)
        clip.masksToBounds = true
        clip.sublayers = [(0, Color(red: 1, green: 0, blue: 0)), (1, Color(red: 0, green: 1, blue: 0))].map { n, color in
            var square = Layer(id: nil, place: "\(place).sublayers[\(n)]")
            square.bounds = Rect(0, 0, 30, 30)
            square.position = Point(15 + 20 * Double(n), 15 + 20 * Double(n))  // the second reaches past the clip
            square.backgroundColor = color
            return square
        }
        return clip
    }

    private func export(_ layers: [Layer], frames: Int = 3) throws -> LottieJSON {
        var exporter = LottieExporter(size: Size(200, 100), fps: 30, background: .color(.clear), options: LottieOptions())
        for i in 0..<frames {
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 100), background: .color(.clear), layers: layers))
        }
        return exporter.document()
    }

    private func items(_ value: LottieJSON?) -> [LottieJSON] {
        if case .array(let items)? = value { return items }
        return []
    }

    @Test func aMovedCopyOfAClippedSubtreeReferencesTheFirstAsset() throws {
        let doc = try export([photo("left", "layers[0]", at: Point(10, 30)), photo("right", "layers[1]", at: Point(130, 20))])
        let assets = items(doc["assets"])
        #expect(assets.count == 1)
        let precomps = items(doc["layers"]).filter { $0["ty"] == 0 }
        #expect(precomps.map { $0["nm"] } == ["right/bounds", "left/bounds"])
        #expect(precomps.allSatisfy { $0["refId"] == assets.first?["id"] })
        // Written top first: right's copy is the asset; left's is it moved by
        // (10, 30) − (130, 20) = (−120, 10).
        #expect(precomps[0]["ks"]?["p"]?["k"] == [0, 0])
        #expect(precomps[1]["ks"]?["p"]?["k"] == [-120, 10])
        // left's clip, (10, 30)–(50, 70) on the canvas, in the moved layer's own
        // coordinates: (130, 20)–(170, 60).
        let mask = items(precomps[1]["masksProperties"]).first
        #expect(mask?["pt"]?["k"]?["v"] == [[130, 20], [170, 20], [170, 60], [130, 60]])
        let ownMask = items(precomps[0]["masksProperties"]).first
        #expect(ownMask?["pt"]?["k"]?["v"] == [[130, 20], [170, 20], [170, 60], [130, 60]])
    }

    @Test func differentContentsOrAClipOutsideTheMovedBoxKeepTheirOwnAsset() throws {
        var other = photo("right", "layers[1]", at: Point(130, 20))
        other.sublayers[0].backgroundColor = Color(red: 0, green: 0, blue: 1)
        #expect(items(try export([photo("left", "layers[0]", at: Point(10, 30)), other])["assets"]).count == 2)
        // The copy drawn on top is the asset. Moved by (−150, 0), b's clip on the
        // canvas (0…40) becomes a's place 150…190 in the layer: inside its 200-wide box.
        let shared = try export([photo("b", "layers[0]", at: Point(0, 0)), photo("a", "layers[1]", at: Point(150, 0))])
        #expect(items(shared["assets"]).count == 1)
        // a at 180 reaches past the canvas (its clip 180…220): moved onto b at 10, the
        // layer's box would crop what b shows at 40…50, so b keeps its own asset.
        let cropped = try export([photo("b", "layers[0]", at: Point(10, 0)), photo("a", "layers[1]", at: Point(180, 0))])
        #expect(items(cropped["assets"]).count == 2)
    }
}
