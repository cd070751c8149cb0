import Foundation
import Kinetic
import Testing

/// `Scene.write(to:options:)` writes what `kinetic render SCENE -o OUT` writes, byte for
/// byte, in every format the extension picks.
struct SceneWritingTests {
    let path = repositoryRoot.appendingPathComponent("scenes/paperclip-loader.yaml")

    /// A fresh folder, removed by the caller.
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-writing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: ["gif", "webp", "apng", "mp4", "json"])
    func anAnimationIsWhatRenderWrites(format: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library.\(format)")
        let command = folder.appendingPathComponent("command.\(format)")
        var options = OutputOptions()
        options.frames = 10...29
        if format == "json" { options.frames = nil }
        let summary = try Scene(contentsOf: path).write(to: library, options: options)
        var arguments = ["render", path.path, "-o", command.path, "--quiet"]
        if format != "json" { arguments += ["--frames", "10-29"] }
        _ = try runKinetic(arguments)
        #expect(try Data(contentsOf: library) == Data(contentsOf: command))
        // paperclip-loader is 2 s at 50 fps: 100 frames, 20 of them asked for.
        #expect(summary.frameCount == (format == "json" ? 100 : 20))
        #expect(summary.warnings.isEmpty)
    }

    @Test func aFolderGetsNumberedPNGFrames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Scene(contentsOf: path)
        var options = OutputOptions()
        options.frames = 3...5
        try scene.write(to: folder.appendingPathComponent("frames", isDirectory: true), options: options)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("frames").path).sorted()
        #expect(names == ["frame-0003.png", "frame-0004.png", "frame-0005.png"])
        // The frame's pixels are the still's (the folder's PNGs also name their scene in a text chunk).
        let written = try Data(contentsOf: folder.appendingPathComponent("frames/frame-0004.png"))
        let still = folder.appendingPathComponent("still.png")
        try scene.write(frame: 4, to: still)
        #expect(try Data(contentsOf: still) == scene.pngData(atFrame: 4))
        #expect(written.count > 0 && written.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aFastSceneIsResampledForGIFWithAWarning() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = try Scene(size: [40, 40], fps: 100, duration: 1, layers: [Layer("box").frame([0, 0, 20, 20]).backgroundColor("red")])
        let summary = try scene.write(to: folder.appendingPathComponent("fast.gif"))
        // GIF plays at most 50 fps: 1 s is 50 frames, and the summary says why.
        #expect(summary.frameCount == 50)
        #expect(summary.warnings.count == 1 && summary.warnings[0].contains("resampling 100 fps to 50 fps"))
        var options = OutputOptions()
        options.keepsFrameRate = true
        #expect(try scene.write(to: folder.appendingPathComponent("kept.gif"), options: options).frameCount == 100)
    }

    @Test func anUnknownExtensionOrBadSettingIsRefused() throws {
        let scene = try Scene(contentsOf: path)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknown = try #require(throws: FrameRenderError.self) { try scene.write(to: folder.appendingPathComponent("a.bmp")) }
        #expect(unknown.message.contains("unknown output format '.bmp'"))
        var options = OutputOptions()
        options.colorCount = 1
        #expect(throws: FrameRenderError.self) { try scene.write(to: folder.appendingPathComponent("a.gif"), options: options) }
        // Nothing is left behind by a refusal.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
