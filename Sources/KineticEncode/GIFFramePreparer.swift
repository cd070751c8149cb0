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
        var changed: GIFRect?, runs: [PixelRun]?
        if case .runs(let known) = change, known.allSatisfy(whole.holds) {
            (changed, runs) = (GIFRect(bounding: known), known)
        } else {
            changed = changedRect(frame, previous)
        }
        guard let rect = changed else {
            return PreparedGIFFrame(rect: GIFRect(x: 0, y: 0, width: 1, height: 1),
                                    indices: [PreparedGIFFrame.transparentIndex],
                                    localPalette: options.palette == .perFrame ? [] : nil,
                                    disposal: .doNotDispose)
        }
        let (rgba, drawnRows) = straightPixelsAndRows(frame, in: rect, previous: previous, runs: runs, buffers: buffers)
        var prepared = try quantized(rgba, rect: rect, drawnRows: drawnRows, disposal: .doNotDispose, options: options)
        prepared.sourcePixels = rgba
        return prepared
    }

    /// Quantizes straight RGBA pixels in which alpha 0 marks "transparent index".
    ///
    /// Rows with no opaque pixel (nothing changed there) are left out of quantization and
    /// become transparent rows afterwards: a rectangle spanning two distant changes (a
    /// header glow and a spinner at the bottom) is often half unchanged rows, which would
    /// cost histogram and remapping time for nothing. Dithering then carries its small
    /// error across the seams of the rows left out, which only reshapes the noise.
    /// - Parameter drawnRows: when known, the rows holding an opaque pixel, ascending
    ///   (else the rows are scanned: the whole canvas, for a snowfall).
    private static func quantized(_ rgba: [UInt8], rect: GIFRect, drawnRows: [Int]? = nil, disposal: GIFDisposal,
                                  options: GIFOptions) throws(EncodeError) -> PreparedGIFFrame {
        let rowBytes = rect.width * 4
        let kept = drawnRows ?? rgba.withUnsafeBytes { p in
            (0..<rect.height).filter { y in hasOpaquePixel(p, from: y * rect.width, to: (y + 1) * rect.width) }
        }
        guard !kept.isEmpty, kept.count < rect.height else {
            return try quantizedRows(rgba, rect: rect, disposal: disposal, options: options)
        }
        // Rows copied with memcpy, and only the rows left out filled: as array slices
        // (`+=`, subscript assignment) with a whole zero-filled index buffer, these copies
        // were 0.35 G instructions of snow's GIF render.
        let compact = [UInt8](unsafeUninitializedCapacity: kept.count * rowBytes) { out, initialized in
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
                for y in 0..<h {
                    let row = step * y * frame.stride
                    for x in 0..<w {
                        let word = src.loadUnaligned(fromByteOffset: row + step * x * 4, as: UInt32.self)
                        UnsafeMutableRawBufferPointer(out).storeBytes(of: opaqueStraightWord(word),
                                                                      toByteOffset: (y * w + x) * 4, as: UInt32.self)
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
    /// or nil if they are identical.
    ///
    /// Rows are compared with libc's `memcmp` (vectorized): most rows of an animation are
    /// unchanged, and this scan was 7 % of the gallery's batch CPU as a Swift loop of
    /// 8-byte loads. Inside the changed rows, only the columns outside the rectangle found
    /// so far are compared, and pixel by pixel only where they differ. A frame sharing
    /// its pixels with the one before it (a scene at rest, see `FramePipeline`) is not
    /// compared at all.
    static func changedRect(_ frame: PixelImage, _ previous: PixelImage) -> GIFRect? {
        let width = frame.width
        return frame.bytes.withUnsafeBytes { a in
            previous.bytes.withUnsafeBytes { b in
                guard let pa = a.baseAddress, let pb = b.baseAddress, width > 0,
                      pa != pb || frame.stride != previous.stride else { return nil }
                func row(_ y: Int) -> (UnsafeRawPointer, UnsafeRawPointer) { (pa + y * frame.stride, pb + y * previous.stride) }
                /// Whether pixels `x ..< x + count` of row `y` differ anywhere.
                func differs(_ y: Int, from x: Int, count: Int) -> Bool {
                    let (p, q) = row(y)
                    return count > 0 && memcmp(p + x * 4, q + x * 4, count * 4) != 0
                }
                func pixelDiffers(_ x: Int, _ y: Int) -> Bool {
                    let (p, q) = row(y)
                    return p.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        != q.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                }
                guard let top = (0..<frame.height).first(where: { differs($0, from: 0, count: width) }),
                      let bottom = (top..<frame.height).last(where: { differs($0, from: 0, count: width) })
                else { return nil }
                var left = width, right = -1
                for y in top...bottom {
                    if differs(y, from: 0, count: left) {
                        var x = 0
                        while !pixelDiffers(x, y) { x += 1 }
                        left = x
                    }
                    if differs(y, from: right + 1, count: width - right - 1) {
                        var x = width - 1
                        while !pixelDiffers(x, y) { x -= 1 }
                        right = x
                    }
                }
                return GIFRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
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

    /// The pixels ``straightPixels(_:in:previous:keepAlpha:runs:)`` compares with the
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

    /// The work of both: `drawnRows`, when given, has each row holding an opaque pixel set;
    /// the bytes are written in a buffer of `buffers` when given.
    private static func straightPixels(_ frame: PixelImage, in rect: GIFRect, previous: PixelImage?, keepAlpha: Bool,
                                       runs: [PixelRun]?, drawnRows: UnsafeMutablePointer<Bool>?,
                                       buffers: FrameBufferPool? = nil) -> [UInt8] {
        let count = rect.width * rect.height
        let oldStride = previous?.stride ?? 0
        /// The straight word of pixel (x, y), for output at byte `o`; marks its row drawn
        /// when it is not 0.
        @inline(__always) func store(_ x: Int, _ y: Int, at o: Int, _ src: UnsafeRawBufferPointer,
                                     _ old: UnsafeRawBufferPointer, _ out: UnsafeMutableRawBufferPointer) {
            // Cairo's ARGB32 is a native-endian word: A in the top byte.
            // Offsets inside the frames, which exist: wrapping arithmetic.
            let word = src.loadUnaligned(fromByteOffset: y &* frame.stride &+ x &* 4, as: UInt32.self)
            let unchanged = previous != nil && old.loadUnaligned(fromByteOffset: y &* oldStride &+ x &* 4, as: UInt32.self) == word
            let rgba = unchanged || (keepAlpha && word >> 24 < 128) ? 0 : opaqueStraightWord(word)
            out.storeBytes(of: rgba, toByteOffset: o, as: UInt32.self)
            if rgba != 0 { drawnRows?[y &- rect.y] = true }
        }
        if let runs, previous != nil {
            var rgba = buffers?.take(count: count * 4, capacity: frame.width * frame.height * 4)
                ?? [UInt8](repeating: 0, count: count * 4)
            rgba.withUnsafeMutableBytes { out in
                // Only the runs' pixels are written: a buffer handed back is cleared first.
                if buffers != nil, let base = out.baseAddress { memset(base, 0, out.count) }
                frame.bytes.withUnsafeBytes { src in
                    (previous?.bytes ?? []).withUnsafeBytes { old in
                        for run in runs {
                            let y = Int(run.y), row = (y - rect.y) * rect.width - rect.x
                            for x in Int(run.x)..<(Int(run.x) + Int(run.count)) { store(x, y, at: (row &+ x) &* 4, src, old, out) }
                        }
                    }
                }
            }
            return rgba
        }
        /// Every byte of `out` written: the pixels of `rect` row after row.
        func fill(_ out: UnsafeMutableRawBufferPointer) {
            frame.bytes.withUnsafeBytes { src in
                (previous?.bytes ?? []).withUnsafeBytes { old in
                    var o = 0
                    for y in rect.y..<(rect.y + rect.height) {
                        var x = rect.x
                        let end = rect.x &+ rect.width
                        if previous != nil, let from = src.baseAddress, let was = old.baseAddress,
                           let to = out.baseAddress {
                            // Blocks of up to 64 pixels equal to the previous frame's (most of
                            // a large changed rectangle) are found by libc's vectorized memcmp
                            // and become 0s, nothing converted; a block that differs goes four
                            // pixels at a time. Four at a time everywhere, this loop was the
                            // preparer's busiest code on snow (5 % of its GIF render's
                            // instructions; pixel by pixel, 9 % of its time), whose rectangle
                            // is the whole canvas around a few thousand changed pixels.
                            let srcRow = y &* frame.stride, oldRow = y &* oldStride
                            while x &+ 4 <= end {
                                let block = min(Self.equalBlock, (end &- x) & ~3)
                                if memcmp(from + (srcRow &+ x &* 4), was + (oldRow &+ x &* 4), block &* 4) == 0 {
                                    memset(to + o, 0, block &* 4)
                                    x &+= block; o &+= block &* 4
                                    continue
                                }
                                let blockEnd = x &+ block
                                while x < blockEnd {
                                    let a = src.loadUnaligned(fromByteOffset: srcRow &+ x &* 4, as: SIMD4<UInt32>.self)
                                    let b = old.loadUnaligned(fromByteOffset: oldRow &+ x &* 4, as: SIMD4<UInt32>.self)
                                    if a == b {
                                        out.storeBytes(of: .zero, toByteOffset: o, as: SIMD4<UInt32>.self)
                                    } else {
                                        for k in 0..<4 { store(x &+ k, y, at: o &+ k &* 4, src, old, out) }
                                    }
                                    x &+= 4; o &+= 16
                                }
                            }
                        }
                        while x < end {
                            store(x, y, at: o, src, old, out)
                            x &+= 1; o &+= 4
                        }
                    }
                }
            }
        }
        guard let buffers else {
            return [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
                fill(UnsafeMutableRawBufferPointer(out))
                initialized = count * 4
            }
        }
        var rgba = buffers.take(count: count * 4, capacity: frame.width * frame.height * 4)
        rgba.withUnsafeMutableBytes(fill)
        return rgba
    }
}
