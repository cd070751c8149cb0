import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// PNG contents as an embedded image asset, placed by contentsGravity as the renderer
/// places it.
struct ImageContentsTests {
    /// A 96×48 PNG (the image-contents scene's).
    private let png = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../lottie/scenes/image-contents.png").standardized.path

    private func layer(gravity: ContentsGravity = .resizeAspect) -> Layer {
        var layer = Layer(id: "photo", place: "layers[0]")
        layer.bounds = Rect(0, 0, 60, 60)
        layer.position = Point(100, 50)
        layer.contents = png
        layer.contentsGravity = gravity
        return layer
    }

    private func export(_ layer: Layer, options: LottieOptions = LottieOptions()) throws(LottieProblem) -> LottieJSON {
        var exporter = LottieExporter(size: Size(200, 100), fps: 10, background: .color(.white), options: options)
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 100), background: .color(.white), layers: [layer]))
        return exporter.document()
    }

    @Test func theAssetEmbedsTheFileAndResizeAspectFitsItInTheBounds() throws {
        let doc = try export(layer())
        guard case .array(let assets)? = doc["assets"], let asset = assets.first,
              case .string(let uri)? = asset["p"], case .array(let layers)? = doc["layers"] else {
            Issue.record("no image asset"); return
        }
        #expect(asset["w"] == 96 && asset["h"] == 48 && asset["e"] == 1)
        let prefix = "data:image/png;base64,"
        #expect(uri.hasPrefix(prefix))
        let decoded = Data(base64Encoded: String(uri.dropFirst(prefix.count)))
        #expect(decoded == (try Data(contentsOf: URL(fileURLWithPath: png))))

        let image = layers.first { $0["ty"] == 2 }
        #expect(image?["refId"] == asset["id"])
        // By hand: bounds 60×60 with their origin at (100, 50) − (30, 30) = (70, 20); a
        // 96×48 image fitted keeps its aspect: scale min(60/96, 60/48) = 0.625, so 60×30,
        // centred vertically 15 points down. Its pixel origin lands at (70, 35).
        // The image layer hangs from its layer's null: its own transform and the null's
        // together map it there.
        let map = image.flatMap { LayerTreeTests.canvasMap(of: $0, in: layers) }
        #expect(map.map { LayerTreeTests.apply($0, Point(0, 0)) } == Point(70, 35))
        #expect(map.map { [$0.a, $0.b, $0.c, $0.d] } == [0.625, 0, 0, 0.625])
    }

    @Test func ninePartStretchingIsStillRefusedAtItsKey() {
        var l = layer()
        l.contentsCenter = Rect(0.25, 0.25, 0.5, 0.5)
        #expect(throws: LottieProblem.self) { try export(l) }
        do { _ = try export(l) } catch { #expect(error.keyPath == "layers[0].contentsCenter") }
    }

    @Test func imagesPastTheCapAreRefused() {
        var options = LottieOptions()
        options.maximumImageBytes = 100
        do {
            _ = try export(layer(), options: options)
            Issue.record("a 2 kB image passed a 100-byte cap")
        } catch {
            #expect(error.keyPath == "layers[0].contents")
            #expect(error.message.contains("100 bytes"))
        }
    }

    @Test func svgContentsAreStillRefused() {
        var l = layer()
        l.contents = "/nonexistent/badge.svg"
        do { _ = try export(l); Issue.record("SVG contents exported") } catch {
            #expect(error.keyPath == "layers[0].contents" && error.message.contains("SVG"))
        }
    }
}
