@testable import KineticCLI
import Foundation
import Kinetic
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene
import Testing

/// `Renderer.damage(from:to:)`: every pixel in which two whole rasterizations of
/// consecutive frames differ lies inside the damage found from their trees — the
/// contract `KeptFrames` relies on when it compares frames there only.
@Suite struct FrameDamageTests {
    /// The first `frames` frames of `scene` (all by default), each pair of consecutive
    /// frames checked; returns the damaged share of the canvas for each frame after the
    /// first (1 for `.everything`).
    @discardableResult
    static func check(_ scene: KineticScene.Scene, frames: Int? = nil) throws -> [Double] {
        let sceneRenderer = try SceneRenderer(scene: scene, limits: SceneLimits(), jobs: 1, showsProgress: false)
        let clock = FrameClock(timeline: sceneRenderer.timeline)
        let renderer = sceneRenderer.renderer
        let count = min(frames ?? Int.max, try sceneRenderer.frames(nil).count)
        var before: (tree: SceneFrame, raster: PixelImage)?
        var areas: [Double] = []
        for index in 0..<count {
            let tree = try clock.renderingFrame(index, fps: sceneRenderer.fps)
            let raster = try renderer.rasterize(tree)
            defer { before = (tree, raster) }
            guard let before else { continue }
            let damage = renderer.damage(from: before.tree, to: tree)
            var x0 = 0, y0 = 0, x1 = 0, y1 = 0
            switch damage {
            case .none: break
            case .rect(let x, let y, let w, let h): (x0, y0, x1, y1) = (x, y, x + w, y + h)
            case .everything: (x1, y1) = (raster.width, raster.height)
            }
            areas.append(Double((x1 - x0) * (y1 - y0)) / Double(raster.width * raster.height))
            var outside = 0
            raster.bytes.withUnsafeBytes { a in
                before.raster.bytes.withUnsafeBytes { b in
                    for y in 0..<raster.height {
                        for x in 0..<raster.width where !((x0..<x1).contains(x) && (y0..<y1).contains(y)) {
                            let o = y * raster.stride + x * 4
                            if a.loadUnaligned(fromByteOffset: o, as: UInt32.self) != b.loadUnaligned(fromByteOffset: o, as: UInt32.self) {
                                outside += 1
                            }
                        }
                    }
                }
            }
            #expect(outside == 0, "frame \(index): \(outside) changed pixels outside \(damage)")
        }
        return areas
    }

    /// A container at rest whose sublayers move — a shadowed card, a stroked path, a
    /// square that fades out, one that hides, two that swap order — and a root layer
    /// that moves: each damages where it was and where it is. Once only the dot moves
    /// (from 0.6 s), the damage is about the dot.
    @Test func theDamageHoldsEveryChangedPixel() throws {
        let scene = try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [160, 120], scale: 2, fps: 20, duration: 1, background: white}
            layers:
              - id: box
                frame: [0, 0, 160, 120]
                backgroundColor: "#EEEEEE"
                sublayers:
                  - {id: card, frame: [10, 10, 30, 20], backgroundColor: systemBlue, cornerRadius: 6,
                     shadowOpacity: 0.5, shadowRadius: 4, shadowOffset: [0, 3]}
                  - {id: wave, type: shape, position: [20, 70], path: "M 0 0 C 20 -20 40 20 60 0",
                     fillColor: clear, strokeColor: systemGreen, lineWidth: 3, lineJoin: miter}
                  - {id: fading, frame: [100, 10, 20, 20], backgroundColor: systemRed}
                  - {id: hiding, frame: [130, 10, 20, 20], backgroundColor: systemOrange}
                  - {id: low, frame: [100, 80, 30, 30], backgroundColor: systemPurple}
                  - {id: high, frame: [115, 90, 30, 30], backgroundColor: systemTeal}
              - {id: dot, position: [80, 100], bounds: [10, 10], cornerRadius: 5, backgroundColor: black}
            animations:
              - {layer: card, keyPath: position.x, from: 25, to: 70, duration: 0.5}
              - {layer: wave, keyPath: position.y, from: 70, to: 90, duration: 0.5, begin: 0.1, fillMode: forwards}
              - {layer: fading, keyPath: opacity, from: 1, to: 0, duration: 0.5, fillMode: forwards}
              - {layer: hiding, keyPath: hidden, values: [false, true], keyTimes: [0, 0.5], duration: 0.6, calculationMode: discrete, fillMode: forwards}
              - {layer: low, keyPath: zPosition, from: 0, to: 2, duration: 0.1, begin: 0.4, fillMode: forwards}
              - {layer: dot, keyPath: position.x, from: 80, to: 140, duration: 1}
            """, file: "damage.yaml")
        let areas = try Self.check(scene)
        #expect(areas.count == 19 && !areas.contains(1))
        // Frames 13–19 (0.65–0.95 s): the dot, 10 pt wide, moves 3 pt a frame on 160 × 120.
        for (k, area) in areas.enumerated() where k + 1 >= 13 {
            #expect(area > 0 && area < 0.02, "frame \(k + 1): \(area)")
        }
    }

    /// Gallery scenes of physics, shapes, masks, replicators and text: wherever the trees
    /// say where, every changed pixel is there.
    @Test(arguments: ["attachment-spring", "chain-drag", "page-indicator", "flow-menu", "ping-transition",
                      "replicator-grid", "text-cjk-emoji", "bubble-transition", "lock-screen"])
    func theDamageHoldsEveryChangedPixelInTheGallery(name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var scene = try SceneLoader.load(path: root.appendingPathComponent("scenes/\(name).yaml").path)
        scene.settings.scale = 1
        _ = try Self.check(scene, frames: 80)
    }
}
