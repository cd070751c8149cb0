import Foundation

/// A scene's goldens compared with fresh renders: its golden frames, its filmstrip and
/// its state, each under the scene's tolerance (`kinetic golden check`, docs/golden.md).
public struct GoldenComparison: Sendable {
    /// One golden: a frame, the filmstrip or the state.
    public struct Result: Sendable {
        /// `frame 0007`, `filmstrip` or `state`.
        public var name: String
        /// Whether the render is within the golden's tolerance.
        public var matches: Bool
        /// What `kinetic golden check` prints after `ok` or `FAIL`: the difference, or why
        /// the golden fails (missing, another size, unreadable).
        public var message: String
    }

    /// Each golden the scene's `golden:` block asks for, frames first.
    public var results: [Result]

    /// Whether every golden matches.
    public var matches: Bool { results.allSatisfy(\.matches) }
}

extension Scene {
    /// Renders the goldens the scene's `golden:` block asks for and compares each with its
    /// file in `folder`, as `kinetic golden check` does; nothing is written.
    ///
    /// ```swift
    /// let scene = try Scene(contentsOf: URL(fileURLWithPath: "scenes/jump-star.yaml"))
    /// let comparison = try scene.compareWithGoldens(in: URL(fileURLWithPath: "golden/jump-star"))
    /// for result in comparison.results where !result.matches { print(result.name, result.message) }
    /// ```
    ///
    /// - Parameters:
    ///   - folder: The scene's golden folder (`golden/NAME`): `frame-NNNN.png`,
    ///     `filmstrip.png`, `state.jsonl`.
    ///   - jobs: The worker threads that rasterize frames.
    /// - Throws: ``FrameRenderError`` when a listed golden frame is outside the scene, or
    ///   the scene cannot be rendered (a limit, its assets, its simulation).
    public func compareWithGoldens(in folder: URL, jobs: Int = ProcessInfo.processInfo.activeProcessorCount)
        throws(FrameRenderError) -> GoldenComparison {
        let (indices, outOfRange) = GoldenFrames.indices(model)
        guard outOfRange.isEmpty else {
            throw FrameRenderError(message: "\(model.file): golden frames \(outOfRange.map(String.init).joined(separator: ", ")) "
                                   + "are outside 0…\(frameCount - 1)")
        }
        let rendered: RenderedGoldens
        do {
            rendered = try RenderedGoldens(scene: self, path: model.file, frames: indices, folder: folder.path, root: nil,
                                           limits: limits, jobs: jobs)
        } catch {
            throw FrameRenderError(message: FailureReport(error, scene: model.file).message)
        }
        var session = GoldenCheckSession(output: nil, recordMissing: false, say: { _ in }, complain: { _ in })
        for picture in rendered.pictures { session.checkPicture(picture, of: rendered) }
        if let state = rendered.state { session.checkState(state, of: rendered) }
        return GoldenComparison(results: session.cases.map {
            GoldenComparison.Result(name: $0.name, matches: $0.status == .passed, message: $0.message)
        })
    }
}
