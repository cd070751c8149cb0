#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KineticGeometry

/// Turns rendered frames into GIF frames: frame differencing, un-premultiplication and
/// palette quantization. Pure and thread-safe, so frames can be prepared in parallel and
/// handed to one ``GIFWriter`` in order.
public enum GIFFramePreparer {
    /// Prepares `frame`, given the frame shown before it (`nil` for the first frame) and,
    /// when known, where the two differ (`change`: its runs are then the only pixels read).
    ///
    /// Opaque output (`transparentBackground == false`): only the bounding rectangle of
    /// pixels that differ from `previous` is stored; inside it, pixels equal to `previous`
    /// get the transparent index so the earlier frame's colour stays on screen (smaller
    /// files, and no dither shimmer on still areas). An unchanged frame becomes a 1×1
    /// transparent pixel. Disposal is `.doNotDispose`. The scene's opaque background makes
    /// every rendered pixel opaque; a pixel that is not anyway shows its un-premultiplied
    /// colour at full opacity. The frame keeps its source colours (``PreparedGIFFrame/sourcePixels``)
    /// so that ``GIFWriter``, which knows what is on screen, can also leave out changed
    /// pixels already displayed within ``GIFOptions/tolerance``.
    ///
    /// Transparent output: the whole frame is stored, alpha < 128 becomes transparent,
    /// disposal is `.restoreToBackground`, and `previous` is ignored. Differencing cannot
    /// work here: in a frame drawn over the previous one, the transparent index means
    /// "keep what is there", so a pixel that turns from opaque to transparent could never
    /// be expressed; each frame must clear and replace the last one entirely.
    /// - Throws: `.invalidImage` for an empty frame or a `previous` of another size,
    ///   `.invalidOptions`, `.quantizationFailed`.
    public static func prepare(_ frame: PixelImage, previous: PixelImage?, change: FrameChange = .unknown,
                               options: GIFOptions) throws(EncodeError) -> PreparedGIFFrame {
        try prepare(frame, previous: previous, change: change, options: options, buffers: nil)
    }

    /// ``prepare(_:previous:change:options:)`` with an opaque frame's source colours
    /// (``PreparedGIFFrame/sourcePixels``) written in a buffer of `buffers`: those of
    /// frames already written, which ``AnimationWriter`` hands back, so a frame takes no
    /// fresh pages for them (issue 42).
    package static func prepare(_ frame: PixelImage, previous: PixelImage?, change: FrameChange = .unknown,
                                options: GIFOptions, buffers: FrameBufferPool?) throws(EncodeError) -> PreparedGIFFrame {
        try options.validate()
        guard (1...65535).contains(frame.width), (1...65535).contains(frame.height) else {
            throw .invalidImage(reason: "a GIF frame must be 1…65535 pixels a side, not \(frame.width)×\(frame.height)")
        }
        let whole = GIFRect(x: 0, y: 0, width: frame.width, height: frame.height)
        if options.transparentBackground {
            let rgba = straightPixels(frame, in: whole, previous: nil, keepAlpha: true)
            return try quantized(rgba, rect: whole, disposal: .restoreToBackground, options: options)
        }
        guard let previous else {
            let rgba = straightPixels(frame, in: whole, previous: nil, keepAlpha: false, runs: nil, drawnRows: nil,
                                      buffers: buffers)
            var prepared = try quantized(rgba, rect: whole, disposal: .doNotDispose, options: options)
            prepared.sourcePixels = rgba
            return prepared
        }
        guard previous.width == frame.width, previous.height == frame.height else {
            throw .invalidImage(reason: "previous frame is \(previous.width)×\(previous.height), this one \(frame.width)×\(frame.height)")
        }
        // Runs leaving the canvas are not believed: the frames are compared.
        let changed: (rect: GIFRect, rgba: [UInt8], drawnRows: [Int])?
        if case .runs(let known) = change, known.allSatisfy(whole.holds) {
            changed = GIFRect(bounding: known).map { rect in
                var rgba: [UInt8]
                let drawnRows: [Int]
                (rgba, drawnRows) = straightPixelsAndRows(frame, in: rect, previous: previous, runs: known, buffers: buffers)
                // Runs of no change at all (not a renderer's) keep every row, all transparent.
                if !drawnRows.isEmpty { keepRows(drawnRows, of: &rgba, rowBytes: rect.width * 4) }
                return (rect, rgba, drawnRows)
            }
        } else {
            changed = changedPixels(frame, previous, buffers: buffers)
        }
        guard let (rect, rgba, drawnRows) = changed else {
            return PreparedGIFFrame(rect: GIFRect(x: 0, y: 0, width: 1, height: 1),
                                    indices: [PreparedGIFFrame.transparentIndex],
                                    localPalette: options.palette == .perFrame ? [] : nil,
                                    disposal: .doNotDispose)
        }
        // The source colours of the rows drawn only, one after another (``PreparedGIFFrame/sourceRows``).
        let compacted = !drawnRows.isEmpty
        var prepared = try quantized(rgba, rect: rect, drawnRows: drawnRows, compacted: compacted, disposal: .doNotDispose,
                                     options: options)
        prepared.sourcePixels = rgba
        prepared.sourceRows = compacted && drawnRows.count < rect.height ? drawnRows : nil
        return prepared
    }

    /// Moves rows `rows` (ascending) of `rgba` (`rowBytes` a row) to its start, one after
    /// another, and drops the rest.
    static func keepRows(_ rows: [Int], of rgba: inout [UInt8], rowBytes: Int) {
        rgba.withUnsafeMutableBytes { p in
            guard let base = p.baseAddress else { return }
            for (k, y) in rows.enumerated() where k != y { memmove(base + k * rowBytes, base + y * rowBytes, rowBytes) }
        }
        rgba.removeLast(rgba.count - rows.count * rowBytes)
    }

    /// Quantizes straight RGBA pixels in which alpha 0 marks "transparent index".
    ///
    /// Rows with no opaque pixel (nothing changed there) are left out of quantization and
    /// become transparent rows afterwards: a rectangle spanning two distant changes (a
    /// header glow and a spinner at the bottom) is often half unchanged rows, which would
    /// cost histogram and remapping time for nothing. Dithering then carries its small
    /// error across the seams of the rows left out, which only reshapes the noise.
    /// - Parameters:
    ///   - drawnRows: when known, the rows holding an opaque pixel, ascending (else the
    ///     rows are scanned: the whole canvas, for a snowfall).
    ///   - compacted: whether `rgba` holds only `drawnRows` (at least one), one after another.
    private static func quantized(_ rgba: [UInt8], rect: GIFRect, drawnRows: [Int]? = nil, compacted: Bool = false,
                                  disposal: GIFDisposal, options: GIFOptions) throws(EncodeError) -> PreparedGIFFrame {
        let rowBytes = rect.width * 4
        let kept = drawnRows ?? rgba.withUnsafeBytes { p in
            (0..<rect.height).filter { y in hasOpaquePixel(p, from: y * rect.width, to: (y + 1) * rect.width) }
        }
        precondition(!compacted || (!kept.isEmpty && rgba.count == kept.count * rowBytes))
        guard !kept.isEmpty, kept.count < rect.height else {
            return try quantizedRows(rgba, rect: rect, disposal: disposal, options: options)
        }
        // Rows copied with memcpy, and only the rows left out filled: as array slices
        // (`+=`, subscript assignment) with a whole zero-filled index buffer, these copies
        // were 0.35 G instructions of snow's GIF render.
        let compact = compacted ? rgba : [UInt8](unsafeUninitializedCapacity: kept.count * rowBytes) { out, initialized in
            initialized = kept.count * rowBytes
            rgba.withUnsafeBytes { src in
                guard let to = out.baseAddress, let from = src.baseAddress else { return }
                for (k, y) in kept.enumerated() { memcpy(to + k &* rowBytes, from + y &* rowBytes, rowBytes) }
            }
        }
        var prepared = try quantizedRows(compact, rect: GIFRect(x: rect.x, y: rect.y, width: rect.width, height: kept.count),
                                         disposal: disposal, options: options)
        prepared.indices = spreadRows(prepared.indices, to: kept, width: rect.width, height: rect.height,
                                      filling: PreparedGIFFrame.transparentIndex)
        prepared.rect = rect
        return prepared
    }

    /// `compact`'s rows (`width` bytes each) as rows `rows` (ascending) of a
    /// `width × height` buffer whose other rows are `fill`.
    static func spreadRows(_ compact: [UInt8], to rows: [Int], width: Int, height: Int, filling fill: UInt8) -> [UInt8] {
        precondition(compact.count == rows.count * width)
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            initialized = width * height
            guard let to = out.baseAddress else { return }
            compact.withUnsafeBytes { src in
                guard let from = src.baseAddress else { return }
                var next = 0
                for (k, y) in rows.enumerated() {
                    memset(to + next &* width, Int32(fill), (y &- next) &* width)
                    memcpy(to + y &* width, from + k &* width, width)
                    next = y &+ 1
                }
                memset(to + next &* width, Int32(fill), (height &- next) &* width)
            }
        }
    }

    /// Quantizes every row of `rgba` (`rect`'s size) as one image.
    private static func quantizedRows(_ rgba: [UInt8], rect: GIFRect, disposal: GIFDisposal,
                                      options: GIFOptions) throws(EncodeError) -> PreparedGIFFrame {
        // `options.colors` entries at most, one of them the transparent index.
        switch options.palette {
        case .perFrame:
            return try ownPalette(rgba, rect: rect, disposal: disposal, options: options)
        case let .shared(palette):
            // The transparent colour is the remapper's entry `count`.
            let transparent = UInt8(palette.colors.count)
            // One variable holds the indices: a copy beside it would make `replace` copy them.
            var remapped = try palette.remapper.remapMeasuringError(rgba: rgba, width: rect.width, height: rect.height,
                                                                    settings: options.quantizerSettings)
            let error = remapped.error
            // A full table's transparent entry is already the GIF's transparent index.
            replace(transparent, with: PreparedGIFFrame.transparentIndex, in: &remapped.indices)
            let shared = PreparedGIFFrame(rect: rect, indices: remapped.indices, localPalette: nil, disposal: disposal)
            // The remapper's opaque entries are the palette's colours: its error is this one.
            let sharedError = options.colors != 256 ? 0
                : error?.meanSquaredError ?? meanSquaredError(rgba, shared.indices, palette.colors)
            guard sharedError > localTableBudget
                    || (sharedError > smallTableBudget && ColorCounts.hasAtMost(smallTableColors, colorsIn: rgba))
            else { return shared }
            let own = try ownPalette(rgba, rect: rect, disposal: disposal, options: options)
            return meanSquaredError(rgba, own.indices, own.localPalette ?? []) < sharedError / 2 ? own : shared
        }
    }

    /// Makes every `index` of `indices` `replacement`, sixteen at a time: as a `map` this
    /// was 3 % of snow's GIF render (its shared palette has fewer than 255 colours).
    static func replace(_ index: UInt8, with replacement: UInt8, in indices: inout [UInt8]) {
        guard index != replacement else { return }
        indices.withUnsafeMutableBytes { raw in
            let from = SIMD16<UInt8>(repeating: index), to = SIMD16<UInt8>(repeating: replacement)
            var i = 0
            while i &+ 16 <= raw.count {
                let v = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                raw.storeBytes(of: v.replacing(with: to, where: v .== from), toByteOffset: i, as: SIMD16<UInt8>.self)
                i &+= 16
            }
            while i < raw.count {
                if raw[i] == index { raw[i] = replacement }
                i &+= 1
            }
        }
    }

    /// The mean squared error a channel (34 dB on the changed pixels) past which a frame
    /// remapped to the shared palette is quantized again with a colour table of its own,
    /// kept if that halves the error. The shared palette comes from 16 sample frames and
    /// misses colours seen only between them (a mid-fade tint): remapped, such a frame
    /// erred 38 a channel on fireworks-button and 27–109 on 13 frames of the bench scene,
    /// against at most 17 for the bench's other frames, and an error drawn once stays on screen.
    /// Its own table brings it to about 1. At 10, rope's 19 frames at 10–21 took tables
    /// too, 8 % more bytes for 0.4 dB (issue 15); at 25 no frame of flow-menu, snow or
    /// rope does. Only with full 256-entry tables: fewer colours (`--colors`) err more on
    /// every frame by choice, and their frames stay on the small shared table.
    static let localTableBudget = 25.0

    /// A frame whose changed pixels hold at most ``smallTableColors`` colours gets its own
    /// table past this much lower error: such a table is small (64 entries, 192 bytes, at
    /// most) and exact, where a full one costs 768 bytes and still errs. The frames of a
    /// fade (a flat square turning red and fading, collision-fade) hold 23–28 colours
    /// and erred 6–22 a channel between the shared palette's samples, under the budget
    /// above; with tables of their own past 0.25, collision-fade went from 61.4 to 89.4 dB
    /// (ffmpeg 74.1) and 0.95× to 0.91× ffmpeg's size (issue 15). No frame of the bench
    /// scene, flow-menu, liquid-loader, the replicators or fireworks-button is that
    /// small and erring that much, and one of lock-screen's (liquid-loader's hold 170–230
    /// colours; an exact table for every frame of up to 255 colours made its GIF 1.14×
    /// ffmpeg's).
    static let smallTableBudget = 0.25
    static let smallTableColors = 64

    /// `rgba` quantized with a palette of its own (a local colour table).
    private static func ownPalette(_ rgba: [UInt8], rect: GIFRect, disposal: GIFDisposal,
                                   options: GIFOptions) throws(EncodeError) -> PreparedGIFFrame {
        let sample = paletteSample(rgba, width: rect.width, height: rect.height)
        let (entries, indices) = try ImageQuant.quantize(
            rgba: rgba, width: rect.width, height: rect.height, sample: sample,
            fixed: Array(dominantColors(sample.rgba, width: sample.width).prefix(options.maximumFixedColors)),
            settings: options.quantizerSettings)
        // Move transparent entries to index 255, pack the opaque ones from 0.
        var table = [UInt8](repeating: PreparedGIFFrame.transparentIndex, count: 256)
        var colors: [GIFColor] = []
        for (i, entry) in entries.enumerated() where entry.a >= 128 && colors.count < 255 {
            table[i] = UInt8(colors.count)
            colors.append(GIFColor(red: entry.r, green: entry.g, blue: entry.b))
        }
        return PreparedGIFFrame(rect: rect, indices: indices.map { table[Int($0)] },
                                localPalette: colors, disposal: disposal)
    }

    /// The mean squared error a channel of the opaque pixels of `rgba` drawn as `indices`
    /// of `colors` (0 when none is opaque).
    static func meanSquaredError(_ rgba: [UInt8], _ indices: [UInt8], _ colors: [GIFColor]) -> Double {
        var sum = 0, count = 0
        rgba.withUnsafeBytes { p in
            indices.withUnsafeBufferPointer { indices in
                colors.withUnsafeBufferPointer { colors in
                    let n = min(indices.count, p.count / 4)
                    var i = skipZeros(p, from: 0, to: n)
                    while i < n {
                        defer { i = skipZeros(p, from: i + 1, to: n) }
                        // Wrapping 32-bit arithmetic on the pixel's word (red lowest): checked
                        // arithmetic made this 7 % of a scene that changes everywhere.
                        let index = Int(indices[i]), word = p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                        guard word >> 24 != 0, index < colors.count else { continue }
                        let c = colors[index]
                        let dr = Int32(word & 0xFF) &- Int32(c.red)
                        let dg = Int32((word >> 8) & 0xFF) &- Int32(c.green)
                        let db = Int32((word >> 16) & 0xFF) &- Int32(c.blue)
                        sum &+= Int(dr &* dr &+ dg &* dg &+ db &* db)
                        count &+= 1
                    }
                }
            }
        }
        return ImageQuant.Remapper.Distortion(sum: sum, count: count).meanSquaredError
    }

    /// The first pixel from `i` (up to `end`) of straight RGBA bytes whose word is not 0,
    /// or `end` when there is none before it (that pixel's alpha may still be 0).
    /// Unchanged pixels are 0 and come in long runs (two thirds of the rows quantized
    /// over the gallery): they are stepped over sixteen, then four at a time.
    @inline(__always)
    static func skipZeros(_ p: UnsafeRawBufferPointer, from i: Int, to end: Int) -> Int {
        // Where most pixels changed, this one did: tell that first.
        if i < end, p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) != 0 { return i }
        var i = i
        // Sixteen at a time first, four 4-lane loads or-ed (as in ``hasOpaquePixel``): four
        // at a time, this skip was most of the error pass, 2 % of snow's GIF render.
        while i &+ 16 <= end {
            guard orOfSixteen(p, at: i) == .zero else { break }
            i &+= 16
        }
        while i + 4 <= end, p.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt32>.self) == .zero { i += 4 }
        while i < end, p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self) == 0 { i += 1 }
        return i
    }

    /// The sixteen 32-bit pixels from `i` or-ed into four lanes: four 4-lane loads (a SIMD16
    /// comparison compiles lane by lane through memory).
    @inline(__always)
    static func orOfSixteen(_ p: UnsafeRawBufferPointer, at i: Int) -> SIMD4<UInt32> {
        let o = i &* 4
        return p.loadUnaligned(fromByteOffset: o, as: SIMD4<UInt32>.self)
            | p.loadUnaligned(fromByteOffset: o &+ 16, as: SIMD4<UInt32>.self)
            | p.loadUnaligned(fromByteOffset: o &+ 32, as: SIMD4<UInt32>.self)
            | p.loadUnaligned(fromByteOffset: o &+ 48, as: SIMD4<UInt32>.self)
    }

    /// Whether any pixel from `i` up to `end` of straight RGBA bytes has alpha ≠ 0.
    /// Sixteen pixels at a time, their alpha bytes or-ed together: this scan of the rows
    /// of a large, mostly unchanged rectangle was 4.5 % of snow's GIF render.
    @inline(__always)
    static func hasOpaquePixel(_ p: UnsafeRawBufferPointer, from i: Int, to end: Int) -> Bool {
        let alpha = UInt32(littleEndian: 0xFF00_0000), alphas = SIMD4<UInt32>(repeating: alpha)
        var i = i
        while i &+ 16 <= end {
            if !(orOfSixteen(p, at: i) & alphas == .zero) { return true }
            i &+= 16
        }
        while i < end {
            if p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) & alpha != 0 { return true }
            i &+= 1
        }
        return false
    }

    /// The pixels the palette is built from: when more than 256 × 256 of them changed
    /// (are opaque), every second pixel of every second row. Building the histogram (with
    /// libimagequant's edge and noise maps) costs about as much as remapping; a quarter
    /// of a smooth rendered image has nearly the same colours, and every pixel is still
    /// remapped. Fewer changed pixels are all used: a large rectangle of which only thin
    /// antialiased edges changed (flow-menu) lost most edge colours to the sample, which
    /// doubled the frame's error.
    static func paletteSample(_ rgba: [UInt8], width: Int, height: Int) -> (rgba: [UInt8], width: Int, height: Int) {
        guard subsamples(width: width, height: height), opaqueCount(rgba, atLeast: 256 * 256 + 1) else {
            return (rgba, width, height)
        }
        let w = width / 2, h = height / 2
        let sample = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, initialized in
            rgba.withUnsafeBytes { src in
                for y in 0..<h {
                    for x in 0..<w {
                        let word = src.loadUnaligned(fromByteOffset: (2 * y * width + 2 * x) * 4, as: UInt32.self)
                        UnsafeMutableRawBufferPointer(out).storeBytes(of: word, toByteOffset: (y * w + x) * 4, as: UInt32.self)
                    }
                }
            }
            initialized = w * h * 4
        }
        return (sample, w, h)
    }

    /// Whether a sample `width × height`, more than 256 × 256 of its pixels opaque, is
    /// subsampled (see ``paletteSample(_:width:height:)``).
    private static func subsamples(width: Int, height: Int) -> Bool { width >= 2 && height >= 2 }

    /// ``paletteSample(_:width:height:)`` of the whole of `frame` made straight — where
    /// every pixel is opaque — with only the pixels kept converted: the same bytes, for a
    /// quarter of the conversions of a large frame (the palette pass's samples).
    static func straightPaletteSample(_ frame: PixelImage) -> (rgba: [UInt8], width: Int, height: Int) {
        let step = subsamples(width: frame.width, height: frame.height) && frame.width * frame.height > 256 * 256 ? 2 : 1
        let w = frame.width / step, h = frame.height / step
        let sample = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, initialized in
            frame.bytes.withUnsafeBytes { src in
                guard let source = src.baseAddress, let destination = out.baseAddress, w > 0 else { return }
                // Wrapping offsets (within the frame by the loops' bounds): checked, they were
                // most of the 33 instructions a pixel this cost snow's 16 samples (issue 42).
                let pixelStep = step &* 4, rowStep = step &* frame.stride
                for y in 0..<h {
                    let row = source + y &* rowStep
                    let outRow = UnsafeMutableRawPointer(destination) + y &* w &* 4
                    for x in 0..<w {
                        let word = row.loadUnaligned(fromByteOffset: x &* pixelStep, as: UInt32.self)
                        outRow.storeBytes(of: opaqueStraightWord(word), toByteOffset: x &* 4, as: UInt32.self)
                    }
                }
            }
            initialized = w * h * 4
        }
        return (sample, w, h)
    }

    /// The flat colours covering at least 5 % of `rgba` (`width` pixels a row) in runs of
    /// 8 or more identical opaque pixels, most frequent first, at most 4. They become
    /// fixed palette entries: libimagequant's clusters otherwise land a level or two off a
    /// large flat area (a background, a card), which then shows a visible shift and
    /// dithers into noise that compresses badly. Only a few large areas: fixed entries
    /// constrain libimagequant's own choice, and the bands of a slow vertical gradient
    /// (snow's sky, 1.8 % each) took 16 entries at the former 1 % threshold, which made
    /// the frame's MSE 0.19 against 0.021 with none (bench, issue 15).
    static func dominantColors(_ rgba: [UInt8], width: Int) -> [ImageQuant.Entry] {
        dominantColors(runs: flatRuns(rgba, width: width), pixelCount: rgba.count / 4)
    }

    /// ``dominantColors(_:width:)`` of pixels whose ``flatRuns(_:width:)`` add up to
    /// `runs` (several frames' together, for a shared palette).
    static func dominantColors(runs: [UInt32: Int], pixelCount: Int) -> [ImageQuant.Entry] {
        let threshold = max(1, pixelCount / 20)
        return runs.filter { $0.value >= threshold }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(4)
            .map { word, _ in
                withUnsafeBytes(of: word) { b in ImageQuant.Entry(r: b[0], g: b[1], b: b[2], a: 255) }
            }
    }

    /// How many pixels of `rgba` (`width` pixels a row) lie in runs of 8 or more identical
    /// opaque pixels, by colour (the pixel's 4 bytes as a native word).
    static func flatRuns(_ rgba: [UInt8], width: Int) -> [UInt32: Int] {
        let count = rgba.count / 4
        var runs: [UInt32: Int] = [:]
        guard width > 0, count > 0 else { return runs }
        rgba.withUnsafeBytes { p in
            for rowStart in stride(from: 0, to: count, by: width) {
                var x = rowStart
                let end = min(rowStart + width, count)
                while x < end {
                    let word = p.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    var next = x + 1
                    while next < end, p.loadUnaligned(fromByteOffset: next * 4, as: UInt32.self) == word { next += 1 }
                    // Byte 3 is alpha: only opaque pixels count.
                    if next - x >= 8, p[x * 4 + 3] == 255 { runs[word, default: 0] += next - x }
                    x = next
                }
            }
        }
        return runs
    }

    /// Whether `rgba` has at least `count` opaque (alpha ≠ 0) pixels.
    static func opaqueCount(_ rgba: [UInt8], atLeast count: Int) -> Bool {
        guard rgba.count / 4 >= count else { return false }
        var seen = 0
        return rgba.withUnsafeBufferPointer { p in
            for i in stride(from: 3, to: p.count, by: 4) where p[i] != 0 {
                seen += 1
                if seen >= count { return true }
            }
            return false
        }
    }

    /// The smallest rectangle containing every pixel where `frame` and `previous` differ,
    /// or nil if they are identical (the bounds of ``differingSpans(_:_:)``).
    static func changedRect(_ frame: PixelImage, _ previous: PixelImage) -> GIFRect? {
        bounds(of: differingSpans(frame, previous))
    }

    /// The pixels of a row from its first to its last that differs from the previous
    /// frame's row.
    struct DifferingSpan: Hashable {
        var y: Int
        var first: Int
        var last: Int
    }

    /// Each row where `frame` and `previous` differ, from its first differing pixel to its
    /// last, top to bottom.
    ///
    /// Rows are compared with libc's `memcmp` (vectorized): an equal row (most rows of an
    /// animation) in one call; a differing one from each end, 64 pixels at a time, then
    /// pixel by pixel inside the block that differs, so the pixels between its first and
    /// last difference are not read. A frame sharing its pixels with the one before it (a
    /// scene at rest, see `FramePipeline`) is not compared at all.
    static func differingSpans(_ frame: PixelImage, _ previous: PixelImage) -> [DifferingSpan] {
        let width = frame.width
        return frame.bytes.withUnsafeBytes { a in
            previous.bytes.withUnsafeBytes { b in
                guard let pa = a.baseAddress, let pb = b.baseAddress, width > 0,
                      pa != pb || frame.stride != previous.stride else { return [] }
                var spans: [DifferingSpan] = []
                for y in 0..<frame.height {
                    let p = pa + y &* frame.stride, q = pb + y &* previous.stride
                    guard memcmp(p, q, width &* 4) != 0 else { continue }
                    func pixelDiffers(_ x: Int) -> Bool {
                        p.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
                            != q.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
                    }
                    // Both loops stop at a differing pixel: the row has one, and `first` is one.
                    var first = 0
                    while first &+ equalBlock <= width, memcmp(p + first &* 4, q + first &* 4, equalBlock &* 4) == 0 {
                        first &+= equalBlock
                    }
                    while !pixelDiffers(first) { first &+= 1 }
                    var end = width
                    while end &- equalBlock > first,
                          memcmp(p + (end &- equalBlock) &* 4, q + (end &- equalBlock) &* 4, equalBlock &* 4) == 0 {
                        end &-= equalBlock
                    }
                    var last = end &- 1
                    while !pixelDiffers(last) { last &-= 1 }
                    spans.append(DifferingSpan(y: y, first: first, last: last))
                }
                return spans
            }
        }
    }

    /// The smallest rectangle holding `spans`, nil for none.
    static func bounds(of spans: [DifferingSpan]) -> GIFRect? {
        guard let top = spans.first?.y, let bottom = spans.last?.y else { return nil }
        var left = Int.max, right = -1
        for span in spans {
            left = min(left, span.first); right = max(right, span.last)
        }
        return GIFRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// Where `frame` differs from `previous`: the smallest rectangle holding every pixel
    /// that differs (``changedRect(_:_:)``), its rows holding such a pixel (from 0,
    /// ascending) and their straight pixels against `previous` (those of
    /// ``straightPixels(_:in:previous:keepAlpha:runs:)``), one row after another; nil when
    /// the frames are the same. The bytes are written in a buffer of `buffers` when given.
    ///
    /// The frames are read once (issue 42): ``differingSpans(_:_:)`` reads each row up to its
    /// first and from its last difference, and only the pixels between those are read
    /// again, to be converted; the rest of those rows is zeros, one `memset` from a span's
    /// end to the next span's start. Finding the rectangle first and then comparing the
    /// whole of it again read a snowfall's two frames twice (its rectangle is most of the
    /// canvas); its rows without a change (three quarters of them) were written as zeros,
    /// then left out by the quantizer, which copied the others.
    static func changedPixels(_ frame: PixelImage, _ previous: PixelImage,
                              buffers: FrameBufferPool? = nil) -> (rect: GIFRect, rgba: [UInt8], drawnRows: [Int])? {
        let spans = differingSpans(frame, previous)
        guard let rect = bounds(of: spans) else { return nil }
        let rowBytes = rect.width * 4
        let rgba = writtenBytes(count: spans.count * rowBytes, capacity: frame.width * frame.height * 4,
                                in: buffers) { out in
            frame.bytes.withUnsafeBytes { src in
                previous.bytes.withUnsafeBytes { old in
                    guard let to = out.baseAddress, let src = src.baseAddress, let old = old.baseAddress else { return }
                    // Offsets inside the frames and the rectangle, which hold the spans: wrapping arithmetic.
                    var zeros = 0
                    for (k, span) in spans.enumerated() {
                        let start = k &* rowBytes &+ (span.first &- rect.x) &* 4
                        memset(to + zeros, 0, start &- zeros)
                        _ = straighten(src + span.y &* frame.stride, against: old + span.y &* previous.stride,
                                       from: span.first, to: span.last &+ 1, keepAlpha: false, into: to + start)
                        zeros = start &+ (span.last &+ 1 &- span.first) &* 4
                    }
                    memset(to + zeros, 0, out.count &- zeros)
                }
            }
        }
        return (rect, rgba, spans.map { $0.y - rect.y })
    }

    /// A Cairo ARGB32 pixel (premultiplied, native-endian, alpha in the top byte) as the
    /// native word of the straight RGBA bytes (r, g, b, a): its colour un-premultiplied,
    /// rounded to nearest as Cairo does when writing PNGs.
    @inline(__always)
    static func straightWord(_ argb: UInt32) -> UInt32 {
        let alpha = argb >> 24
        var r = (argb >> 16) & 0xFF, g = (argb >> 8) & 0xFF, b = argb & 0xFF
        if alpha != 255, alpha != 0 {
            // Bytes times 255: no overflow, so no checks in this per-pixel path.
            r = min(255, (r &* 255 &+ alpha / 2) / alpha)
            g = min(255, (g &* 255 &+ alpha / 2) / alpha)
            b = min(255, (b &* 255 &+ alpha / 2) / alpha)
        }
        return UInt32(littleEndian: r | g << 8 | b << 16 | alpha << 24)
    }

    /// ``straightWord(_:)`` made opaque (alpha 255).
    @inline(__always)
    static func opaqueStraightWord(_ argb: UInt32) -> UInt32 {
        straightWord(argb) | UInt32(littleEndian: 255 << 24)
    }

    /// The pixels ``straighten(_:against:from:to:keepAlpha:into:)`` compares with the
    /// previous frame in one `memcmp` (a multiple of 4).
    static let equalBlock = 64

    /// Straight RGBA bytes of `rect` for the quantizer.
    ///
    /// A pixel becomes fully transparent (0, 0, 0, 0) when it equals `previous` there or,
    /// with `keepAlpha`, when its alpha is below 128; every other pixel is made opaque with
    /// its colour un-premultiplied, so a half-covered white edge stays white rather than
    /// turning grey. Given `runs` (inside `rect`) outside which `frame` equals `previous`,
    /// only their pixels are read: the rest is transparent. A snowfall's rectangle is
    /// nearly the whole canvas; its runs, a few thousand pixels.
    static func straightPixels(_ frame: PixelImage, in rect: GIFRect, previous: PixelImage?,
                               keepAlpha: Bool, runs: [PixelRun]? = nil) -> [UInt8] {
        straightPixels(frame, in: rect, previous: previous, keepAlpha: keepAlpha, runs: runs, drawnRows: nil)
    }

    /// ``straightPixels(_:in:previous:keepAlpha:runs:)`` against `previous`, and the rows
    /// of `rect` (from 0, ascending) holding an opaque pixel, found on the way: the
    /// quantizer leaves out the others, and scanning the whole rectangle for them again
    /// cost snow's GIF render 0.17 G instructions.
    static func straightPixelsAndRows(_ frame: PixelImage, in rect: GIFRect, previous: PixelImage,
                                      runs: [PixelRun]?, buffers: FrameBufferPool? = nil) -> (rgba: [UInt8], drawnRows: [Int]) {
        var drawn = [Bool](repeating: false, count: rect.height)
        let rgba = straightPixels(frame, in: rect, previous: previous, keepAlpha: false, runs: runs, drawnRows: &drawn,
                                  buffers: buffers)
        return (rgba, drawn.indices.filter { drawn[$0] })
    }

    /// `count` bytes, every one of them written by `body`: in a buffer of `buffers` when
    /// given, else in a new one; neither is cleared first.
    private static func writtenBytes(count: Int, capacity: Int, in buffers: FrameBufferPool?,
                                     _ body: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        if let buffers { return buffers.take(count: count, capacity: capacity, writing: body) }
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            body(UnsafeMutableRawBufferPointer(out))
            initialized = count
        }
    }

    /// A pixel's straight RGBA word for the quantizer (`word` a Cairo ARGB32 pixel, `was`
    /// the previous frame's there): 0 when unchanged or, with `keepAlpha`, below alpha 128.
    @inline(__always)
    private static func quantizerWord(_ word: UInt32, was: UInt32?, keepAlpha: Bool) -> UInt32 {
        word == was || (keepAlpha && word >> 24 < 128) ? 0 : opaqueStraightWord(word)
    }

    /// Writes pixels `x0 ..< x1` of a frame's row (`row`, Cairo ARGB32) to `out` (from
    /// its first byte) as ``quantizerWord(_:was:keepAlpha:)`` against the previous frame's
    /// row (`old`); whether any is not 0.
    ///
    /// Blocks of up to 64 pixels equal to the previous frame's (most of a large changed
    /// rectangle) are found by libc's vectorized memcmp and become 0s, nothing converted,
    /// written with one `memset` for each run of such blocks; a block that differs goes
    /// four pixels at a time. Four at a time everywhere, this loop was the preparer's
    /// busiest code on snow (5 % of its GIF render's instructions; pixel by pixel, 9 % of
    /// its time), whose rectangle is the whole canvas around a few thousand changed pixels.
    @inline(__always)
    private static func straighten(_ row: UnsafeRawPointer, against old: UnsafeRawPointer, from x0: Int, to x1: Int,
                                   keepAlpha: Bool, into out: UnsafeMutableRawPointer) -> Bool {
        // Offsets inside the rows, which exist: wrapping arithmetic.
        var x = x0, o = 0, zeros = 0, drawn = false
        let opaque = SIMD4<UInt32>(repeating: 0xFF00_0000), littleEndian = UInt32(littleEndian: 1) == 1
        @inline(__always) func pixel(_ x: Int, at o: Int) {
            let word = quantizerWord(row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self),
                                     was: old.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self), keepAlpha: keepAlpha)
            out.storeBytes(of: word, toByteOffset: o, as: UInt32.self)
            if word != 0 { drawn = true }
        }
        while x &+ 4 <= x1 {
            let block = min(Self.equalBlock, (x1 &- x) & ~3)
            if memcmp(row + x &* 4, old + x &* 4, block &* 4) == 0 {
                x &+= block; o &+= block &* 4
                continue
            }
            if o > zeros { memset(out + zeros, 0, o &- zeros) }
            let blockEnd = x &+ block
            while x < blockEnd {
                let a = row.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)
                let b = old.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)
                if a == b {
                    out.storeBytes(of: .zero, toByteOffset: o, as: SIMD4<UInt32>.self)
                } else if littleEndian, a & opaque == opaque {
                    // Four opaque pixels (every pixel over an opaque background), whose
                    // colours need no division: red and blue swapped, as vectors.
                    let straight = (a &>> 16) & 0xFF | a & 0xFF00 | (a & 0xFF) &<< 16 | opaque
                    out.storeBytes(of: straight.replacing(with: 0, where: a .== b), toByteOffset: o, as: SIMD4<UInt32>.self)
                    drawn = true
                } else {
                    for k in 0..<4 { pixel(x &+ k, at: o &+ k &* 4) }
                }
                x &+= 4; o &+= 16
            }
            zeros = o
        }
        if o > zeros { memset(out + zeros, 0, o &- zeros) }
        while x < x1 {
            pixel(x, at: o)
            x &+= 1; o &+= 4
        }
        return drawn
    }

    /// The work of both: `drawnRows`, when given, has each row holding an opaque pixel set;
    /// the bytes are written in a buffer of `buffers` when given.
    private static func straightPixels(_ frame: PixelImage, in rect: GIFRect, previous: PixelImage?, keepAlpha: Bool,
                                       runs: [PixelRun]?, drawnRows: UnsafeMutablePointer<Bool>?,
                                       buffers: FrameBufferPool? = nil) -> [UInt8] {
        let count = rect.width * rect.height * 4, capacity = frame.width * frame.height * 4
        let oldStride = previous?.stride ?? 0
        if let runs, previous != nil {
            return writtenBytes(count: count, capacity: capacity, in: buffers) { out in
                // Only the runs' pixels are written: the rest is cleared first.
                guard let to = out.baseAddress else { return }
                memset(to, 0, out.count)
                frame.bytes.withUnsafeBytes { src in
                    (previous?.bytes ?? []).withUnsafeBytes { old in
                        guard let src = src.baseAddress, let old = old.baseAddress else { return }
                        for run in runs {
                            // Offsets inside the frames, which exist: wrapping arithmetic. Four
                            // pixels at a time (``straighten``): pixel by pixel, this loop was
                            // 2.5 % of a physics scene's GIF render (issue 42).
                            let y = Int(run.y), x = Int(run.x), row = (y &- rect.y) &* rect.width &- rect.x
                            if straighten(src + y &* frame.stride, against: old + y &* oldStride, from: x,
                                          to: x &+ Int(run.count), keepAlpha: keepAlpha, into: to + (row &+ x) &* 4) {
                                drawnRows?[y &- rect.y] = true
                            }
                        }
                    }
                }
            }
        }
        return writtenBytes(count: count, capacity: capacity, in: buffers) { out in
            frame.bytes.withUnsafeBytes { src in
                (previous?.bytes ?? []).withUnsafeBytes { old in
                    guard let from = src.baseAddress, let to = out.baseAddress else { return }
                    for y in rect.y..<(rect.y + rect.height) {
                        let row = from + y &* frame.stride, o = (y &- rect.y) &* rect.width &* 4
                        var drawn = false
                        if let was = old.baseAddress, previous != nil {
                            drawn = straighten(row, against: was + y &* oldStride, from: rect.x, to: rect.x &+ rect.width,
                                               keepAlpha: keepAlpha, into: to + o)
                        } else {
                            // Cairo's ARGB32 is a native-endian word: A in the top byte.
                            for x in 0..<rect.width {
                                let word = quantizerWord(row.loadUnaligned(fromByteOffset: (rect.x &+ x) &* 4, as: UInt32.self),
                                                         was: nil, keepAlpha: keepAlpha)
                                out.storeBytes(of: word, toByteOffset: o &+ x &* 4, as: UInt32.self)
                                if word != 0 { drawn = true }
                            }
                        }
                        if drawn { drawnRows?[y &- rect.y] = true }
                    }
                }
            }
        }
    }
}
