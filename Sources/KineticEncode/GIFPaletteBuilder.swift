import KineticGeometry

/// Builds one palette for a whole animation (``GIFPaletteMode/shared(_:)``) from sample
/// frames handed over one at a time, as ffmpeg's `palettegen` counts every frame: each
/// frame goes into libimagequant's histogram and is dropped, so memory does not grow with
/// the sample.
///
/// `render` and `encode` both sample the frames at ``samplePositions(frameCount:)`` of
/// the animation, in that order, so the same frames give the same palette (and bytes).
/// Not thread-safe: add from one thread.
public final class GIFPaletteBuilder {
    /// At most this many frames are sampled. 16 evenly spaced frames of the gallery's
    /// scenes give a palette as good as all of them would (a frame adds few colours its
    /// neighbours lack) while rasterizing them again costs a fraction of the render.
    public static let maximumSamples = 16

    private let options: GIFOptions
    private let histogram: ImageQuant.Histogram
    /// Pixels in flat runs of each colour over the sample, for the exact entries.
    private var runs: [UInt32: Int] = [:]
    private var sampledPixels = 0

    /// - Throws: `.invalidOptions`, `.quantizationFailed`.
    public init(options: GIFOptions) throws(EncodeError) {
        try options.validate()
        self.options = options
        // The palette is built once for the whole animation: libimagequant's slowest,
        // most thorough search (speed 1: more K-means passes and palette trials) costs little there and gave
        // 0.04–0.4 dB more at equal or smaller size on the bench and gallery scenes
        // (rope 55.17 against 54.76 dB); frames are still remapped at `options.speed`.
        var settings = options.quantizerSettings
        settings.speed = 1
        histogram = try ImageQuant.Histogram(settings: settings)
    }

    /// Which of `frameCount` frames (positions 0…frameCount − 1) the palette is built
    /// from: the first and last and evenly spaced ones between, at most
    /// ``maximumSamples``, ascending.
    public static func samplePositions(frameCount: Int) -> [Int] {
        guard frameCount > 0 else { return [] }
        let count = min(frameCount, maximumSamples)
        guard count > 1 else { return [0] }
        return (0..<count).map { ($0 * (frameCount - 1) + (count - 1) / 2) / (count - 1) }
    }

    /// What a sample frame adds: its straight colours (alpha ignored: shared palettes are
    /// for opaque GIFs), every second pixel of every second row of a large frame as for a
    /// frame's own palette, and its flat runs. Pure: sample frames in parallel, then
    /// ``add(_:)`` them in order.
    public struct Sample: Sendable {
        let rgba: [UInt8]
        let width: Int, height: Int
        let runs: [UInt32: Int]
    }

    public static func sample(_ frame: PixelImage) -> Sample {
        let whole = GIFRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let rgba = GIFFramePreparer.straightPixels(frame, in: whole, previous: nil, keepAlpha: false)
        let sample = GIFFramePreparer.paletteSample(rgba, width: frame.width, height: frame.height)
        return Sample(rgba: sample.rgba, width: sample.width, height: sample.height,
                      runs: GIFFramePreparer.flatRuns(sample.rgba, width: sample.width))
    }

    /// Counts a sample frame's colours.
    /// - Throws: `.invalidImage` for an empty frame, `.quantizationFailed`.
    public func add(_ sample: Sample) throws(EncodeError) {
        guard sample.width > 0, sample.height > 0 else { throw .invalidImage(reason: "an empty frame has no colours") }
        for (word, count) in sample.runs { runs[word, default: 0] += count }
        sampledPixels += sample.width * sample.height
        try histogram.add(rgba: sample.rgba, width: sample.width, height: sample.height)
    }

    /// The palette of everything added: at most ``GIFOptions/colors`` − 1 colours (one
    /// table entry stays for the transparent index), with the flat colours that cover
    /// the most of the sample kept exact (see ``GIFFramePreparer/dominantColors(_:width:)``).
    /// - Throws: `.invalidImage` when nothing was added, `.quantizationFailed`.
    public func palette() throws(EncodeError) -> GIFPalette {
        guard sampledPixels > 0 else { throw .invalidImage(reason: "no frames to build a palette from") }
        for entry in GIFFramePreparer.dominantColors(runs: runs, pixelCount: sampledPixels).prefix(options.maximumFixedColors) {
            try histogram.addFixed(entry)
        }
        let entries = try histogram.palette()
        return try GIFPalette(colors: entries.map { GIFColor(red: $0.r, green: $0.g, blue: $0.b) })
    }
}
