import Foundation
import KineticEncode
import KineticGeometry

extension FrameSequence {
    /// Encodes the frames as an animation at `path` (`kinetic encode`) at `fps`, with
    /// render's encoders and `options`' settings: the frames of a whole scene encode to the
    /// bytes `render` writes directly. The animation keeps transparency when some frame
    /// has an alpha channel.
    ///
    /// - Throws: `EncodeError` for a frame that cannot be read or is of another size, or an
    ///   output that cannot be written.
    package func encode(to path: String, format: AnimationFormat, fps: Double, options: OutputOptions) throws {
        var settings = options.animationSettings(fps: fps)
        settings.transparent = hasAlpha
        settings.jobs = options.jobs
        let jobs = options.jobs, showsProgress = options.showsProgress
        let sequence = self
        try AnimationOutput.write(frameCount: indices.count, width: width, height: height,
                                  to: path, format: format, settings: settings, sample: { positions, _, prepare, add in
            try FrameStream(frames: positions.map { sequence.indices[$0] }, jobs: jobs,
                            progress: Progress(total: positions.count, enabled: false)).run(sources: { chunk in
                chunk.map { i in .draw { try sequence.image(i) } }
            }, encode: { frame, _, _ in prepare(frame) }, consume: { _, sample in try add(sample) })
        }) { prepare, write in
            let progress = Progress(total: sequence.indices.count, enabled: showsProgress && isatty(2) != 0)
            defer { progress.finish() }
            // Each frame decoded by the worker that encodes it.
            try FrameStream(frames: sequence.indices, jobs: jobs, progress: progress).run(sources: { chunk in
                chunk.map { i in .draw { try sequence.image(i) } }
            }, encode: prepare, consume: { _, prepared in try write(prepared) })
        }
    }

    /// Frame `index`'s pixels, checked against the size the first frame's header promised.
    private func image(_ index: Int) throws -> PixelImage {
        let path = path(index)
        let image = try PNGReader.read(path, maxPixels: width * height)
        guard image.width == width, image.height == height else {
            throw EncodeError.invalidImage(reason: "\(path) is \(image.width)×\(image.height), the others \(width)×\(height)")
        }
        return image
    }
}
