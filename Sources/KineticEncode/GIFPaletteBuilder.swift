import KineticGeometry
import Synchronization

/// Builds one palette for a whole animation (``GIFPaletteMode/shared(_:)``) from frames
/// handed over one at a time, each counted and dropped, so memory does not grow with the
/// animation.
///
/// Two kinds of scene, told apart by the exact colours of ``maximumSamples`` sample frames:
/// - Many colours (gradients, blurs, images): libimagequant's histogram of the samples
///   makes the palette; a frame adds few colours its neighbours lack — unless two
///   consecutive samples share few colours (a menu sliding open through a blur), when
///   the frames between them are sampled too (see ``extraSamplePositions(between:)``).
/// - Few colours (at most ``exactColorLimit``: flat fills and their antialiased edges,
///   the dynamics demos): every frame between the samples is counted too, at most
///   ``maximumExtraSamples``, as ffmpeg's `palettegen` counts every frame, and the
///   palette keeps exact colours of all of them (see ``palette()``). A body moving
///   between two samples draws edges of shades no sample has: its sub-pixel position
///   blends the edge rows anew each frame (gravity-offscreen: 474 colours in its 70
///   frames, 354 in 16).
///
/// `render` and `encode` both take the frames at ``samplePositions(frameCount:)`` and
/// ``extraSamplePositions(between:)``, in that order, so the same frames give the same
/// palette (and bytes). Not thread-safe: add from one thread.
public final class GIFPaletteBuilder {
    /// At most this many frames are sampled. 16 evenly spaced frames of the gallery's
    /// scenes of many colours give a palette as good as all of them would, while
    /// rasterizing them again costs a fraction of the render. (Every frame's changed
    /// pixels instead, up to 512 frames, cost flow-menu 5.8 dB, the bench scene 4.1 and
    /// fireworks-button 3.7, and doubled the CPU: issue 15.)
    public static let maximumSamples = 16

    /// Samples holding at most this many exact colours make a scene of few colours,
    /// whose palette comes from every frame's exact colours.
    public static let exactColorLimit = 4096

    /// At most this many frames between the samples are counted in a scene of few
    /// colours (spread evenly): elasticity's 200 frames, 64 counted, gave 13.8 dB less
    /// than ffmpeg's palette of every frame (issue 15).
    public static let maximumExtraSamples = 256

    /// In a scene of many colours, the frames between two consecutive samples are
    /// sampled too when more than this share of the two samples' pixels are of colours
    /// the other lacks — in at most half of the gaps between samples. gooey-slide-menu's
    /// menu opening and closing: 48–77 % in 4 gaps of 15 (its frames there erred 5–20 a
    /// channel against ffmpeg's 1–3); every other gallery scene of many colours at most
    /// 7 % but text-cjk-emoji (24–50 % in 10 gaps) and `gif-fade` (every gap: sampling
    /// its frames between cost 3 s CPU for the same PSNR).
    static let turnoverShare = 0.2
    /// At most this many frames are sampled besides the samples of a scene of many
    /// colours, spread evenly.
    public static let maximumTurnoverSamples = 64

    private let options: GIFOptions
    /// libimagequant's histogram of the samples (every second pixel of every second row
    /// of a large frame), for a scene of many colours.
    private let histogram: ImageQuant.Histogram
    /// Samples not handed to ``histogram`` yet: while the samples hold at most
    /// ``exactColorLimit`` colours the scene may be one of few colours, whose palette is
    /// made without it. Building the histogram (libimagequant's edge and noise maps of
    /// each sample) was 9 % of the gallery batch's CPU, most of it for scenes of few
    /// colours. At most ``maximumSamples`` are held, a quarter of each large frame's
    /// pixels: 16 MB at 750 × 1334.
    private var pending: [(rgba: [UInt8], width: Int, height: Int, importance: [UInt8]?)] = []
    /// Whether ``add(_:)`` holds the samples of a scene of many colours too, for
    /// ``palette()`` to add to the histogram, in the order added (the same histogram), until
    /// ``stopDeferring()``. With more than one job ``AnimationOutput`` chooses the palette on
    /// a thread of its own while the frames pass starts; with more than two the histogram's
    /// adds (one at a time, ~8 ms a sample of a 4-megapixel frame, 0.13 s of snow's 0.80 s
    /// GIF at `--scale 4` on 16 cores, issue 42) go there too, while the first frames are
    /// drawn. At most ``maximumSamples`` are held, as for a scene of few colours.
    public var defersHistogram = false
    /// Pixels in flat runs of each colour over the samples, for the exact entries.
    private var runs: [UInt32: Int] = [:]
    /// Every counted pixel's exact colour.
    private var counts = ColorCounts(slots: 2 * ColorCounts.capacity)
    /// Pixels the samples' runs were counted over.
    private var sampledPixels = 0
    /// Whether the scene has few colours: decided once, on the samples' colours, when
    /// first asked (by ``extraSamplePositions(between:)`` or ``palette()``).
    private lazy var fewColors = !countsManyColors
    /// Whether the colours counted so far make a scene of many colours (whatever comes next).
    private var countsManyColors: Bool { counts.count > Self.exactColorLimit }
    /// The last sample's colours, and for each pair of consecutive samples the share of
    /// their pixels in colours the other lacks.
    private var previousColors: [(word: UInt32, count: Int)]?
    private(set) var turnover: [Double] = []
    /// Set once the samples make this a scene of many colours, read by the threads that
    /// make later samples (``sampler``).
    private let isOfManyColors = ManyColors()
    /// Whether the frames of ``extraSamplePositions(between:)`` are samples, for
    /// ``add(_:)`` (a scene of many colours), or counted only, for ``addColors(_:)``.
    public private(set) var extraFramesAreSamples = false

    /// - Throws: `.invalidOptions`, `.quantizationFailed`.
    public init(options: GIFOptions) throws(EncodeError) {
        try options.validate()
        self.options = options
        histogram = try ImageQuant.Histogram(settings: Self.paletteSettings(options))
    }

    /// The palette is built once for the whole animation: libimagequant's slowest, most
    /// thorough search (speed 1: more K-means passes and palette trials) costs little
    /// there and gave 0.04–0.4 dB more at equal or smaller size on the bench and gallery
    /// scenes (rope 55.17 against 54.76 dB); frames are still remapped at `options.speed`.
    private static func paletteSettings(_ options: GIFOptions) -> ImageQuant.Settings {
        var settings = options.quantizerSettings
        settings.speed = paletteSpeed
        return settings
    }

    /// libimagequant's speed for the palette (``paletteSettings(_:)``).
    static let paletteSpeed = 1

    /// Which of `frameCount` frames (positions 0…frameCount − 1) the palette is built
    /// from: the first and last and evenly spaced ones between, at most
    /// ``maximumSamples``, ascending.
    public static func samplePositions(frameCount: Int) -> [Int] {
        guard frameCount > 0 else { return [] }
        let count = min(frameCount, maximumSamples)
        guard count > 1 else { return [0] }
        return (0..<count).map { ($0 * (frameCount - 1) + (count - 1) / 2) / (count - 1) }
    }

    /// What a frame adds: its exact colours (alpha ignored: shared palettes are for
    /// opaque GIFs) and, for a sample, its straight pixels for libimagequant (every
    /// second pixel of every second row of a large frame, as for a frame's own palette),
    /// their flat runs and, where libimagequant will surely count them, their weights.
    /// Pure: make them in parallel, then add them in order.
    public struct Sample: Sendable {
        let rgba: [UInt8]
        let width: Int, height: Int
        let runs: [UInt32: Int]
        let colors: [(word: UInt32, count: Int)]
        /// The weights libimagequant's histogram gives `rgba`'s pixels
        /// (``ImageQuant/importanceMap(rgba:width:height:speed:)``), made with the sample
        /// when the frame alone has more colours than a scene of few colours, or once the
        /// samples before it made the scene one of many (so it goes to the histogram): the
        /// map was 61 % of the ordered ``add(_:)`` on snow, a worker's now (issue 42). nil
        /// otherwise: ``add(_:)`` makes it only if the scene turns out to be one of many.
        let importance: [UInt8]?
    }

    /// A sample frame, for ``add(_:)``; `weighed`: whether to make its weights whatever
    /// its own colours (the scene is known to be one of many colours).
    public static func sample(_ frame: PixelImage, weighed: Bool = false) -> Sample {
        let sample = GIFFramePreparer.straightPaletteSample(frame)
        let colors = ColorCounts.counted(frame)
        let importance = weighed || colors.count > exactColorLimit ? sample.rgba.withUnsafeBytes { pixels in
            ImageQuant.importanceMap(rgba: pixels, width: sample.width, height: sample.height, speed: paletteSpeed)
        } : nil
        return Sample(rgba: sample.rgba, width: sample.width, height: sample.height,
                      runs: GIFFramePreparer.flatRuns(sample.rgba, width: sample.width),
                      colors: colors, importance: importance)
    }

    /// Makes samples for this builder on any thread: ``sample(_:weighed:)``, weighed once
    /// the samples added make the scene one of many colours (snow's frames each hold
    /// fewer colours than the limit, all of them more).
    public var sampler: Sampler { Sampler(isOfManyColors: isOfManyColors) }

    public struct Sampler: Sendable {
        fileprivate let isOfManyColors: ManyColors

        public func sample(_ frame: PixelImage) -> Sample {
            GIFPaletteBuilder.sample(frame, weighed: isOfManyColors.value.load(ordering: .relaxed))
        }
    }

    /// Whether a builder's samples so far make a scene of many colours (a reference, so
    /// that samplers on other threads see it change).
    fileprivate final class ManyColors: Sendable {
        let value = Atomic(false)
    }

    /// A frame between samples: its exact colours only, for ``addColors(_:)``.
    public static func colors(_ frame: PixelImage) -> Sample {
        Sample(rgba: [], width: 0, height: 0, runs: [:], colors: ColorCounts.counted(frame), importance: nil)
    }

    /// A frame between samples counted from ``RunningColorCounts``: the same colours
    /// and counts as ``colors(_:)`` of the frame it has followed.
    public static func colors(_ running: RunningColorCounts) -> Sample {
        Sample(rgba: [], width: 0, height: 0, runs: [:], colors: running.colors, importance: nil)
    }

    /// Counts a sample frame; the samples come before ``extraSamplePositions(between:)``,
    /// the frames it asks for when ``extraFramesAreSamples`` after it, all before
    /// ``palette()``.
    /// - Throws: `.invalidImage` for an empty frame, `.quantizationFailed`.
    public func add(_ sample: Sample) throws(EncodeError) {
        guard sample.width > 0, sample.height > 0 else { throw .invalidImage(reason: "an empty frame has no colours") }
        if !extraFramesAreSamples {
            if let previousColors { turnover.append(Self.turnover(previousColors, sample.colors)) }
            previousColors = sample.colors
        }
        for (word, count) in sample.runs { runs[word, default: 0] += count }
        for (word, count) in sample.colors { counts.add(word, count) }
        sampledPixels += sample.width * sample.height
        pending.append((sample.rgba, sample.width, sample.height, sample.importance))
        if countsManyColors {
            isOfManyColors.value.store(true, ordering: .relaxed)
            if !defersHistogram { try addPending() }
        }
    }

    /// Adds the samples held for ``defersHistogram`` to the histogram now (when the scene is
    /// one of many colours: else they never go to it) and holds no more: before another
    /// pass, whose frames would otherwise be drawn or kept beside them.
    public func stopDeferring() throws(EncodeError) {
        defersHistogram = false
        if countsManyColors { try addPending() }
    }

    /// Samples held, not yet in the histogram (tests).
    var heldSamples: Int { pending.count }

    /// Hands the samples held to libimagequant's histogram, in the order added.
    private func addPending() throws(EncodeError) {
        for held in pending {
            try histogram.add(rgba: held.rgba, width: held.width, height: held.height, importance: held.importance)
        }
        pending = []
    }

    /// The share of two frames' pixels in colours the other lacks.
    private static func turnover(_ a: [(word: UInt32, count: Int)], _ b: [(word: UInt32, count: Int)]) -> Double {
        let inA = Set(a.lazy.map(\.word)), inB = Set(b.lazy.map(\.word))
        var lacking = 0, total = 0
        for (word, count) in a { total += count; if !inB.contains(word) { lacking += count } }
        for (word, count) in b { total += count; if !inA.contains(word) { lacking += count } }
        return Double(lacking) / Double(max(1, total))
    }

    /// The frames to take besides the samples taken at `positions` (ascending), spread
    /// evenly, ascending: in a scene of few colours every frame between them, at most
    /// ``maximumExtraSamples``, to count (``addColors(_:)``); in a scene of many colours
    /// the frames between consecutive samples of more than ``turnoverShare`` turnover,
    /// when at most half of the gaps have it, at most ``maximumTurnoverSamples``, to
    /// sample (``add(_:)``, ``extraFramesAreSamples``).
    ///
    /// Scenes of few colours on the gallery at scale 2 (issue 15), against ffmpeg's
    /// palette of every frame: gravity-offscreen went from −27.6 to +3.6 dB,
    /// gravity-angle from −14.3 to exact, elasticity from −9.4 to +2.2 and
    /// collision-bar-outside from −7.6 to +3.8. Of many colours: gooey-slide-menu went
    /// from −4.0 to +1.6 dB, its GIF 0.76× → 0.70× ffmpeg's size, for 7 % more CPU.
    public func extraSamplePositions(between positions: [Int]) -> [Int] {
        // Colours turning over between most samples (frames that change everywhere, as
        // gif-fade's) are spread over the animation, and the samples have their share.
        let turning = turnover.map { $0 > Self.turnoverShare }
        let turnsInPlaces = turning.filter { $0 }.count * 2 <= turning.count
        var between: [Int] = []
        for (i, (a, b)) in zip(positions, positions.dropFirst()).enumerated()
        where fewColors || (turnsInPlaces && i < turning.count && turning[i]) {
            between += (a + 1)..<max(a + 1, b)
        }
        extraFramesAreSamples = !fewColors
        let m = fewColors ? Self.maximumExtraSamples : Self.maximumTurnoverSamples, n = between.count
        guard n > m else { return between }
        return (0..<m).map { between[($0 * n + n / 2) / m] }
    }

    /// Counts a frame's exact colours, after ``extraSamplePositions(between:)``.
    public func addColors(_ sample: Sample) {
        for (word, count) in sample.colors { counts.add(word, count) }
    }

    /// The palette of everything added: at most ``GIFOptions/colors`` − 1 colours (one
    /// table entry stays for the transparent index), the flat colours that cover the most
    /// of the samples among them, exactly (see ``GIFFramePreparer/dominantColors(_:width:)``).
    ///
    /// A scene of few colours gets exact colours: after the flat ones, the counted colour
    /// that errs most against the palette so far (pixels × squared RGB distance to the
    /// nearest entry), one at a time, until the table is full or holds every counted
    /// colour; where colours outnumber entries, those after the flat ones then move to
    /// the centre of the colours they stand for, and are kept apart where that errs no
    /// more (``CountedColors/palette(flat:room:)``).
    /// A scene of at most 255 colours in all is then drawn exactly
    /// (gravity-angle). libimagequant averages the colours it merges, so its entries are
    /// seldom a scene's own colours: its palette of the samples, made too until 27 Nov
    /// and kept when it erred less over the counted colours, never did on the 49 gallery
    /// scenes of few colours, at their own scales or at scale 2 (the exact palette's
    /// error was 0.19–1.00× its own; issue 15: elasticity 2,800 against 3,000, gooey-menu
    /// 74,792 against 89,845).
    ///
    /// A scene of many colours gets libimagequant's palette of the samples.
    ///
    /// libimagequant also stops adding colours once its error is under its floor
    /// ((1/1024)² in its units, whatever the quality asked): on scenes of a few flat
    /// colours it used 59–161 of 255 entries (liquid-loader 75.0 dB against ffmpeg's
    /// 82.9). When it leaves a quarter of the table or more, the entries left go to the
    /// counted colours the same way (not fewer: snow's 230 of 255 grew 4.6 % filled, for
    /// 0.75 dB it did not need).
    /// - Throws: `.invalidImage` when nothing was added, `.quantizationFailed`.
    public func palette() throws(EncodeError) -> GIFPalette {
        guard sampledPixels > 0 else { throw .invalidImage(reason: "no frames to build a palette from") }
        let fixed = GIFFramePreparer.dominantColors(runs: runs, pixelCount: sampledPixels).prefix(options.maximumFixedColors)
        if fewColors {
            pending = []
            let flat = Self.unique(fixed.map { GIFColor(red: $0.r, green: $0.g, blue: $0.b) })
            let colors = counts.counted.palette(flat: flat, room: options.colors - 1 - flat.count)
            return try GIFPalette(colors: Self.unique(colors), isOfFewColors: true)
        }
        try addPending()
        for entry in fixed { try histogram.addFixed(entry) }
        var colors = Self.unique(try histogram.palette().map { GIFColor(red: $0.r, green: $0.g, blue: $0.b) })
        let room = options.colors - 1 - colors.count
        if room * 4 >= options.colors - 1 { colors += counts.counted.worstMatched(by: colors, adding: room) }
        return try GIFPalette(colors: colors)
    }

    /// `colors` without repeats, in order.
    private static func unique(_ colors: [GIFColor]) -> [GIFColor] {
        var seen = Set<GIFColor>()
        return colors.filter { seen.insert($0).inserted }
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

    /// Twice the slots, holding the same colours and counts.
    private mutating func grow() {
        var bigger = ColorCounts(slots: keys.count * 2)
        for (i, key) in keys.enumerated() where key != 0 { bigger.add(key, counts[i]) }
        self = bigger
    }

    /// The distinct colours of `frame` with their pixel counts, in first-seen order (at
    /// most ``capacity``), as straight opaque RGBA words (alpha ignored, colours
    /// un-premultiplied as ``GIFFramePreparer/straightPixels(_:in:previous:keepAlpha:)``
    /// makes them). Cairo's words are counted as they are and converted once each:
    /// no straight copy of the frame is made.
    static func counted(_ frame: PixelImage) -> [(word: UInt32, count: Int)] {
        // A small table that grows: a frame of few colours (most) needs no large one
        // cleared for it (a table sized for the frame cost 2 MB of memset a frame).
        var table = ColorCounts(slots: 1024)
        var order: [UInt32] = []
        frame.bytes.withUnsafeBytes { p in
            for y in 0..<frame.height {
                let row = y * frame.stride
                var x = 0
                while x < frame.width {
                    let word = p.loadUnaligned(fromByteOffset: row + x * 4, as: UInt32.self)
                    // Runs of one colour (flat areas) are counted at once, found 8 pixels
                    // at a time (one vector compare) while they last.
                    var next = x &+ 1
                    let splat = SIMD8<UInt32>(repeating: word)
                    while next &+ 8 <= frame.width,
                          all(p.loadUnaligned(fromByteOffset: row &+ next &* 4, as: SIMD8<UInt32>.self) .== splat) { next &+= 8 }
                    while next < frame.width, p.loadUnaligned(fromByteOffset: row &+ next &* 4, as: UInt32.self) == word { next &+= 1 }
                    if table.addGrowing(key(word), next - x) { order.append(word) }
                    x = next
                }
            }
        }
        var merged: [UInt32: Int] = [:]
        var colors: [(word: UInt32, count: Int)] = []
        for word in order {
            let count = table.counts[table.slot(key(word))]
            let straight = GIFFramePreparer.opaqueStraightWord(word)
            // Premultiplied words of partial alpha can share a straight colour.
            if let i = merged[straight] { colors[i].count += count } else {
                merged[straight] = colors.count
                colors.append((straight, count))
            }
        }
        return colors
    }

    /// The key of Cairo's transparent pixel, 0 (the table's empty slot): no premultiplied
    /// word has a colour channel over its alpha.
    static let transparentKey: UInt32 = 0x00FF_FFFF

    /// The table's key of a pixel's word.
    static func key(_ word: UInt32) -> UInt32 { word == 0 ? transparentKey : word }

    /// One stretch of pixels of one colour in ``indexed(_:)``: the colour's index into
    /// its colours, and the position after the stretch's last pixel.
    struct ColorRun {
        var id: UInt32
        var end: Int
    }

    /// The distinct colours of straight RGBA pixels (their bytes, in first-seen order)
    /// and the pixels as runs of one colour each, in order, each with that colour's index
    /// into them; nil past ``capacity`` colours, or at a pixel whose word is
    /// ``transparentKey`` (a straight pixel can have it).
    ///
    /// Runs, found 8 pixels at a time while they last: a frame's changed rectangle is
    /// mostly the transparent pixels around what changed and flat fills, and a colour's
    /// index written for every pixel (then read back for every pixel by the remapping)
    /// was 6 % of a physics scene's GIF render (issue 42).
    static func indexed(_ rgba: [UInt8]) -> (colors: [UInt8], runs: [ColorRun])? {
        let count = rgba.count / 4
        // Each colour's count in the table is its index in `colors`.
        var table = ColorCounts(slots: 1024)
        var colors: [UInt8] = []
        var runs: [ColorRun] = []
        let complete: Bool = rgba.withUnsafeBytes { p in
            var i = 0
            while i < count {
                let word = p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                guard word != transparentKey else { return false }
                let id: UInt32
                if let known = table.count(of: key(word)) {
                    id = UInt32(known)
                } else {
                    guard table.addGrowing(key(word), colors.count / 4) else { return false }
                    id = UInt32(colors.count / 4)
                    withUnsafeBytes(of: word) { colors += $0 }
                }
                var next = i &+ 1
                let splat = SIMD8<UInt32>(repeating: word)
                while next &+ 8 <= count,
                      all(p.loadUnaligned(fromByteOffset: next &* 4, as: SIMD8<UInt32>.self) .== splat) { next &+= 8 }
                while next < count, p.loadUnaligned(fromByteOffset: next &* 4, as: UInt32.self) == word { next &+= 1 }
                runs.append(ColorRun(id: id, end: next))
                i = next
            }
            return true
        }
        return complete ? (colors, runs) : nil
    }

    /// Whether `rgba`'s opaque pixels hold at most `limit` distinct colours;
    /// stops counting at the first colour past it. Runs of unchanged pixels (0) are
    /// stepped over sixteen at a time: pixel by pixel, this scan of frames whose few
    /// colours lie in a large unchanged rectangle was 1.3 % of rope's GIF render.
    static func hasAtMost(_ limit: Int, colorsIn rgba: [UInt8]) -> Bool {
        var slots = 16
        while slots < 2 * (limit + 1) { slots *= 2 }
        var table = ColorCounts(slots: slots)
        return rgba.withUnsafeBytes { p in
            var previous: UInt32 = 0
            let count = rgba.count / 4
            var i = GIFFramePreparer.skipZeros(p, from: 0, to: count)
            while i < count {
                let word = p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                if word != previous, word >> 24 == 255 {
                    previous = word
                    if table.add(word, 1), table.count > limit { return false }
                }
                i = GIFFramePreparer.skipZeros(p, from: i &+ 1, to: count)
            }
            return true
        }
    }

    /// The count of `word`, or nil when it was never added. Inlined: called once a run
    /// by ``indexed(_:)`` and twice a changed run by ``RunningColorCounts``, the call
    /// cost as much as the lookup (issue 42).
    @inline(__always)
    func count(of word: UInt32) -> Int? {
        let i = slot(word)
        return word != 0 && keys[i] == word ? counts[i] : nil
    }

    /// ``add(_:_:)``, with the table grown first when half full, up to ``capacity``
    /// colours; false, adding nothing, for a new colour past them.
    @discardableResult
    mutating func addGrowing(_ word: UInt32, _ count: Int) -> Bool {
        if self.count == keys.count / 2, keys.count < 2 * Self.capacity { grow() }
        return add(word, count)
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
    @inline(__always)
    private func slot(_ word: UInt32) -> Int {
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: (word &* 0x9E37_79B1) >> 15) & mask
        while keys[i] != 0, keys[i] != word { i = (i + 1) & mask }
        return i
    }

    /// The counted colours and their pixels, for choosing a palette from them.
    var counted: CountedColors {
        var words: [UInt32] = [], weights: [Int] = []
        for (i, key) in keys.enumerated() where key != 0 {
            words.append(key)
            weights.append(counts[i])
        }
        return CountedColors(words: words, weights: weights)
    }
}

/// The exact colours of one frame kept up to date while it changes in spans, for frames
/// replayed from their changes (a render's ``GIFPaletteBuilder`` counts every frame
/// between its samples in a scene of few colours): counting only what changed instead
/// of every pixel again was 5 % of such a render (issue 15). The colours and counts are
/// those ``ColorCounts/counted(_:)`` gives the same frame; only their order differs,
/// which ``GIFPaletteBuilder/addColors(_:)`` does not depend on.
public struct RunningColorCounts {
    /// Each Cairo word met, numbered in first-seen order (the table's count field holds
    /// the number).
    private var table = ColorCounts(slots: 1024)
    /// By number: the word's pixels in the frame now (0 once gone), and the index of its
    /// straight colour in `straight`.
    private var counts: [Int] = []
    private var colorOfWord: [Int] = []
    /// The distinct straight colours of `words`: premultiplied words of partial alpha
    /// can share one.
    private var straight: [UInt32] = []
    private var straightIndex: [UInt32: Int] = [:]
    /// False once a colour past ``ColorCounts/capacity`` was met: ``replace(_:with:)``
    /// then refuses, and the frame must be counted again whole.
    public private(set) var isExact = true

    /// The colours of `frame`.
    public init(_ frame: PixelImage) {
        frame.bytes.withUnsafeBytes { p in
            for y in 0..<frame.height {
                let row = p.baseAddress! + y * frame.stride
                let pixels = UnsafeBufferPointer(start: row.assumingMemoryBound(to: UInt32.self), count: frame.width)
                var x = 0
                while x < pixels.count {
                    var next = x + 1
                    while next < pixels.count, pixels[next] == pixels[x] { next += 1 }
                    add(pixels[x], next - x)
                    x = next
                }
            }
        }
    }

    /// The number of `word`, given when new; nil past the capacity.
    private mutating func index(_ word: UInt32) -> Int? {
        let key = ColorCounts.key(word)
        if let i = table.count(of: key) { return i }
        guard table.addGrowing(key, counts.count) else { return nil }
        let color = GIFFramePreparer.opaqueStraightWord(word)
        let c: Int
        if let known = straightIndex[color] { c = known } else {
            c = straight.count
            straightIndex[color] = c
            straight.append(color)
        }
        counts.append(0)
        colorOfWord.append(c)
        return counts.count - 1
    }

    /// The two words last counted and their numbers (-1: none yet), most recent first.
    /// A frame's changed runs mostly go between a few colours (a body and the background
    /// it uncovers): the table's lookup for every run was 4.6 % of a physics scene's GIF
    /// render (attachment-spring-gravity; issue 42).
    private var recent = (word: UInt32(0), number: -1, earlierWord: UInt32(0), earlierNumber: -1)

    @inline(__always)
    private mutating func add(_ word: UInt32, _ n: Int) {
        let i: Int
        if word == recent.word, recent.number >= 0 {
            i = recent.number
        } else {
            if word == recent.earlierWord, recent.earlierNumber >= 0 {
                i = recent.earlierNumber
            } else {
                guard let found = index(word) else { isExact = false; return }
                i = found
            }
            recent = (word, i, recent.word, recent.number)
        }
        counts[i] += n
    }

    /// The frame's pixels `old` became `new` (one span of a row).
    /// - Returns: false when the counts can no longer follow (``isExact``).
    public mutating func replace(_ old: UnsafeBufferPointer<UInt32>, with new: UnsafeBufferPointer<UInt32>) -> Bool {
        precondition(old.count == new.count)
        guard isExact else { return false }
        let count = old.count
        guard let old = old.baseAddress, let new = new.baseAddress else { return true }
        // Runs of one old and one new colour at a time: a span is mostly flat areas, and
        // pixels that did not change within it.
        var x = 0
        while x < count {
            let was = old[x], now = new[x]
            var next = x &+ 1
            while next < count, old[next] == was, new[next] == now { next &+= 1 }
            if was != now {
                add(was, x &- next)
                add(now, next &- x)
            }
            x = next
        }
        return isExact
    }

    /// The colours with their pixel counts, as straight opaque words.
    public var colors: [(word: UInt32, count: Int)] {
        var sums = [Int](repeating: 0, count: straight.count)
        for i in counts.indices { sums[colorOfWord[i]] += counts[i] }
        return straight.indices.compactMap { sums[$0] > 0 ? (straight[$0], sums[$0]) : nil }
    }
}
