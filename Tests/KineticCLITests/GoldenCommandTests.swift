import Foundation
import KineticEncode
import KineticGeometry
import KineticScene
import Testing
@testable import KineticCLI

@Suite struct GoldenCommandTests {
    /// The scene's golden frames, blessed into a temporary golden folder.
    private func blessed(golden: String) throws -> (folder: TemporaryFolder, scene: String) {
        let folder = try TemporaryFolder()
        let scene = try folder.write(slidingSquareScene(golden: golden), to: "scenes/square.yaml")
        #expect(kinetic(["golden", "update", scene]) == 0)
        return (folder, scene)
    }

    @Test func updateWritesTheGoldenFramesAtTheGoldenScale() throws {
        let (folder, _) = try blessed(golden: "golden: {frames: [0, 10, last], scale: 1}")
        defer { folder.remove() }
        // Beside scenes/: golden/square/, frames 0, 10 and 24 (25 frames), 120×80 at scale 1.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.file("golden/square")).sorted()
        #expect(names == ["frame-0000.png", "frame-0010.png", "frame-0024.png"])
        let last = try PNGReader.read(folder.file("golden/square/frame-0024.png"))
        #expect(last.width == 120 && last.height == 80)
    }

    @Test func checkPassesOnFreshGoldensAndCatchesAPerturbedPixel() throws {
        let (folder, scene) = try blessed(golden: "golden: {frames: [0, last], tolerance: {channel: 8, pixels: 0%}}")
        defer { folder.remove() }
        let failures = folder.file("failures")
        let check = ["golden", "check", scene, "--output", failures]
        #expect(kinetic(check) == 0)

        // One pixel of the last golden frame 40 levels darker: over the channel tolerance,
        // and with no pixel allowed to differ the frame mismatches.
        let golden = folder.file("golden/square/frame-0024.png")
        var image = try PNGReader.read(golden)
        let p = image.rgba(x: 7, y: 7)
        setPixel(&image, 7, 7, r: p.r - 40, g: p.g, b: p.b)
        try PNGWriter.write(image, to: golden)
        #expect(kinetic(check) == 1)

        // The picture: actual | expected | diff, each 120×80, 4 px apart.
        let picture = try PNGReader.read(folder.file("failures/square/frame-0024.png"))
        #expect(picture.width == 3 * 120 + 2 * ImageComparison.panelGap && picture.height == 80)
        #expect(!FileManager.default.fileExists(atPath: folder.file("failures/square/frame-0000.png")))

        // Re-blessing makes the check pass again and clears the stale picture.
        #expect(kinetic(["golden", "update", scene]) == 0)
        #expect(kinetic(check) == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.file("failures/square/frame-0024.png")))
    }

    @Test func differencesWithinTheTolerancePass() throws {
        let (folder, scene) = try blessed(golden: "golden: {frames: [0], tolerance: {channel: 8, pixels: 1%}}")
        defer { folder.remove() }
        let golden = folder.file("golden/square/frame-0000.png")
        var image = try PNGReader.read(golden)
        // 120×80 = 9600 pixels, 1 % is 96: change 96 pixels (row 0, x < 96) far over the channel
        // tolerance, and 20 more (row 1) by only 8 levels.
        for x in 0..<96 { setPixel(&image, x, 0, r: 0, g: 0, b: 0) }
        for x in 0..<20 {
            let p = image.rgba(x: x, y: 1)
            setPixel(&image, x, 1, r: p.r - 8, g: p.g, b: p.b)
        }
        try PNGWriter.write(image, to: golden)
        let check = ["golden", "check", scene, "--output", folder.file("failures")]
        #expect(kinetic(check) == 0)
        setPixel(&image, 96, 0, r: 0, g: 0, b: 0)
        try PNGWriter.write(image, to: golden)
        #expect(kinetic(check) == 1)
    }

    @Test func aMissingGoldenImageIsAMismatch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try folder.write(slidingSquareScene(golden: ""), to: "scenes/square.yaml")
        #expect(kinetic(["golden", "check", scene, "--output", folder.file("failures")]) == 1)
        // The default golden frames are 0 and last.
        #expect(FileManager.default.fileExists(atPath: folder.file("failures/square/frame-0024.png")))
    }

    @Test func goldenDirOverridesTheDefaultFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try folder.write(slidingSquareScene(golden: "golden: {frames: [3]}"), to: "scenes/square.yaml")
        let elsewhere = folder.file("elsewhere")
        #expect(kinetic(["golden", "update", scene, "--golden-dir", elsewhere]) == 0)
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/square/frame-0003.png"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("golden")))
        #expect(kinetic(["golden", "check", scene, "--golden-dir", elsewhere, "--output", folder.file("f")]) == 0)
    }

    @Test func badAndMissingScenesHaveTheirOwnStatus() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let broken = try folder.write("kinetic: 1\nscene: {size: [10, 10], duration: 1}\nlayers: [{id: a, opacty: 1}]\n",
                                      to: "scenes/broken.yaml")
        #expect(kinetic(["golden", "check", broken]) == 65)
        #expect(kinetic(["golden", "check", folder.file("scenes/none.yaml")]) == 66)
        #expect(kinetic(["golden", "check", broken, folder.file("scenes/none.yaml")]) == 66)
    }

    @Test func defaultFolderIsGoldenBesideTheScenesFolder() {
        #expect(GoldenFrames.folder(forScene: "scenes/a.yaml", goldenDir: nil) == "golden/a")
        #expect(GoldenFrames.folder(forScene: "/p/scenes/b.json", goldenDir: nil) == "/p/golden/b")
        #expect(GoldenFrames.folder(forScene: "scenes/a.yaml", goldenDir: "g") == "g/a")
        #expect(GoldenFrames.fileName(frame: 7) == "frame-0007.png")
    }

    @Test func lastIsTheFinalFrameAndRepeatsCollapse() {
        var spec = GoldenSpec()
        spec.frames = [.last, .index(3), .index(0), .index(24), .index(30)]
        let (frames, outOfRange) = GoldenFrames.indices(spec.frames ?? [], frameCount: 25)
        #expect(frames == [0, 3, 24])
        #expect(outOfRange == [30])
    }
}
