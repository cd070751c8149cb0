import Foundation
import Kinetic
import Testing

/// Scene's setters override the file's settings as `kinetic render`'s flags do.
struct SceneSettingsTests {
    let path = repositoryRoot.appendingPathComponent("scenes/paperclip-loader.yaml")

    @Test func overridesWriteWhatRenderWritesWithTheFlags() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var scene = try Scene(contentsOf: path)
        scene.scale = 1
        try scene.setTiming(framesPerSecond: 20, duration: 1)
        try scene.setBackgroundColor("#102030")
        var options = OutputOptions()
        options.keepsFrameRate = true
        let library = folder.appendingPathComponent("library.gif"), command = folder.appendingPathComponent("command.gif")
        let summary = try scene.write(to: library, options: options)
        _ = try runKinetic(["render", path.path, "-o", command.path, "--quiet", "--scale", "1", "--fps", "20",
                            "--duration", "1", "--background", "#102030"])
        #expect(try Data(contentsOf: library) == Data(contentsOf: command))
        // 1 s at 20 fps.
        #expect(summary.frameCount == 20 && scene.frameCount == 20)
    }

    @Test func scaleAndBackgroundSetThePixels() throws {
        var scene = try Scene(yaml: "kinetic: 1\nscene: {size: [10, 6], duration: 1, fps: 10, scale: 2}\nlayers: []\n")
        scene.scale = 3
        try scene.setBackgroundColor("#FF000080")
        let image = try scene.rgbaImage(atFrame: 0)
        // 10 × 6 points at 3 pixels a point; every pixel is the background, straight RGBA.
        #expect(image.width == 30 && image.height == 18)
        #expect(Array(image.bytes[0..<4]) == [255, 0, 0, 128])
        #expect(Set(stride(from: 0, to: image.bytes.count, by: 4).map { image.bytes[$0 + 3] }) == [128])
    }

    @Test func refusedSettingsLeaveTheSceneAsItWas() throws {
        var scene = try Scene(yaml: "kinetic: 1\nscene: {size: [10, 10], duration: 2, fps: 10}\nlayers: []\n")
        #expect(throws: FrameRenderError.self) { try scene.setTiming(framesPerSecond: 0) }
        #expect(throws: FrameRenderError.self) { try scene.setTiming(duration: -1) }
        // Over the frame limit: 10⁶ s at 10 fps.
        #expect(throws: FrameRenderError.self) { try scene.setTiming(duration: 1_000_000) }
        #expect(throws: FrameRenderError.self) { try scene.setBackgroundColor("nope") }
        #expect(scene.frameCount == 20 && scene.framesPerSecond == 10 && scene.duration == 2)
        try scene.setTiming(framesPerSecond: 25)
        // The duration stays the scene's: 2 s at 25 fps.
        #expect(scene.frameCount == 50)
    }
}
