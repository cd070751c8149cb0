import Foundation
import Kinetic
import Testing

/// The library's frames are the command's: the same PNG bytes, the same inspect state.
struct SceneFramesTests {
    let path = repositoryRoot.appendingPathComponent("scenes/gravity-angle.yaml")

    @Test(arguments: [0, 30, 49]) func pngDataIsWhatRenderWrites(frame: Int) throws {
        let scene = try Scene(contentsOf: path)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-library-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try runKinetic(["render", path.path, "--frame", "\(frame)", "-o", file.path, "--quiet"])
        #expect(try scene.pngData(atFrame: frame) == Data(contentsOf: file))
    }

    @Test func writeFrameWritesThePNGBytes() throws {
        let scene = try Scene(contentsOf: path)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-library-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try scene.write(frame: 30, to: file)
        #expect(try Data(contentsOf: file) == scene.pngData(atFrame: 30))
    }

    @Test func stateIsWhatInspectPrints() throws {
        let scene = try Scene(contentsOf: path)
        let printed = try runKinetic(["inspect", path.path, "--frame", "38"])
        let state = try scene.state(atFrame: 38)
        #expect(state.json + "\n" == String(decoding: printed, as: UTF8.self))
        // And the Codable model reads the command's JSON back as the same values.
        #expect(try JSONDecoder().decode(FrameState.self, from: printed) == state)
    }

    @Test func rgbaImageIsTheCanvasInPixels() throws {
        let scene = try Scene(contentsOf: path)
        let image = try scene.rgbaImage(atFrame: 0)
        // 375×667 points at scale 2.
        #expect(image.width == 750 && image.height == 1334)
        #expect(image.bytes.count == 750 * 1334 * 4)
        // The background is white; the 80 pt yellow square is centred at (187.5, 333.5) pt.
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.bytes[(y * 750 + x) * 4..<(y * 750 + x) * 4 + 4]) }
        #expect(pixel(10, 10) == [255, 255, 255, 255])
        #expect(pixel(375, 667) == [255, 255, 0, 255])
    }

    @Test func aFrameOutsideTheSceneIsRefused() throws {
        let scene = try Scene(contentsOf: path)
        #expect(throws: FrameRenderError.self) { try scene.pngData(atFrame: 50) }
    }
}
