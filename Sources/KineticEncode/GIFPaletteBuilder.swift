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
    /// (Every frame's changed pixels instead, up to 512 frames, took replicator-grid,
    /// replicator-pulse and collision-fade above ffmpeg's PSNR but cost flow-menu 5.8 dB,
    /// the bench scene 4.1 and fireworks-button 3.7, and doubled the CPU: issue 15.)
    public static let maximumSamples = 16

    /// Between two consecutive samples whose flat colours differ in more than this share
    /// of their pixels, every frame is counted too (see ``extraSamplePositions(between:)``).
    static let changingColorsShare = 0.01
    /// At most this many frames are counted besides the samples; with a palette of few
    /// colours (half the table left), at most ``maximumExtraSamplesFewColors``.
    public static let maximumExtraSamples = 64
    /// elasticity (200 frames): 64 counted gave −13.8 dB against ffmpeg, 184 −9.4 dB.
    public static let maximumExtraSamplesFewColors = 256

    private let options: GIFOptions
    private let histogram: ImageQuant.Histogram
    /// Pixels in flat runs of each colour over the sample, for the exact entries.
    private var runs: [UInt32: Int] = [:]
    /// Every sampled pixel's exact colour, for the entries libimagequant leaves unused.
    private var counts = ColorCounts(slots: 2 * ColorCounts.capacity)
    private var sampledPixels = 0
    /// The sample added last: its colours and flat runs, and its pixels.
    private var previous: (colors: Set<UInt32>, runs: [UInt32: Int], pixels: Int)?
    /// For each pair of consecutive samples, the share of their pixels in flat runs of a
    /// colour the other lacks.
    private(set) var changedShares: [Double] = []
    /// libimagequant's colours, once quantized.
    private var quantized: [GIFColor]?

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
    /// frame's own palette, its flat runs and exact colour counts. Pure: sample frames in
    /// parallel, then ``add(_:)`` them in order.
    public struct Sample: Sendable {
        let rgba: [UInt8]
        let width: Int, height: Int
        let runs: [UInt32: Int]
        let colors: [(word: UInt32, count: Int)]
        /// Pixels sampled.
        let pixels: Int
    }

    public static func sample(_ frame: PixelImage) -> Sample {
        let whole = GIFRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let rgba = GIFFramePreparer.straightPixels(frame, in: whole, previous: nil, keepAlpha: false)
        let sample = GIFFramePreparer.paletteSample(rgba, width: frame.width, height: frame.height)
        let (colors, pixels) = ColorCounts.counted(sample.rgba)
        return Sample(rgba: sample.rgba, width: sample.width, height: sample.height,
                      runs: GIFFramePreparer.flatRuns(sample.rgba, width: sample.width),
                      colors: colors, pixels: pixels)
    }

    /// Counts a sample frame's colours; every sample comes before
    /// ``extraSamplePositions(between:)`` and ``palette()``, which quantize them.
    /// - Throws: `.invalidImage` for an empty frame, `.quantizationFailed`.
    public func add(_ sample: Sample) throws(EncodeError) {
        precondition(quantized == nil, "samples are added before the palette is made")
        guard sample.width > 0, sample.height > 0 else { throw .invalidImage(reason: "an empty frame has no colours") }
        for (word, count) in sample.runs { runs[word, default: 0] += count }
        for (word, count) in sample.colors { counts.add(word, count) }
        sampledPixels += sample.pixels
        noteChange(sample)
        try histogram.add(rgba: sample.rgba, width: sample.width, height: sample.height)
    }

    /// Notes how much `sample`'s flat colours differ from the previous sample's: a flat
    /// colour that one of them lacks (a fading square's tint) is a colour the frames
    /// between them are likely to hold in other shades, which no sample has.
    private func noteChange(_ sample: Sample) {
        let colors = Set(sample.colors.lazy.map(\.word))
        if let previous {
            var changed = 0
            for (word, count) in sample.runs where !previous.colors.contains(word) { changed += count }
            for (word, count) in previous.runs where !colors.contains(word) { changed += count }
            changedShares.append(Double(changed) / Double(max(1, previous.pixels + sample.pixels)))
        }
        previous = (colors, sample.runs, sample.pixels)
    }

    /// The frames worth counting besides the samples, at `positions` (the frames added, in
    /// order): every frame between two consecutive samples whose flat colours differ
    /// (in more than 1 % of their pixels), or between any two when libimagequant left half
    /// the table or more, at most ``maximumExtraSamples`` (or
    /// ``maximumExtraSamplesFewColors`` in the second case) spread evenly over them,
    /// ascending — but none unless it left a quarter of the table or more, since these
    /// frames' colours only go to the entries it leaves (see ``palette()``). Add them with
    /// ``addColors(_:)``.
    ///
    /// 16 samples of replicator-grid (9 dots fading in and out, 50 frames) and of
    /// replicator-pulse (rings, 100 frames) missed the tints of the frames between
    /// them: with the frames between differing samples counted (34 and 64 of them),
    /// replicator-grid went from 77.4 to 83.9 dB (ffmpeg 80.6) and replicator-pulse from
    /// 62.0 to 67.7 dB (ffmpeg 61.8), both slightly smaller, for at most 0.2 s more CPU.
    /// Scenes of many colours fill libimagequant's table and rasterize nothing more
    /// (issue 15). Scenes of few colours whose bodies move between samples that agree
    /// in their flat colours (the dynamics demos) lacked their antialiased edges: with
    /// every gap counted (up to 256 frames), two-views-collide went from −12.3 to +0.3 dB
    /// against ffmpeg, jump-star from −6.9 to +1.0, gravity-angle from −19.3 to −14.3,
    /// elasticity from −12.6 to −9.4, collision-fade from +8.2 to +7.1.
    /// - Throws: `.invalidImage` when nothing was added, `.quantizationFailed`.
    public func extraSamplePositions(between positions: [Int]) throws(EncodeError) -> [Int] {
        guard let room = try spareEntries(), positions.count == changedShares.count + 1 else { return [] }
        // A palette of few colours (half the table left) may lack the antialiased edges of
        // bodies that moved between samples whose flat colours agree: every gap counts.
        let fewColors = room * 2 >= options.colors - 1
        var between: [Int] = []
        for (i, share) in changedShares.enumerated() where fewColors || share > Self.changingColorsShare {
            between += (positions[i] + 1)..<max(positions[i] + 1, positions[i + 1])
        }
        let m = fewColors ? Self.maximumExtraSamplesFewColors : Self.maximumExtraSamples
        guard between.count > m else { return between }
        let n = between.count
        return (0..<m).map { between[($0 * n + n / 2) / m] }
    }

    /// Counts a frame's exact colours for the entries libimagequant leaves, after
    /// ``extraSamplePositions(between:)``; libimagequant's histogram is not changed.
    public func addColors(_ sample: Sample) {
        for (word, count) in sample.colors { counts.add(word, count) }
    }

    /// libimagequant's palette of the samples (made once), the fixed flat colours in it.
    private func quantizedColors() throws(EncodeError) -> [GIFColor] {
        if let quantized { return quantized }
        guard sampledPixels > 0 else { throw .invalidImage(reason: "no frames to build a palette from") }
        for entry in GIFFramePreparer.dominantColors(runs: runs, pixelCount: sampledPixels).prefix(options.maximumFixedColors) {
            try histogram.addFixed(entry)
        }
        var colors: [GIFColor] = []
        var seen = Set<GIFColor>()
        for entry in try histogram.palette() {
            let color = GIFColor(red: entry.r, green: entry.g, blue: entry.b)
            if seen.insert(color).inserted { colors.append(color) }
        }
        quantized = colors
        return colors
    }

    /// The palette of everything added: at most ``GIFOptions/colors`` − 1 colours (one
    /// table entry stays for the transparent index), with the flat colours that cover
    /// the most of the sample kept exact (see ``GIFFramePreparer/dominantColors(_:width:)``).
    ///
    /// libimagequant stops adding colours once its error is below its floor (a target of
    /// (1/1024)² in its own units, whatever the quality asked): on scenes of a few flat
    /// colours and their antialiased edges it used 59–161 of 255 entries, and the edges
    /// erred where ffmpeg's palette of every colour held them exactly (liquid-loader
    /// 75.0 dB against ffmpeg's 82.9, issue 15). The entries it leaves go to the sampled
    /// colours that err most (pixels × squared distance to the nearest entry), one at a
    /// time, until the table is full or every sampled colour is in it — when at least a
    /// quarter of the table is left (a scene of few colours).
    /// - Throws: `.invalidImage` when nothing was added, `.quantizationFailed`.
    public func palette() throws(EncodeError) -> GIFPalette {
        var colors = try quantizedColors()
        if let room = try spareEntries() { colors += counts.worstMatched(by: colors, adding: room) }
        return try GIFPalette(colors: colors)
    }

    /// The table entries libimagequant's palette leaves, when they are to be filled: a
    /// quarter of the table or more (snow's 230 of 255 grew 4.6 % filled, for 0.75 dB it
    /// did not need); nil otherwise.
    private func spareEntries() throws(EncodeError) -> Int? {
        let room = options.colors - 1 - (try quantizedColors()).count
        return room * 4 >= options.colors - 1 ? room : nil
    }
}

/// Exact colour counts of opaque straight RGBA pixels (keyed by the pixel's native 4-byte
/// word), in an open-addressing table of a fixed number of slots: once it holds
/// ``capacity`` colours, new ones are not counted (a scene of that many colours fills
/// libimagequant's palette anyway, and only leftover entries are chosen from these).
struct ColorCounts {
    static let capacity = 1 << 16
    private var keys: [UInt32]
    private var counts: [Int]
    private(set) var count = 0

    /// `slots` (a power of two) bounds the colours held to half of it.
    init(slots: Int) {
        precondition(slots > 0 && slots & (slots - 1) == 0)
        keys = [UInt32](repeating: 0, count: slots)
        counts = [Int](repeating: 0, count: slots)
    }

    /// The distinct colours of `rgba`'s opaque pixels with their pixel counts, in
    /// first-seen order (at most ``capacity``), and how many opaque pixels it has.
    static func counted(_ rgba: [UInt8]) -> (colors: [(word: UInt32, count: Int)], pixels: Int) {
        var slots = 16
        while slots < min(rgba.count / 4, capacity) * 2 { slots *= 2 }
        var table = ColorCounts(slots: slots)
        var order: [UInt32] = []
        var pixels = 0
        rgba.withUnsafeBytes { p in
            var i = 0
            let n = rgba.count / 4
            while i < n {
                let word = p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                var next = i + 1
                // Runs of one colour (flat areas) are counted at once.
                while next < n, p.loadUnaligned(fromByteOffset: next * 4, as: UInt32.self) == word { next += 1 }
                if word >> 24 == 255 {
                    pixels += next - i
                    if table.add(word, next - i) { order.append(word) }
                }
                i = next
            }
        }
        return (order.map { ($0, table.counts[table.slot($0)]) }, pixels)
    }

    /// Whether `rgba`'s opaque pixels hold at most `limit` distinct colours;
    /// stops counting at the first colour past it.
    static func hasAtMost(_ limit: Int, colorsIn rgba: [UInt8]) -> Bool {
        var slots = 16
        while slots < 2 * (limit + 1) { slots *= 2 }
        var table = ColorCounts(slots: slots)
        return rgba.withUnsafeBytes { p in
            var previous: UInt32 = 0
            for i in 0..<(rgba.count / 4) {
                let word = p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                guard word != previous, word >> 24 == 255 else { continue }
                previous = word
                if table.add(word, 1), table.count > limit { return false }
            }
            return true
        }
    }

    /// Adds `count` pixels of colour `word` (opaque: never 0); true when the colour is new.
    @discardableResult
    mutating func add(_ word: UInt32, _ count: Int) -> Bool {
        let i = slot(word)
        if keys[i] == word {
            counts[i] += count
            return false
        }
        guard self.count < keys.count / 2 else { return false }
        keys[i] = word
        counts[i] = count
        self.count += 1
        return true
    }

    /// The slot holding `word`, or the empty one where it would go.
    private func slot(_ word: UInt32) -> Int {
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: (word &* 0x9E37_79B1) >> 15) & mask
        while keys[i] != 0, keys[i] != word { i = (i + 1) & mask }
        return i
    }

    /// Up to `room` counted colours not in `palette`, chosen one at a time as the colour
    /// whose pixels err most against the palette so far (pixels × squared RGB distance
    /// to the nearest entry); none once every counted colour is matched exactly.
    func worstMatched(by palette: [GIFColor], adding room: Int) -> [GIFColor] {
        guard room > 0 else { return [] }
        var words: [UInt32] = [], weights: [Int] = []
        for (i, key) in keys.enumerated() where key != 0 {
            words.append(key)
            weights.append(counts[i])
        }
        func rgb(_ word: UInt32) -> (Int, Int, Int) { (Int(word & 0xFF), Int(word >> 8 & 0xFF), Int(word >> 16 & 0xFF)) }
        func distance(_ a: (Int, Int, Int), _ c: GIFColor) -> Int {
            let r = a.0 - Int(c.red), g = a.1 - Int(c.green), b = a.2 - Int(c.blue)
            return r * r + g * g + b * b
        }
        var nearest = words.map { word in
            let c = rgb(word)
            return palette.reduce(Int.max) { min($0, distance(c, $1)) }
        }
        var added: [GIFColor] = []
        while added.count < room {
            var best = -1, bestError = 0
            for i in words.indices {
                let error = nearest[i] == Int.max ? Int.max : weights[i] * nearest[i]
                // Ties go to the smaller word: the table's order must not choose.
                if error > bestError || (error == bestError && error > 0 && words[i] < words[best]) {
                    best = i; bestError = error
                }
            }
            guard best >= 0 else { break }
            let c = rgb(words[best])
            let color = GIFColor(red: UInt8(c.0), green: UInt8(c.1), blue: UInt8(c.2))
            added.append(color)
            for i in words.indices { nearest[i] = min(nearest[i], distance(rgb(words[i]), color)) }
        }
        return added
    }
}
