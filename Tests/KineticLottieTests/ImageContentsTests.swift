import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie
import KineticCairo

/// PNG and SVG contents as embedded image assets, placed by contentsGravity as the
/// renderer places them.
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

    @Test func aContentsRectPlacesItsPartOverTheRectAndMasksTheRest() throws {
        var l = layer(gravity: .resize)
        l.contentsRect = Rect(0.25, 0, 0.5, 0.5)
        let doc = try export(l)
        guard case .array(let layers)? = doc["layers"], let image = layers.first(where: { $0["ty"] == 2 }),
              case .array(let masks)? = image["masksProperties"], masks.count == 1,
              case .array(let vertices)? = masks[0]["pt"]?["k"]?["v"] else {
            Issue.record("no masked image layer"); return
        }
        // By hand: the part is pixels (24, 0) to (72, 24) of the 96×48 image, stretched
        // over the 60×60 bounds at (70, 20): 1.25 points a pixel across, 2.5 down, so
        // pixel (0, 0) lands 24 × 1.25 = 30 points left of the bounds.
        let map = LayerTreeTests.canvasMap(of: image, in: layers)
        #expect(LayerTreeTests.apply(map, Point(0, 0)) == Point(40, 20))
        #expect([map.a, map.b, map.c, map.d] == [1.25, 0, 0, 2.5])
        // The mask, in the image's pixels, is the part: the rest of the image is hidden.
        #expect(vertices == [[24, 0], [72, 0], [72, 24], [24, 24]])
    }

    @Test func aContentsRectPastTheImageIsRefusedAtItsKey() {
        var l = layer()
        l.contentsRect = Rect(0.75, 0, 0.5, 1)
        do { _ = try export(l); Issue.record("a part past the image exported") } catch {
            #expect(error.keyPath == "layers[0].contentsRect" && error.message.contains("edge pixels"))
        }
    }

    @Test func ninePartStretchingPlacesNinePiecesAsCoreAnimationStretchesThem() throws {
        var l = layer(gravity: .resize)
        l.contentsCenter = Rect(0.25, 0.25, 0.5, 0.5)
        let doc = try export(l)
        guard case .array(let layers)? = doc["layers"] else { Issue.record("no layers"); return }
        let pieces = layers.filter { $0["ty"] == 2 }
        #expect(pieces.count == 9)
        #expect(pieces.allSatisfy { if case .array(let m)? = $0["masksProperties"] { m.count == 1 } else { false } })
        func map(_ index: Int) -> LayerTreeTests.Affine? {
            pieces.first { $0["nm"] == .string("photo/contents/\(index)") }.map { LayerTreeTests.canvasMap(of: $0, in: layers) }
        }
        // By hand: the 96×48 image is cut at 24 and 72 px across, 12 and 36 down; at
        // contentsScale 1 the corners keep 24×12 points in the 60×60 bounds at (70, 20).
        // The top-left corner is unscaled at the bounds' origin.
        #expect(map(0).map { LayerTreeTests.apply($0, Point(0, 0)) } == Point(70, 20))
        #expect(map(0).map { [$0.a, $0.d] } == [1, 1])
        // The centre, pixels (24, 12)–(72, 36), fills (94, 32)–(106, 68): 12/48 across,
        // 36/24 down, so pixel (0, 0) lands at (94 − 24 · 0.25, 32 − 12 · 1.5).
        #expect(map(4).map { [$0.a, $0.d] } == [0.25, 1.5])
        #expect(map(4).map { LayerTreeTests.apply($0, Point(0, 0)) } == Point(88, 14))
        // The right edge, pixels (72, 12)–(96, 36), keeps its width: (106, 32)–(130, 68).
        #expect(map(5).map { [$0.a, $0.d] } == [1, 1.5])
        #expect(map(5).map { LayerTreeTests.apply($0, Point(72, 12)) } == Point(106, 32))
    }

    @Test func ninePartStretchingOfSVGContentsIsRefusedAtItsKey() throws {
        let svg = try writeSVG()
        defer { try? FileManager.default.removeItem(atPath: svg) }
        var l = layer()
        l.contents = svg
        l.contentsCenter = Rect(0.25, 0.25, 0.5, 0.5)
        do { _ = try export(l); Issue.record("nine-part SVG exported") } catch {
            #expect(error.keyPath == "layers[0].contentsCenter" && error.message.contains("SVG"))
        }
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

    /// A 20×10 SVG, red on its left half and blue on its right, in a temporary file.
    private func writeSVG() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-lottie-\(UUID().uuidString).svg").path
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">"#
            + #"<rect width="10" height="10" fill="red"/><rect x="10" width="10" height="10" fill="blue"/></svg>"#
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func svgContentsAreRasterizedAtTheLargestScaleDrawn() throws {
        let svg = try writeSVG()
        defer { try? FileManager.default.removeItem(atPath: svg) }
        var l = Layer(id: "badge", place: "layers[0]")
        l.bounds = Rect(0, 0, 20, 10)
        l.position = Point(100, 50)
        l.contents = svg
        l.contentsGravity = .resize
        var exporter = LottieExporter(size: Size(200, 100), fps: 10, background: .color(.white), options: LottieOptions())
        try exporter.add(SceneFrame(index: 0, time: 0, size: Size(200, 100), background: .color(.white), layers: [l]))
        l.transform = .scale(2, 2)
        try exporter.add(SceneFrame(index: 1, time: 0.1, size: Size(200, 100), background: .color(.white), layers: [l]))
        let doc = exporter.document()
        guard case .array(let assets)? = doc["assets"], assets.count == 1, let asset = assets.first,
              case .string(let uri)? = asset["p"], case .array(let layers)? = doc["layers"],
              let bytes = Data(base64Encoded: String(uri.dropFirst("data:image/png;base64,".count))) else {
            Issue.record("no single image asset"); return
        }
        // Drawn 2× at frame 1: 40×20 pixels, one a canvas point there.
        #expect(asset["w"] == 40 && asset["h"] == 20)
        let image = try CairoSurface.decodePNG(bytes: Array(bytes))
        #expect(image.width == 40 && image.height == 20)
        // Premultiplied BGRA in memory: red left of x = 20, blue right of it.
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.bytes[(y * image.stride + x * 4)..<(y * image.stride + x * 4 + 4)]) }
        #expect(pixel(5, 10) == [0, 0, 255, 255])
        #expect(pixel(35, 10) == [255, 0, 0, 255])
        // At frame 0 the 40×20 pixels fill the 20×10 bounds, whose origin is (100, 50) − (10, 5).
        let layer = layers.first { $0["ty"] == 2 }
        #expect(layer?["refId"] == asset["id"])
        let map = layer.flatMap { LayerTreeTests.canvasMap(of: $0, in: layers) }
        #expect(map.map { LayerTreeTests.apply($0, Point(0, 0)) } == Point(90, 45))
        #expect(map.map { [$0.a, $0.b, $0.c, $0.d] } == [0.5, 0, 0, 0.5])
    }

    @Test func svgContentsThatCannotBeReadAreRefusedAtTheirKey() {
        var l = layer()
        l.contents = "/nonexistent/badge.svg"
        do { _ = try export(l); Issue.record("a missing SVG exported") } catch {
            #expect(error.keyPath == "layers[0].contents" && error.message.contains("no such file"))
        }
    }
}
