import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// A CATransformLayer's leaves sort by depth at every frame (the renderer's
/// `Layer.sharedSpace`); the export's layer order is fixed, so each leaf has a copy in
/// every slot and shows only in the one its depth gives it.
struct TransformLayerExportTests {
    /// Two 20×20 faces, `front` nearer the eye than `back` by their z translation;
    /// `swapped` puts `back` in front.
    private func cube(swapped: Bool) -> Layer {
        var container = Layer(id: "cube", place: "layers[0]", type: .transformLayer)
        container.bounds = Rect(0, 0, 100, 100)
        container.position = Point(100, 100)
        for (i, id) in ["front", "back"].enumerated() {
            var face = Layer(id: id, place: "layers[0].sublayers[\(i)]")
            face.bounds = Rect(0, 0, 20, 20)
            face.position = Point(40 + 20 * Double(i), 50)
            face.backgroundColor = Color(red: Double(1 - i), green: 0, blue: Double(i))
            let near = (i == 0) != swapped
            face.transform = .translation(0, 0, near ? 10 : -10)
            container.sublayers.append(face)
        }
        return container
    }

    /// The opacity (0…100) of a layer at frame `t`: static, or its hold keyframes'.
    private func opacity(of layer: LottieJSON, at t: Double) -> Double? {
        guard let o = layer["ks"]?["o"] else { return nil }
        if o["a"] == 0, case .number(let v)? = o["k"] { return v }
        guard case .array(let keys)? = o["k"] else { return nil }
        var value: Double?
        for key in keys {
            guard case .number(let at)? = key["t"], at <= t, case .array(let s)? = key["s"], case .number(let v)? = s.first else { break }
            value = v
        }
        return value
    }

    @Test func eachLeafShowsInTheSlotItsDepthGivesItAtEveryFrame() throws {
        #expect(LottieRefusals.problems(in: [cube(swapped: false)]).isEmpty)
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        for (i, swapped) in [false, true, false].enumerated() {
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 200), background: .color(.clear),
                                        layers: [cube(swapped: swapped)]))
        }
        guard case .array(let all)? = exporter.document()["layers"] else { Issue.record("no layers"); return }
        let layers = all.filter { $0["ty"] != 3 }
        // Top first: slot 1 (the nearer face), then slot 0; in a slot, file order.
        #expect(layers.map { $0["nm"] } == ["back@1", "front@1", "back@0", "front@0"])
        func shown(at t: Double) -> [LottieJSON?] { layers.filter { (opacity(of: $0, at: t) ?? 0) > 0 }.map { $0["nm"] } }
        #expect(shown(at: 0) == ["front@1", "back@0"])
        #expect(shown(at: 1) == ["back@1", "front@0"])
        #expect(shown(at: 2) == ["front@1", "back@0"])
        // A copy lives from the first frame it shows to one after its last (rlottie draws
        // the out point): back@1 and front@0 show at frame 1 only, so they start there
        // rather than carrying hidden keyframes from frame 0.
        let life = Dictionary(uniqueKeysWithValues: layers.compactMap { layer -> (String, [LottieJSON?])? in
            guard case .string(let name)? = layer["nm"] else { return nil }
            return (name, [layer["ip"], layer["op"]])
        })
        #expect(life["back@1"] == [1, 3] && life["front@0"] == [1, 3])
        #expect(life["front@1"] == [0, 3] && life["back@0"] == [0, 3])
    }

    @Test func aLayerThatEndsEarlyIsKeptAFrameLongerShowingNothing() throws {
        // rlottie draws a layer at its out point: the frame after its last must be empty.
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        for i in 0..<4 {
            var box = Layer(id: "box", place: "layers[0]")
            box.bounds = Rect(0, 0, 20, 20)
            box.position = Point(50, 50)
            box.backgroundColor = Color(red: 1, green: 0, blue: 0)
            try exporter.add(SceneFrame(index: i, time: Double(i) / 30, size: Size(200, 200), background: .color(.clear),
                                        layers: i < 2 ? [box] : []))
        }
        guard case .array(let all)? = exporter.document()["layers"], let box = all.first(where: { $0["ty"] == 4 }) else {
            Issue.record("no box"); return
        }
        #expect(box["ip"] == 0 && box["op"] == 3)
        #expect(opacity(of: box, at: 1) == 100 && opacity(of: box, at: 2) == 0)
    }
}
