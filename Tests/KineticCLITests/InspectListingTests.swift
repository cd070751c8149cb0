import Foundation
import Testing
import enum Kinetic.InspectReport
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene
@testable import KineticCLI

/// The `layers` of `inspect` for the scene `yaml` at `time`, keyed as printed.
private func inspectedLayers(_ yaml: String, at time: Double) throws -> [String: [String: Any]] {
    let scene = try SceneLoader.load(text: yaml, file: "t.yaml")
    let frame = try Simulation(timeline: Timeline(scene: scene)).frame(at: time, index: Int(time * scene.settings.fps))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(InspectReport.json(for: frame).utf8)) as? [String: Any])
    let layers = try #require(object["layers"] as? [String: Any])
    return try layers.mapValues { try #require($0 as? [String: Any]) }
}

private func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-8) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < tolerance }
}

/// Masks are listed as layers (contract §10: every layer is listed).
@Suite struct InspectMaskTests {
    /// A host placed at (20, 10) whose sublayers are shifted by its sublayerTransform,
    /// and whose mask (with an id) slides right over a second.
    static let scene = """
    kinetic: 1
    scene: {size: [200, 100], duration: 1, fps: 10}
    layers:
      - id: host
        frame: [20, 10, 100, 80]
        backgroundColor: systemOrange
        sublayerTransform: {translate: [7, 0, 0]}
        sublayers:
          - {id: child, frame: [0, 0, 10, 10], backgroundColor: white}
        mask:
          id: hole
          type: shape
          frame: [0, 0, 40, 40]
          path: {oval: [0, 0, 40, 40]}
          fillColor: black
      - id: plain
        frame: [0, 0, 50, 50]
        mask: {frame: [5, 5, 10, 10], backgroundColor: black, opacity: 0.5}
    animations:
      - {layer: hole, keyPath: position.x, from: 20, to: 80, duration: 1}
    """

    @Test func aMaskWithAnIdIsListedWithItsAnimatedValues() throws {
        let layers = try inspectedLayers(Self.scene, at: 0.5)
        let hole = try #require(layers["hole"], "the mask is missing from \(layers.keys.sorted())")
        #expect(hole["type"] as? String == "shape")
        #expect(hole["fillColor"] as? String == "#000000FF")
        // position.x runs 20 → 80 over a second: 50 at 0.5 s.
        #expect(close(try #require(hole["position"] as? [Double]), [50, 20]))
        // In its host's bounds space (host origin at (20, 10) on the canvas), without the
        // host's sublayerTransform, which moves sublayers only.
        let corners = try #require(hole["corners"] as? [[Double]])
        #expect(close(corners.flatMap { $0 }, [50, 10, 90, 10, 90, 50, 50, 50]), "\(corners)")
        let child = try #require(layers["child"]?["corners"] as? [[Double]])
        #expect(close(child[0], [27, 10]), "the sublayer does get the sublayerTransform: \(child[0])")
        #expect(layers["host"]?["mask"] as? String == "hole")
        #expect(layers["child"]?["mask"] == nil)
    }

    @Test func aMaskWithoutAnIdIsKeyedByItsPlace() throws {
        let layers = try inspectedLayers(Self.scene, at: 0)
        let mask = try #require(layers["layers[1].mask"], "keys: \(layers.keys.sorted())")
        #expect(mask["opacity"] as? Double == 0.5)
        #expect(close(try #require(mask["corners"] as? [[Double]])[0], [5, 5]))
        #expect(layers["plain"]?["mask"] as? String == "layers[1].mask")
    }

    @Test func everyReplicatorCopyListsItsOwnMask() throws {
        // Copy k of `tile` runs the mask's animation k × 0.25 s late and sits 50 points
        // further right; each copy's mask takes the copy's suffix.
        let layers = try inspectedLayers("""
        kinetic: 1
        scene: {size: [200, 60], duration: 1, fps: 20}
        layers:
          - id: row
            type: replicator
            frame: [0, 0, 200, 60]
            instanceCount: 3
            instanceDelay: 0.25
            instanceTransform: {translate: [50, 0, 0]}
            sublayers:
              - id: tile
                frame: [0, 0, 40, 40]
                backgroundColor: white
                mask: {id: dot, frame: [0, 0, 10, 10], backgroundColor: black}
        animations:
          - {layer: dot, keyPath: opacity, from: 0, to: 1, duration: 1}
        """, at: 0.5)
        for (key, opacity, x) in [("dot", 0.5, 0.0), ("dot#1", 0.25, 50), ("dot#2", 0.0, 100)] {
            let mask = try #require(layers[key], "\(key) missing from \(layers.keys.sorted())")
            #expect(abs(try #require(mask["opacity"] as? Double) - opacity) < 1e-9, "\(key)")
            #expect(close(try #require(mask["corners"] as? [[Double]])[0], [x, 0]), "\(key)")
        }
        #expect(layers["tile#2"]?["mask"] as? String == "dot#2")
    }
}

/// `colorMultiplier` is what a copy's pixels are multiplied by: along nested replicators,
/// the product of every copy's color.
@Suite struct InspectColorMultiplierTests {
    /// Outer copies lose blue (0.4 a copy), inner copies red: white cells on black, 40
    /// points apart, so each cell's centre pixel shows its multiplier.
    static let scene = """
    kinetic: 1
    scene: {size: [80, 80], duration: 1, fps: 10, background: black}
    layers:
      - id: columns
        type: replicator
        frame: [0, 0, 80, 80]
        instanceCount: 2
        instanceTransform: {translate: [40, 0, 0]}
        instanceBlueOffset: -0.4
        sublayers:
          - id: rows
            type: replicator
            frame: [0, 0, 80, 80]
            instanceCount: 2
            instanceTransform: {translate: [0, 40, 0]}
            instanceRedOffset: -0.4
            sublayers:
              - {id: cell, frame: [4, 4, 32, 32], backgroundColor: white}
    """

    @Test func aNestedCopyReportsTheProductOfItsReplicatorsColors() throws {
        let layers = try inspectedLayers(Self.scene, at: 0)
        #expect(layers["cell"]?["colorMultiplier"] == nil)
        #expect(layers["cell#0#1"]?["colorMultiplier"] as? String == "#99FFFFFF")
        #expect(layers["cell#1#0"]?["colorMultiplier"] as? String == "#FFFF99FF")
        #expect(layers["cell#1#1"]?["colorMultiplier"] as? String == "#99FF99FF")
        #expect(layers["rows#1"]?["colorMultiplier"] as? String == "#FFFF99FF")
    }

    @Test func theReportedMultiplierIsWhatTheRendererDraws() throws {
        let scene = try SceneLoader.load(text: Self.scene, file: "t.yaml")
        let frame = try Simulation(timeline: Timeline(scene: scene)).frame(0)
        let image = Renderer(scale: 1).render(frame)
        let layers = try inspectedLayers(Self.scene, at: 0)
        for key in ["cell", "cell#0#1", "cell#1#0", "cell#1#1"] {
            let layer = try #require(layers[key])
            let corners = try #require(layer["corners"] as? [[Double]])
            let x = Int(corners.map { $0[0] }.reduce(0, +) / 4), y = Int(corners.map { $0[1] }.reduce(0, +) / 4)
            let hex = layer["colorMultiplier"] as? String ?? "#FFFFFFFF"
            let expected = stride(from: 1, to: 7, by: 2).map { i -> Int in
                Int(hex.dropFirst(i).prefix(2), radix: 16)!
            }
            let p = image.rgba(x: x, y: y)
            let drawn = [Int(p.r), Int(p.g), Int(p.b)]
            #expect(zip(drawn, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(key) at (\(x), \(y)): drawn \(drawn), reported \(hex)")
        }
    }
}

/// A corner at or behind the eye (w ≤ 0 at some level of the composition) is null.
@Suite struct InspectBehindEyeTests {
    @Test func cornersBehindTheEyeAreNullAndTheOthersProjected() throws {
        // A 600-point wall turned 60° about y under a perspective of 200: w = 1 + x·sin 60°/200
        // for x measured from its centre, −0.299 at the left edge, 2.299 at the right.
        let layers = try inspectedLayers("""
        kinetic: 1
        scene: {size: [300, 200], duration: 1, fps: 10}
        layers:
          - id: stage
            frame: [0, 0, 300, 200]
            sublayerTransform: {perspective: 200}
            sublayers:
              - id: wall
                position: [150, 100]
                bounds: [600, 100]
                transform: {rotateY: "60deg"}
                sublayers:
                  - {id: label, frame: [0, 20, 600, 60]}
        """, at: 0)
        let wall = try #require(layers["wall"]?["corners"] as? [Any])
        #expect(wall.count == 4)
        #expect(wall[0] is NSNull && wall[3] is NSNull, "\(wall)")
        let w = 1 + 300 * sin(Double.pi / 3) / 200
        #expect(close(try #require(wall[1] as? [Double]), [300 * 0.5 / w + 150, -50 / w + 100]))
        #expect(close(try #require(wall[2] as? [Double]), [300 * 0.5 / w + 150, 50 / w + 100]))
        // The label is flat in the wall's plane, so its left corners are behind the eye too.
        let label = try #require(layers["label"]?["corners"] as? [Any])
        #expect(label[0] is NSNull && label[3] is NSNull && label[1] is [Double], "\(label)")
    }

    @Test func aCornerMirroredAtTwoLevelsIsStillNull() throws {
        // The wall's left corners are behind the panel's eye; the panel, turned the other
        // way under the stage's perspective, would mirror their images back: the product
        // of the two levels has w > 0 there, but the renderer drew nothing at the first.
        let yaml = """
        kinetic: 1
        scene: {size: [400, 400], duration: 1, fps: 10}
        layers:
          - id: stage
            frame: [0, 0, 400, 400]
            sublayerTransform: {perspective: 200}
            sublayers:
              - id: panel
                position: [200, 200]
                bounds: [200, 200]
                transform: {rotateY: "-60deg"}
                sublayerTransform: {perspective: 200}
                sublayers:
                  - id: wall
                    position: [100, 100]
                    bounds: [600, 100]
                    transform: {rotateY: "60deg"}
        """
        let scene = try SceneLoader.load(text: yaml, file: "t.yaml")
        var composite: PlaneProjection?
        Layer.forEachCanvasProjection(Timeline(scene: scene).frame(at: 0, index: 0).layers) { layer, toCanvas in
            if layer.key == "wall" { composite = toCanvas }
        }
        let leftTop = Point(0, 0)
        #expect(try #require(composite).w(at: leftTop) > 0, "the case needs a positive composite w")
        let wall = try #require(try inspectedLayers(yaml, at: 0)["wall"]?["corners"] as? [Any])
        #expect(wall[0] is NSNull && wall[3] is NSNull, "\(wall)")
        #expect(wall[1] is [Double] && wall[2] is [Double], "\(wall)")
    }
}

/// Shadow and dash keys are reported, read over time while they animate.
@Suite struct InspectShadowAndDashTests {
    static let scene = """
    kinetic: 1
    scene: {size: [200, 100], duration: 1, fps: 20}
    layers:
      - {id: card, frame: [20, 10, 50, 50], backgroundColor: white, shadowOpacity: 0}
      - {id: line, type: shape, frame: [0, 0, 200, 100], path: "M 0 50 L 200 50", strokeColor: black,
         lineDashPattern: [6, 3]}
    animations:
      - {layer: card, keyPath: shadowOpacity, from: 0, to: 1, duration: 1}
      - {layer: card, keyPath: shadowRadius, from: 2, to: 10, duration: 1}
      - {layer: card, keyPath: shadowOffset, from: [0, 0], to: [4, 8], duration: 1}
      - {layer: card, keyPath: shadowColor, from: black, to: "#FF0000", duration: 1}
      - {layer: line, keyPath: lineDashPhase, from: 0, to: 9, duration: 1}
    """

    @Test func shadowAndDashKeysFollowTheirAnimations() throws {
        // Linear from/to, so at time t each key is from + t·(to − from): at 0.25 s
        // opacity 0.25, radius 4, offset (1, 2), color 0.25·red = #400000FF, phase 2.25.
        for (t, hex) in [(0.0, "#000000FF"), (0.25, "#400000FF"), (0.5, "#800000FF")] {
            let layers = try inspectedLayers(Self.scene, at: t)
            let card = try #require(layers["card"]), line = try #require(layers["line"])
            #expect(abs((card["shadowOpacity"] as? Double ?? -1) - t) < 1e-9)
            #expect(abs((card["shadowRadius"] as? Double ?? -1) - (2 + 8 * t)) < 1e-9)
            #expect(close(card["shadowOffset"] as? [Double] ?? [], [4 * t, 8 * t]))
            #expect(card["shadowColor"] as? String == hex)
            #expect(abs((line["lineDashPhase"] as? Double ?? -1) - 9 * t) < 1e-9)
            #expect(line["lineDashPattern"] as? [Double] == [6, 3])
        }
        // A layer with no shadow set reports CALayer's defaults: radius 3, offset (0, −3).
        let line = try #require(try inspectedLayers(Self.scene, at: 0)["line"])
        #expect(line["shadowRadius"] as? Double == 3 && line["shadowOffset"] as? [Double] == [0, -3])
        #expect(line["shadowOpacity"] as? Double == 0 && line["shadowColor"] as? String == "#000000FF")
    }
}
