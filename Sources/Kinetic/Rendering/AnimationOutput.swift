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
    package static func write(frameCount: Int, width: Int, height: Int, to path: String, format: AnimationFormat,
                      settings: AnimationSettings,
                      sample: (_ positions: [Int], _ pass: PalettePass, _ prepare: @escaping Sample,
                               _ add: (GIFPaletteBuilder.Sample) throws -> Void) throws -> Void,
                      stream: (_ prepare: @escaping Prepare, _ write: (PreparedAnimationFrame) throws -> Void) throws -> Void) throws {
        var settings = settings
        if format == .gif, !settings.transparent {
            let builder = try GIFPaletteBuilder(options: settings.gifOptions)
            let positions = GIFPaletteBuilder.samplePositions(frameCount: frameCount)
            try sample(positions, .samples, { GIFPaletteBuilder.sample($0) }, { try builder.add($0) })
            // A second pass over the frames between the samples the builder asks for.
            let extra = builder.extraSamplePositions(between: positions)
            if !extra.isEmpty, builder.extraFramesAreSamples {
                try sample(extra, .samplesBetween, { GIFPaletteBuilder.sample($0) }, { try builder.add($0) })
            } else if !extra.isEmpty {
                try sample(extra, .colorsBetween, { GIFPaletteBuilder.colors($0) }, { builder.addColors($0) })
            }
            settings.gifPalette = try builder.palette()
        }
        let writer = try AnimationWriter(path: path, format: format, width: width, height: height,
                                         frameCount: frameCount, settings: settings)
        let preparer = writer.preparer
        do {
            try stream({ frame, previous, change in try preparer.prepare(frame, previous: previous, change: change) },
                       { prepared in try writer.write(prepared) })
            try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
    }
}
