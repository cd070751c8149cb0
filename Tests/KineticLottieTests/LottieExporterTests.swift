import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// The document's structure for small hand-built scenes, checked against what the Lottie
/// specification says each field means.
struct LottieExporterTests {
    private func square(at x: Double, rotation: Double = 0, opacity: Double = 1) -> Layer {
        var layer = Layer(id: "box", place: "layers[0]")
        layer.bounds = Rect(0, 0, 20, 10)
        layer.position = Point(x, 50)
        layer.backgroundColor = Color(red: 1, green: 0, blue: 0)
        layer.opacity = opacity
        if rotation != 0 { layer.transform = .rotation(rotation, 0, 0, 1) }
        return layer
    }

    private func export(_ layers: [[Layer]], background: Background = .color(.white),
                        options: LottieOptions = LottieOptions()) throws -> (LottieJSON, LottieExporter) {
        var exporter = LottieExporter(size: Size(200, 100), fps: 30, background: background, options: options)
        for (i, frame) in layers.enumerated() {
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 100), background: background, layers: frame))
        }
        return (exporter.document(), exporter)
    }

    @Test func compositionHasTheSceneSizeRateAndFrames() throws {
        let (doc, _) = try export((0..<12).map { [square(at: Double($0))] })
        #expect(doc["w"] == 200 && doc["h"] == 100 && doc["fr"] == 30 && doc["ip"] == 0 && doc["op"] == 12)
        guard case .array(let all)? = doc["layers"] else { Issue.record("no layers"); return }
        // The box, then the white background at the bottom; the box's null below them.
        let layers = all.filter { $0["ty"] != 3 }
        #expect(layers.count == 2)
        #expect(layers[1]["nm"] == "background")
        #expect(layers[0]["nm"] == "box")
        #expect(all.filter { $0["ty"] == 3 }.map { $0["nm"] } == ["box"])
    }

    @Test func aSteadyMoveIsTwoPositionKeyframesAtTheAnchor() throws {
        let (doc, exporter) = try export((0..<12).map { [square(at: 10 + 5 * Double($0))] })
        // The box's place is its null's; its drawing, parented to it, stays still.
        guard case .array(let layers)? = doc["layers"], let null = LayerTreeTests.parent(of: layers[0], in: layers),
              let p = null["ks"]?["p"], case .array(let keys)? = p["x"]?["k"] else {
            Issue.record("no position keyframes"); return
        }
        // The anchor point (10, 5) of a 20×10 box maps to the position: its plane's origin
        // is 10 points left and 5 up of it. Position is split: x moves, y stays.
        #expect(p["s"] == true)
        #expect(keys.count == 2)
        #expect(keys[0]["s"] == [0] && keys[0]["t"] == 0)
        #expect(keys[1]["s"] == [55] && keys[1]["t"] == 11)
        // A straight segment: handles (0, 0) and (1, 1), written as plain numbers.
        #expect(keys[0]["o"]?["x"] == 0 && keys[0]["o"]?["y"] == 0 && keys[0]["i"]?["x"] == 1 && keys[0]["i"]?["y"] == 1)
        #expect(p["y"]?["k"] == 45)
        #expect(null["ks"]?["r"]?["a"] == 0)
        #expect(layers[0]["ks"]?["p"]?["x"]?["k"] == 0 && layers[0]["ks"]?["p"]?["y"]?["k"] == 0)
        #expect(exporter.keyframeCounts.kept < exporter.keyframeCounts.sampled)
    }

    @Test func rotationIsInDegreesClockwiseAndUnwrapped() throws {
        // 0 → 270° in 10° steps: a player must not turn back through 90° at 180°.
        let (doc, _) = try export((0...27).map { [square(at: 100, rotation: Double($0) * 10 * .pi / 180)] })
        guard case .array(let layers)? = doc["layers"],
              case .array(let keys)? = LayerTreeTests.parent(of: layers[0], in: layers)?["ks"]?["r"]?["k"] else {
            Issue.record("no rotation keyframes"); return
        }
        #expect(keys.count == 2)
        #expect(keys[1]["s"] == [270])
    }

    @Test func backgroundColorIsARectangleFill() throws {
        let (doc, _) = try export([[square(at: 100)]])
        guard case .array(let layers)? = doc["layers"], case .array(let shapes)? = layers[0]["shapes"],
              case .array(let items)? = shapes.first?["it"] else { Issue.record("no shapes"); return }
        #expect(items.contains { $0["ty"] == "sh" })
        let fill = items.first { $0["ty"] == "fl" }
        #expect(fill?["c"]?["k"] == [1, 0, 0])
        #expect(fill?["o"]?["k"] == 100)
        #expect(items.last?["ty"] == "tr")
    }

    @Test func clearBackgroundHasNoLayer() throws {
        let (doc, _) = try export([[square(at: 100)]], background: .color(.clear))
        guard case .array(let layers)? = doc["layers"] else { Issue.record("no layers"); return }
        #expect(layers.filter { $0["ty"] != 3 }.count == 1)
    }

    @Test func filtersAreRefusedAtTheirKeyUnlessApproximating() throws {
        var blurred = square(at: 100)
        blurred.filters = [.gaussianBlur(radius: 4)]
        #expect(throws: LottieProblem(keyPath: "layers[0].filters", message: "Lottie has no blur a player draws on a layer")) {
            _ = try export([[blurred]])
        }
        let (_, exporter) = try export([[blurred], [blurred]], options: LottieOptions(approximate: true))
        #expect(exporter.warnings.map(\.keyPath) == ["layers[0].filters"])
    }

    @Test func theLayerCapIsAClearError() throws {
        var options = LottieOptions()
        options.maximumLayers = 3
        let many = (0..<5).map { i -> Layer in
            var l = square(at: Double(i) * 10)
            l.id = "b\(i)"; l.place = "layers[\(i)]"
            return l
        }
        #expect(throws: LottieProblem.self) { _ = try export([many], options: options) }
    }

    @Test func theSameFramesGiveTheSameBytes() throws {
        let frames = (0..<20).map { [square(at: 10 + sin(Double($0)) * 30, rotation: Double($0) / 7, opacity: 0.5)] }
        let (a, _) = try export(frames), (b, _) = try export(frames)
        #expect(a.text == b.text)
    }

    @Test func numbersAreWrittenShortAndStable() {
        #expect(LottieJSON.format(1) == "1")
        #expect(LottieJSON.format(-0.5) == "-0.5")
        #expect(LottieJSON.format(0.123456) == "0.1235")
        #expect(LottieJSON.format(1e-7) == "0")
        #expect(LottieJSON.format(.nan) == "0")
    }

    @Test func aClosedPathMergesItsRepeatedFirstVertex() {
        var path = BezierPath()
        path.move(to: Point(0, 0)); path.addLine(to: Point(10, 0)); path.addLine(to: Point(10, 10))
        path.addLine(to: Point(0, 0)); path.close()
        let beziers = LottieBezier.subpaths(of: path)
        #expect(beziers.count == 1)
        #expect(beziers[0].closed && beziers[0].vertices == [Point(0, 0), Point(10, 0), Point(10, 10)])
    }
}
