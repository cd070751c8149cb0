import Foundation

extension Scene {
    /// Writes the scene to `url` in the format its extension names, as `kinetic render
    /// SCENE -o FILE` does, with the same bytes.
    ///
    /// | `url` | writes |
    /// | --- | --- |
    /// | `.gif` | an animated GIF |
    /// | `.apng`, or `.png` with ``OutputOptions/writesAnimatedPNG`` | an animated PNG |
    /// | `.webp` | an animated WebP |
    /// | `.mp4`, `.webm`, `.mov` | H.264, VP9 (with alpha) or ProRes 4444 video |
    /// | a folder (a directory URL, or no extension) | `frame-0000.png`, `frame-0001.png`, … |
    /// | a name with `%04d` | PNG frames named by the pattern |
    /// | `.png`, `.svg`, `.pdf` | the still ``OutputOptions/frame`` |
    /// | `.json` | a Lottie animation |
    /// | `.lottie` | the same Lottie in a dotLottie archive |
    ///
    /// A file appears only when complete: it is written under a temporary name and
    /// renamed. Physics and particles are simulated from the start, frame by frame.
    ///
    /// ```swift
    /// var options = OutputOptions()
    /// options.loopCount = 1
    /// try scene.write(to: URL(fileURLWithPath: "loader.gif"), options: options)
    /// ```
    ///
    /// - Parameters:
    ///   - url: A file URL; its extension picks the format.
    ///   - options: The frames and the encoder's settings.
    /// - Returns: The frames written, and what writing had to change (a frame rate
    ///   resampled for the format, say).
    /// - Throws: ``FrameRenderError`` when the extension names no format, a setting is
    ///   out of range for the format, the scene is over a limit, the simulation fails, or
    ///   the file cannot be written.
    @discardableResult
    public func write(to url: URL, options: OutputOptions = OutputOptions()) throws(FrameRenderError) -> OutputSummary {
        let path = url.hasDirectoryPath && !url.path.hasSuffix("/") ? url.path + "/" : url.path
        do {
            let target = try OutputTarget.parse(path, animated: options.writesAnimatedPNG)
            return try SceneOutput.write(model, limits: limits, to: target, options: options, warn: { _ in })
        } catch let error as FrameRenderError {
            throw error
        } catch {
            throw FrameRenderError(message: "\(error)")
        }
    }

    /// Writes frame `index` to `url` as PNG, SVG or PDF, chosen by the file extension,
    /// as `kinetic render SCENE --frame N -o FILE` does.
    ///
    /// - Throws: ``FrameRenderError`` for another extension, a frame outside the scene,
    ///   or a file that cannot be written.
    public func write(frame index: Int, to url: URL) throws(FrameRenderError) {
        guard ["png", "svg", "pdf"].contains(url.pathExtension.lowercased()) else {
            throw FrameRenderError(message: "\(url.path): a still frame is written as .png, .svg or .pdf")
        }
        var options = OutputOptions()
        options.frame = index
        try write(to: url, options: options)
    }
}
