import ArgumentParser
import Foundation
import Kinetic

/// `kinetic golden check|update [SCENE…]`: golden-image regression. What both subcommands
/// share is here; `check` is in GoldenCheck.swift, `update` in GoldenUpdate.swift.
struct GoldenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "golden",
        abstract: "Compare scenes' goldens (frames and every frame's state) with fresh renders, or re-bless them.",
        discussion: """
        Each scene's `golden:` block lists frames (`last` is the final one; without a list, \
        frames spread over the timeline: first, last, each animation's begin and end, and enough \
        between that none passes unseen), the scale they are rendered at (default 1, whatever \
        the scene's scale), a tolerance, `state` (default true: the presentation state of every \
        frame is a golden too) and `filmstrip` (default false: a grid of every frame, small). \
        Goldens live in golden/NAME/ beside scenes/NAME.yaml: frame-NNNN.png, state.jsonl, \
        filmstrip.png (docs/golden.md).

        Examples:
          kinetic golden check                        # every scenes/*.yaml of this folder
          kinetic golden check scenes/download-button.yaml --output /tmp/failures
          kinetic golden check --junit build/golden.xml --html build/golden-report
          kinetic golden update scenes/download-button.yaml
        """,
        subcommands: [Check.self, Update.self])

    /// What both subcommands take.
    struct Options: ParsableArguments {
        @Argument(help: "Scene files (default: every scenes/*.yaml of the current folder).")
        var scenes: [String] = []

        @Option(help: ArgumentHelp("Goldens are read from DIR/NAME/ (default: golden/ beside each scene's folder).",
                                   valueName: "DIR"))
        var goldenDir: String?

        @OptionGroup var jobOptions: JobOptions
        var jobs: Int { jobOptions.jobs }

        @OptionGroup var limitOptions: LimitOptions

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

        /// Loads the scene at `path` and renders its goldens in one run of its frames
        /// (``GoldenRun``): the golden frames at `golden.scale`, the filmstrip and the state.
        /// Problems are printed; the error thrown is the exit status.
        func renderGoldens(_ path: String) throws -> RenderedGoldens {
            let scene = try SceneLoading.load(path, limits: limitOptions.limits)
            let (indices, outOfRange) = GoldenFrames.indices(scene.model)
            if !outOfRange.isEmpty {
                Terminal.error("\(path): golden frames \(outOfRange.map(String.init).joined(separator: ", ")) are outside 0…\(scene.frameCount - 1)")
                throw ExitStatus.dataError
            }
            let folder = GoldenFrames.folder(forScene: path, goldenDir: goldenDir)
            let root = limitOptions.allowAnyPath ? nil : GoldenFrames.root(forScene: path, goldenDir: goldenDir)
            if let root {
                // The folder (or, before the first update, its parent) must resolve inside the root.
                if let reason = GoldenFrames.linkProblem(folder: folder, root: root) {
                    Terminal.error("\(folder): \(reason): goldens resolve inside \(root); pass --allow-any-path to trust the link")
                    throw ExitStatus.dataError
                }
            }
            do {
                return try RenderedGoldens(scene: scene, path: path, frames: indices, folder: folder, root: root,
                                           limits: limitOptions.limits, jobs: jobs)
            } catch let error as SceneRenderError {
                Terminal.error("\(path): \(error)")
                throw ExitCode(error.exitCode)
            } catch {
                throw SceneLoading.exit(for: error, scene: path)
            }
        }

        /// Renders each scene's goldens in turn and hands them to `body`. A scene that
        /// cannot be rendered is skipped (the other scenes are still done) and handed to
        /// `skipped` with its path and exit status; the worst of those is returned.
        func forEachScene(_ body: (RenderedGoldens) throws -> Void,
                          skipped: (String, ExitCode) -> Void = { _, _ in }) throws -> ExitCode? {
            var status: ExitCode?
            for path in try scenePaths() {
                let rendered: RenderedGoldens
                do { rendered = try renderGoldens(path) } catch let code as ExitCode {
                    status = GoldenCommand.worst(status, code)
                    skipped(path, code)
                    continue
                }
                try body(rendered)
            }
            return status
        }
    }

    /// The status of a run with several outcomes (``GoldenStatus/worst(_:_:)``).
    static func worst(_ a: ExitCode?, _ b: ExitCode) -> ExitCode {
        ExitCode(GoldenStatus.worst(a?.rawValue, b.rawValue))
    }
}
