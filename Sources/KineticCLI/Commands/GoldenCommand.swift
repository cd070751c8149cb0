import ArgumentParser
import Foundation
import KineticEncode
import KineticGeometry
import KineticScene

/// `kinetic golden check|update [SCENE…]`: golden-image regression.
struct GoldenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "golden",
        abstract: "Compare scenes' golden frames with fresh renders, or re-bless them.",
        discussion: """
        Each scene's `golden:` block lists frames (`last` is the final one), the scale
        they are rendered at (default 1, whatever the scene's scale) and a tolerance.
        Golden images live in golden/NAME/frame-NNNN.png beside scenes/NAME.yaml.

        Examples:
          kinetic golden check                        # every scenes/*.yaml of this folder
          kinetic golden check scenes/download-button.yaml --output /tmp/failures
          kinetic golden update scenes/download-button.yaml
        """,
        subcommands: [Check.self, Update.self])

    /// What both subcommands take.
    struct Options: ParsableArguments {
        @Argument(help: "Scene files (default: every scenes/*.yaml of the current folder).")
        var scenes: [String] = []

        @Option(help: ArgumentHelp("Golden images are read from DIR/NAME/ (default: golden/ beside each scene's folder).",
                                   valueName: "DIR"))
        var goldenDir: String?

        @Option(help: "Worker threads for rasterizing frames.")
        var jobs = ProcessInfo.processInfo.activeProcessorCount

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        }

        /// The scenes named, or every `scenes/*.yaml` of the current folder in name order.
        func scenePaths() throws -> [String] {
            if !scenes.isEmpty { return scenes }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: "scenes") else {
                Terminal.error("no scenes given and no scenes/ folder here")
                throw ExitStatus.noInput
            }
            let yaml = names.filter { $0.hasSuffix(".yaml") }.sorted()
            guard !yaml.isEmpty else {
                Terminal.error("no scenes given and no .yaml file in scenes/")
                throw ExitStatus.noInput
            }
            return yaml.map { "scenes/" + $0 }
        }

        /// Loads the scene at `path` and renders its golden frames at `golden.scale`.
        /// Problems are printed; the error thrown is the exit status (65 or 66).
        func renderGoldenFrames(_ path: String) throws -> (scene: Scene, frames: [(index: Int, image: PixelImage)]) {
            var scene = try SceneLoading.load(path, limits: limitOptions.limits)
            scene.settings.scale = scene.golden.scale
            let (indices, outOfRange) = GoldenFrames.indices(scene.golden, frameCount: scene.frameCount)
            if !outOfRange.isEmpty {
                Terminal.error("\(path): golden frames \(outOfRange.map(String.init).joined(separator: ", ")) are outside 0…\(scene.frameCount - 1)")
                throw ExitStatus.dataError
            }
            do {
                let renderer = try SceneRenderer(scene: scene, limits: limitOptions.limits, jobs: jobs, showsProgress: false)
                return (scene, try renderer.images(frames: indices))
            } catch let error as SceneRenderError {
                Terminal.error("\(path): \(error)")
                throw ExitCode(error.exitCode)
            }
        }

        /// One scene's golden frames as rendered now, and where its golden images live.
        struct RenderedScene {
            var scene: Scene
            var frames: [(index: Int, image: PixelImage)]
            /// The scene's name (its file name without extension).
            var name: String
            /// `golden/NAME`.
            var folder: String

            /// `NAME frame NNNN`, how the reports name a frame.
            func label(_ index: Int) -> String { "\(name) frame \(String(format: "%04d", index))" }
        }

        /// Renders each scene's golden frames in turn and hands them to `body`. A scene that
        /// cannot be rendered is skipped (the other scenes are still done); the worst exit
        /// status of those skipped is returned.
        func forEachScene(_ body: (RenderedScene) throws -> Void) throws -> ExitCode? {
            var status: ExitCode?
            for path in try scenePaths() {
                let rendered: (scene: Scene, frames: [(index: Int, image: PixelImage)])
                do { rendered = try renderGoldenFrames(path) } catch let code as ExitCode {
                    status = GoldenCommand.worst(status, code)
                    continue
                }
                try body(RenderedScene(scene: rendered.scene, frames: rendered.frames, name: GoldenFrames.sceneName(path),
                                       folder: GoldenFrames.folder(forScene: path, goldenDir: goldenDir)))
            }
            return status
        }
    }

    /// The exit status of several scenes: a missing scene outranks an invalid one, which
    /// outranks anything else (the check could not run at all).
    static func worst(_ a: ExitCode?, _ b: ExitCode) -> ExitCode {
        let rank: [Int32: Int] = [ExitStatus.noInput.rawValue: 3, ExitStatus.dataError.rawValue: 2]
        guard let a else { return b }
        return (rank[b.rawValue] ?? 1) > (rank[a.rawValue] ?? 1) ? b : a
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Render every golden frame and compare it with its golden image.",
            discussion: """
            A pixel differs when any of its RGBA channels (un-premultiplied) is more than
            tolerance.channel away; a frame mismatches when more than tolerance.pixels of
            its pixels differ, its size differs, or its golden image is missing. One line
            per frame on stdout: the share of differing pixels, the largest channel
            difference, and SSIM (mean over 8×8 windows of Rec. 601 luma over white; 1 =
            identical). For each mismatch a PNG with the actual frame, the expected one
            and an amplified diff side by side (red: over the tolerance, blue: within it)
            is written to OUTPUT/NAME/frame-NNNN.png.

            Exit status: 0 all match, 1 a frame mismatches, 65 invalid scene, 66 missing
            scene (a scene that cannot be checked outranks a mismatch; the other scenes
            are still checked).
            """)

        @OptionGroup var options: Options

        @Option(name: [.short, .long], help: ArgumentHelp("Folder for the pictures of mismatching frames.", valueName: "DIR"))
        var output = "golden-failures"

        func run() throws {
            var status: ExitCode?
            var checked = 0, mismatched = 0
            let skipped = try options.forEachScene { rendered in
                let name = rendered.name
                let spec = rendered.scene.golden
                for (index, actual) in rendered.frames {
                    let goldenPath = GoldenFrames.join(rendered.folder, GoldenFrames.fileName(frame: index))
                    let label = rendered.label(index)
                    checked += 1
                    let expected: PixelImage?
                    let verdict: GoldenFrames.Verdict
                    switch GoldenFrames.read(goldenPath) {
                    case .success(let image):
                        expected = image
                        verdict = GoldenFrames.judge(actual, against: image, spec: spec)
                    case .failure(let error):
                        expected = nil
                        verdict = .unreadable(error)
                    }
                    let picture = GoldenFrames.join(GoldenFrames.join(output, name), GoldenFrames.fileName(frame: index))
                    let line: String
                    switch verdict {
                    case .match(let d):
                        print("\(label)  ok    \(GoldenFrames.describe(d))")
                        // A picture left by an earlier failing run would mislead.
                        try? FileManager.default.removeItem(atPath: picture)
                        continue
                    case .mismatch(let d):
                        line = "\(label)  FAIL  \(GoldenFrames.describe(d))  (over \(String(format: "%.3f", spec.pixelTolerance * 100)) % at Δ > \(spec.channelTolerance))"
                    case .sizeMismatch(let error):
                        line = "\(label)  FAIL  \(error)"
                    case .missing:
                        line = "\(label)  FAIL  no golden image \(goldenPath) (bless it with kinetic golden update)"
                    case .unreadable(let error):
                        line = "\(label)  FAIL  \(error)"
                    }
                    mismatched += 1
                    status = GoldenCommand.worst(status, ExitCode.failure)
                    do {
                        try writeFailure(actual: actual, expected: expected ?? PixelImage(width: 0, height: 0),
                                         channelTolerance: spec.channelTolerance, to: picture)
                        print("\(line)\n    actual | expected | diff → \(picture)")
                    } catch {
                        print(line)
                        Terminal.error("\(error)")
                    }
                }
            }
            if let skipped { status = GoldenCommand.worst(status, skipped) }
            print("golden check: \(checked) frames, \(mismatched) mismatched")
            if let status { throw status }
        }

        private func writeFailure(actual: PixelImage, expected: PixelImage, channelTolerance: Int, to path: String) throws {
            let diff = ImageComparison.diffImage(actual: actual, expected: expected, channelTolerance: channelTolerance)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try PNGWriter.write(ImageComparison.sideBySide([actual, expected, diff]), to: path)
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Re-render the golden frames and write them as the new golden images.",
            discussion: """
            Prints for each frame whether it is new, unchanged (the file is left alone),
            or changed and by how much (differing pixels under the scene's tolerance, the
            largest channel difference and SSIM against the old image). Files are written
            atomically. Golden images of frames no longer listed are reported, not
            deleted. Look at the changed frames before committing them.

            Exit status: 0 done, 65 invalid scene, 66 missing scene, 73 not writable.
            """)

        @OptionGroup var options: Options

        func run() throws {
            var status: ExitCode?
            let skipped = try options.forEachScene { rendered in
                let name = rendered.name, folder = rendered.folder
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    for (index, image) in rendered.frames {
                        let file = GoldenFrames.join(folder, GoldenFrames.fileName(frame: index))
                        let label = rendered.label(index)
                        let bytes = try PNGWriter.encode(image)
                        let old = FileManager.default.contents(atPath: file)
                        if let old, [UInt8](old) == bytes {
                            print("\(label)  unchanged")
                            continue
                        }
                        let change = old == nil ? "new" : describeChange(image, oldFile: file, spec: rendered.scene.golden)
                        try AtomicFile.write(bytes, to: file)
                        print("\(label)  \(change)  → \(file)")
                    }
                    let kept = Set(rendered.frames.map { GoldenFrames.fileName(frame: $0.index) })
                    let present = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                    for stale in present.sorted() where stale.hasPrefix("frame-") && stale.hasSuffix(".png") && !kept.contains(stale) {
                        print("\(name) \(stale)  stale: no longer a golden frame (delete it if it is not needed)")
                    }
                } catch {
                    Terminal.error("\(error)")
                    status = GoldenCommand.worst(status, ExitStatus.cannotCreate)
                }
            }
            if let skipped { status = GoldenCommand.worst(status, skipped) }
            if let status { throw status }
        }

        /// How the new frame differs from the golden image it replaces.
        private func describeChange(_ image: PixelImage, oldFile: String, spec: GoldenSpec) -> String {
            switch GoldenFrames.read(oldFile) {
            case .failure, .success(nil): return "changed (the old file was not a readable PNG)"
            case .success(let old?):
                switch GoldenFrames.judge(image, against: old, spec: spec) {
                case .match(let d): return "changed, within tolerance: \(GoldenFrames.describe(d))"
                case .mismatch(let d): return "changed, over tolerance: \(GoldenFrames.describe(d))"
                case .sizeMismatch(let error): return "changed size: \(error)"
                case .missing, .unreadable: return "changed"
                }
            }
        }
    }
}
