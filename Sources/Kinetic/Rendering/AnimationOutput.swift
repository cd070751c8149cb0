import KineticEncode
import KineticGeometry

/// One animation file written from a stream of frames: the writer and its per-frame
/// preparation, shared by `render` (frames from the scene) and `encode` (from PNGs), so
/// both give the same bytes for the same pixels.
package enum AnimationOutput {
    package typealias Prepare = @Sendable (PixelImage, PixelImage?, FrameChange) throws -> PreparedAnimationFrame
    package typealias Sample = @Sendable (PixelImage) -> GIFPaletteBuilder.Sample

    /// Which frames a pass for the palette takes, and what it adds of each.
    package enum PalettePass {
        /// The samples: ``GIFPaletteBuilder/sample(_:)``.
        case samples
        /// The frames between the samples, in a scene of many colours: ``GIFPaletteBuilder/sample(_:)``.
        case samplesBetween
        /// The frames between the samples, in a scene of few colours: their colours only,
        /// which a renderer may also count from what changed between frames.
        case colorsBetween
    }

    /// Opens the writer, lets `stream` run `prepare` on worker threads and hand each
    /// result to `write` in frame order, then finishes the file; on any error the
    /// temporary file goes and the destination is untouched.
    ///
    /// An opaque GIF first gets one palette for the whole animation: `sample` is handed
    /// the positions (0 = the first frame streamed) of the frames to build it from, and
    /// runs `prepare` on each (worker threads) and `add` on the results in that order —
    /// twice when the builder asks for the frames between the samples too (the first
    /// call's positions all come first in the stream).
    ///
    /// With more than one job (`settings.jobs`) the palette is then chosen, and the writer
    /// opened, on a thread of their own while `stream` starts: its first frames are drawn
    /// meanwhile, and wait for the palette only to be prepared. Choosing it (libimagequant's
    /// slowest search) otherwise left every core but one idle: 2 % of snow's instructions
    /// (issue 42). When the samples are the only pass and there are more than two jobs,
    /// their histogram is built there too (``GIFPaletteBuilder/defersHistogram``). The
    /// bytes are the same.
    package static func write(frameCount: Int, width: Int, height: Int, to path: String, format: AnimationFormat,
                      settings: AnimationSettings,
                      sample: (_ positions: [Int], _ pass: PalettePass, _ prepare: @escaping Sample,
                               _ add: (GIFPaletteBuilder.Sample) throws -> Void) throws -> Void,
                      stream: (_ prepare: @escaping Prepare, _ write: (PreparedAnimationFrame) throws -> Void) throws -> Void) throws {
        var builder: GIFPaletteBuilder?
        if format == .gif, !settings.transparent {
            let palette = try GIFPaletteBuilder(options: settings.gifOptions)
            let positions = GIFPaletteBuilder.samplePositions(frameCount: frameCount)
            let sampler = palette.sampler
            // Held for the palette's own thread, below, unless another pass comes first.
            // Not at two jobs: no faster there (snow, 8 interleaved rounds: 0.998×), and
            // the held samples took its peak memory from 110 to 126 MB.
            palette.defersHistogram = settings.jobs > 2
            try sample(positions, .samples, { sampler.sample($0) }, { try palette.add($0) })
            // A second pass over the frames between the samples the builder asks for.
            let extra = palette.extraSamplePositions(between: positions)
            if !extra.isEmpty {
                try palette.stopDeferring()
                if palette.extraFramesAreSamples {
                    try sample(extra, .samplesBetween, { sampler.sample($0) }, { try palette.add($0) })
                } else {
                    try sample(extra, .colorsBetween, { GIFPaletteBuilder.colors($0) }, { palette.addColors($0) })
                }
            }
            builder = palette
        }
        // The builder is touched by nothing else from here on.
        let opened = BackgroundValue(inBackground: builder != nil && settings.jobs > 1) { [builder] in
            var settings = settings
            if let builder { settings.gifPalette = try builder.palette() }
            let writer = try AnimationWriter(path: path, format: format, width: width, height: height,
                                             frameCount: frameCount, settings: settings)
            return OpenedWriter(writer: writer, preparer: writer.preparer)
        }
        do {
            try stream({ frame, previous, change in
                try opened.value().preparer.prepare(frame, previous: previous, change: change)
            }, { prepared in try opened.value().writer.write(prepared) })
            try opened.value().writer.finish()
        } catch {
            // Choosing the palette or opening the file came first: its error is the one to report.
            let writer = try opened.wait().get().writer
            writer.cancel()
            throw error
        }
    }

    /// The writer of ``write(frameCount:width:height:to:format:settings:sample:stream:)``
    /// and its preparer (taken once: it is the same for every frame).
    // @unchecked: the writer is used by one thread at a time (the frame stream's consumer,
    // then the caller); the preparer is Sendable.
    private struct OpenedWriter: @unchecked Sendable {
        let writer: AnimationWriter
        let preparer: AnimationFramePreparer
    }
}
