import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// The CALayer keys of contract 1.2 as the loader reads them: `anchorPointZ` (animatable),
/// `truncationMode`, and the keys accepted without effect.
@Suite struct AppleLayerKeysTests {
    func load(_ body: String) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [200, 200], duration: 2, fps: 50}\n" + body, file: "t.yaml")
    }

    func problems(_ body: String) -> [String] {
        do { _ = try load(body); return [] } catch let e as SceneLoadError { return e.problems.map(\.description) } catch { return ["\(error)"] }
    }

    @Test func anchorPointZIsReadAndAnimates() throws {
        let scene = try load("""
        layers: [{id: a, frame: [0, 0, 10, 10], anchorPointZ: -20}]
        animations: [{layer: a, keyPath: anchorPointZ, from: 0, to: 100, duration: 1}]
        """)
        #expect(findLayer(scene.layers, id: "a")?.anchorPointZ == -20)
        let z = findLayer(Timeline(scene: scene).frame(at: 0.25, index: 0).layers, id: "a")?.anchorPointZ
        #expect(z.map { abs($0 - 25) < 1e-9 } == true)
    }

    @Test func truncationModeIsReadAndChecked() throws {
        let scene = try load("layers: [{id: t, type: text, string: hello, truncationMode: middle}]\n")
        #expect(findLayer(scene.layers, id: "t")?.text?.truncationMode == .middle)
        #expect(problems("layers: [{id: t, type: text, truncationMode: centre}]\n").first?.contains("truncationMode") == true)
    }

    @Test func keysWithoutEffectAreAcceptedAndChecked() throws {
        let plain = try load("layers: [{id: a, frame: [0, 0, 10, 10]}]\n")
        let flagged = try load("""
        layers: [{id: a, frame: [0, 0, 10, 10], drawsAsynchronously: true, needsDisplayOnBoundsChange: true,
                  contentsFormat: RGBA16Float}]
        """)
        // Nothing Kinetic draws depends on them: the layer is the same.
        #expect(findLayer(plain.layers, id: "a") == findLayer(flagged.layers, id: "a"))
        let bad = problems("layers: [{id: a, drawsAsynchronously: 3, contentsFormat: RGB10}]\n")
        #expect(bad.count == 2, "\(bad)")
    }
}
