@testable import KineticCLI
import Foundation
import Kinetic
import KineticEncode
import KineticGeometry
import KineticScene
import Testing

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
        // Beside scenes/: golden/square/, frames 0, 10 and 24 (25 frames), 120×80 at scale 1,
        // and the state of every frame.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.file("golden/square")).sorted()
        #expect(names == ["frame-0000.png", "frame-0010.png", "frame-0024.png", "state.jsonl"])
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
        // Without golden.frames the spread frames include the last one.
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

    // MARK: Spread frames

    private func scene(_ yaml: String) throws -> KineticScene.Scene { try SceneLoader.load(text: yaml, file: "t.yaml") }

    @Test func withoutFramesTheyAreSpreadOverTheTimeline() throws {
        // 25 frames; the one animation lasts 0.4 s = 20 frames, begins at 0 and ends at
        // frame 20. Steps: no longer than a quarter of the 24 frames (6): 0, 6, 12, 18, 24,
        // plus the end frame 20.
        let square = try scene(slidingSquareScene(golden: ""))
        #expect(GoldenFrames.indices(square).frames == [0, 6, 12, 18, 20, 24])
        // Listed frames win.
        #expect(GoldenFrames.indices(try scene(slidingSquareScene(golden: "golden: {frames: [3, last]}"))).frames == [3, 24])
    }

    @Test func noAnimationStartsAndEndsBetweenTwoSpreadFrames() throws {
        // Animations of every length from 2 frames up, begun anywhere: each one's active
        // span [begin, end) holds a spread frame, and so does its begin.
        for (begin, duration) in [(0.13, 0.04), (0.5, 0.07), (1.31, 0.2), (2.02, 0.05), (0.0, 3.0)] {
            let yaml = """
                kinetic: 1
                scene: {size: [40, 40], fps: 50, duration: 3}
                layers: [{id: a, bounds: [4, 4]}, {id: b, bounds: [4, 4]}]
                animations:
                  - {layer: a, keyPath: opacity, from: 0, to: 1, begin: \(begin), duration: \(duration)}
                  - {layer: b, keyPath: opacity, from: 0, to: 1, begin: 0.9, duration: 0.3}
                """
            let frames = GoldenFrames.indices(try scene(yaml)).frames
            for (b, d) in [(begin, duration), (0.9, 0.3)] {
                let span: Range<Double> = (b * 50)..<((b + d) * 50)
                let seen = frames.contains { (f: Int) -> Bool in span.contains(Double(f)) }
                #expect(seen, "\(b) + \(d): \(frames)")
            }
            #expect(frames.first == 0 && frames.last == 149)
            // The shortest animation (≥ 2 frames) bounds the steps; at most 32 of them.
            let steps: [Int] = zip(frames, frames.dropFirst()).map { (a: Int, b: Int) -> Int in b - a }
            let bound: Int = max(Int(149.0 / 32), Int(min(149.0 / 4, duration * 50)))
            #expect((steps.max() ?? 0) <= bound)
        }
    }

    // MARK: Settings

    @Test func stateAndFilmstripAreGoldenSettings() throws {
        let defaults = try scene(slidingSquareScene(golden: "")).golden
        #expect(defaults.state && !defaults.filmstrip && defaults.frames == nil)
        let set = try scene(slidingSquareScene(golden: "golden: {state: false, filmstrip: true}")).golden
        #expect(!set.state && set.filmstrip)
        do {
            _ = try scene(slidingSquareScene(golden: "golden: {state: maybe}"))
            Issue.record("a bad state setting was accepted")
        } catch let error as SceneLoadError {
            #expect(error.problems.map(\.description) == ["t.yaml:10:17: golden.state: expected true or false, found 'maybe'"])
        }
    }

    @Test func stateOffWritesAndChecksNoStateFile() throws {
        let (folder, scene) = try blessed(golden: "golden: {frames: [0], state: false}")
        defer { folder.remove() }
        #expect(!FileManager.default.fileExists(atPath: folder.file("golden/square/state.jsonl")))
        #expect(kinetic(["golden", "check", scene, "--output", folder.file("f")]) == 0)
    }

    @Test func theStateGoldenCatchesAMoveBetweenGoldenFrames() throws {
        // Only frame 0 is a picture; the state sees the square arrive elsewhere.
        let (folder, scene) = try blessed(golden: "golden: {frames: [0]}")
        defer { folder.remove() }
        #expect(FileManager.default.fileExists(atPath: folder.file("golden/square/state.jsonl")))
        let check = ["golden", "check", scene, "--output", folder.file("f")]
        #expect(kinetic(check) == 0)
        try folder.write(slidingSquareScene(golden: "golden: {frames: [0]}").replacingOccurrences(of: "to: 60", with: "to: 61"),
                         to: "scenes/square.yaml")
        #expect(kinetic(check) == 1)
    }

    @Test func theFilmstripIsEveryFrameInAGridComparedLikeAFrame() throws {
        let (folder, scene) = try blessed(golden: "golden: {frames: [0], filmstrip: true}")
        defer { folder.remove() }
        let path = folder.file("golden/square/filmstrip.png")
        var strip = try PNGReader.read(path)
        // 25 frames, 10 to a row: 3 rows of cells 80 px wide (the 120-point-wide scene at
        // 80/120 px per point), 8 px apart and around, as ContactSheet lays them out.
        #expect(strip.width == 8 + 10 * (80 + 8))
        let check = ["golden", "check", scene, "--output", folder.file("f")]
        #expect(kinetic(check) == 0)
        setPixel(&strip, 20, 20, r: 0, g: 0, b: 0)
        try PNGWriter.write(strip, to: path)
        #expect(kinetic(check) == 1)
        #expect(FileManager.default.fileExists(atPath: folder.file("f/square/filmstrip.png")))
    }

    // MARK: The gallery's budget

    /// docs/golden.md: the gallery's state files stay under 2 MB in all, none over 256 kB,
    /// and every scene with a state golden has its file.
    @Test func theGalleryStateFilesKeepToTheirBudget() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scenes = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("scenes").path)
            .filter { $0.hasSuffix(".yaml") }
        #expect(scenes.count > 30)
        var total = 0
        for name in scenes {
            let scene = try SceneLoader.load(path: root.appendingPathComponent("scenes/" + name).path)
            let file = root.appendingPathComponent("golden/\(GoldenFrames.sceneName(name))/state.jsonl").path
            guard scene.golden.state else { continue }
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, "\(file)")
            #expect(size <= 256_000, "\(file): \(size) bytes")
            total += size
        }
        #expect(total <= 2_000_000, "\(total) bytes")
    }
}
