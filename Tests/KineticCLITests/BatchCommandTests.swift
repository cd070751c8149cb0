@testable import KineticCLI
import Foundation
import Kinetic
import KineticEncode
import Testing

@Suite struct BatchCommandTests {
    private func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    private func setModified(_ path: String, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    @Test func oneFailingSceneLeavesTheOthersRendering() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(slidingSquareScene(golden: ""), to: "scenes/a.yaml")
        try folder.write("kinetic: 1\nscene: {size: [10, 10], duration: 1}\nlayers: [{id: a, opacty: 1}]\n", to: "scenes/b.yaml")
        try folder.write(slidingSquareScene(golden: ""), to: "scenes/c.yaml")
        let out = folder.file("out")
        #expect(kinetic(["batch", folder.file("scenes"), "-o", out, "--quiet"]) == 65)
        let a = try Data(contentsOf: URL(fileURLWithPath: out + "/a.gif"))
        #expect(a.starts(with: Array("GIF89a".utf8)))
        #expect(FileManager.default.fileExists(atPath: out + "/c.gif"))
        #expect(!FileManager.default.fileExists(atPath: out + "/b.gif"))
    }

    @Test func upToDateOutputsAreSkippedUnlessForced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try folder.write(slidingSquareScene(golden: ""), to: "scenes/a.yaml")
        let out = folder.file("out"), gif = out + "/a.gif"
        #expect(kinetic(["batch", scene, "-o", out, "--quiet"]) == 0)
        // Pretend the scene was written an hour ago and the GIF a minute ago (whole seconds:
        // file systems may keep less than Date's precision).
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        try setModified(scene, now.addingTimeInterval(-3600))
        try setModified(gif, now.addingTimeInterval(-60))
        #expect(kinetic(["batch", scene, "-o", out, "--quiet"]) == 0)
        #expect(modified(gif) == now.addingTimeInterval(-60))
        #expect(kinetic(["batch", scene, "-o", out, "--quiet", "--force"]) == 0)
        #expect(modified(gif)! > now.addingTimeInterval(-60))
        // The scene edited after the GIF: rendered again.
        try setModified(gif, now.addingTimeInterval(-60))
        try setModified(scene, now.addingTimeInterval(-30))
        #expect(kinetic(["batch", scene, "-o", out, "--quiet"]) == 0)
        #expect(modified(gif)! > now.addingTimeInterval(-30))
    }

    @Test func anAssetNewerThanTheOutputMakesItStale() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try folder.write("s", to: "scene.yaml"), asset = try folder.write("a", to: "asset.png")
        let output = try folder.write("o", to: "out.gif")
        let now = Date()
        try setModified(scene, now.addingTimeInterval(-300))
        try setModified(asset, now.addingTimeInterval(-200))
        try setModified(output, now.addingTimeInterval(-100))
        #expect(BatchOutput.isUpToDate([output], inputs: [scene, asset]))
        try setModified(asset, now.addingTimeInterval(-50))
        #expect(!BatchOutput.isUpToDate([output], inputs: [scene, asset]))
        #expect(!BatchOutput.isUpToDate([output, folder.file("missing.png")], inputs: [scene]))
        #expect(!BatchOutput.isUpToDate([output], inputs: [scene, folder.file("gone.png")]))
    }

    @Test func pngFoldersTakeTheFrameRange() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try folder.write(slidingSquareScene(golden: ""), to: "scenes/a.yaml")
        let out = folder.file("out")
        #expect(kinetic(["batch", scene, "-o", out, "--png", "--frames", "2-4", "--quiet"]) == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/a").sorted()
        #expect(names == ["frame-0002.png", "frame-0003.png", "frame-0004.png"])
        // 120×80 points at the scene's scale 2.
        let frame = try PNGReader.read(out + "/a/frame-0003.png")
        #expect(frame.width == 240 && frame.height == 160)
        #expect(kinetic(["batch", scene, "-o", out, "--frames", "20-30", "--quiet"]) == 64)
    }

    @Test func theTableHasARowPerScene() {
        let rows = [
            BatchCommand.Row(scene: "scenes/a.yaml", frames: 25, seconds: 1.5, bytes: 2_500_000, status: .rendered),
            BatchCommand.Row(scene: "scenes/long-name.yaml", frames: nil, seconds: 0, bytes: nil, status: .failed(.init(65), "")),
        ]
        let lines = BatchCommand.table(rows).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("scene ") && lines[0].hasSuffix("status"))
        #expect(lines[1].hasPrefix("scenes/a.yaml ") && lines[1].contains("25") && lines[1].contains("1.50")
                && lines[1].contains("2.50 MB") && lines[1].hasSuffix("rendered"))
        #expect(lines[2].hasSuffix("FAILED (65)"))
        #expect(lines[3] == "2 scenes, 1 failed")
        // Columns line up: every row's status starts where the header's does.
        let column = lines[0].range(of: "status")!.lowerBound.utf16Offset(in: lines[0])
        #expect(lines[1].range(of: "rendered")!.lowerBound.utf16Offset(in: lines[1]) == column)
    }
}
