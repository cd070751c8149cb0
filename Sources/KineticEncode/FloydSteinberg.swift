/// Floyd–Steinberg dithering of straight RGBA pixels to a palette, over the drawn pixels
/// (alpha ≠ 0) only: a GIF frame's changed rectangle is mostly unchanged pixels, which
/// take the transparent entry and are stepped over sixteen at a time.
///
/// Rows alternate direction (left to right first). A pixel's error goes 7/16 to the next
/// pixel of its row, 3/16, 5/16 and 1/16 to the three below; error falling on a
/// transparent pixel is dropped, as that pixel shows the earlier frame. As in
/// libimagequant, which remapped these frames before: the error read is scaled by
/// `(1 − (1 − dithering)²) · 15/16` (so small errors do not pile up), an error
/// under ``tinyError`` is not added at all (flat areas stay flat, which LZW codes
/// shorter), and one over ``largeError`` is damped to 0.8. Unlike libimagequant, colours
/// and errors are plain RGB levels and each pixel takes the entry nearest its dithered
/// colour by squared RGB distance (``NearestPaletteEntry``).
enum FloydSteinberg {
    /// The squared error (levels², three channels) under which a pixel is not dithered:
    /// libimagequant's 2/256² of its unit range.
    static let tinyError: Float = 2
    /// The squared error past which it is damped: libimagequant's 16/256 of its unit range.
    static let largeError: Float = 16.0 / 256.0 * 255 * 255

    /// The error scale read by each pixel at `dithering` (0…1).
    static func level(dithering: Double) -> Float {
        let d = Float(min(1, max(0, dithering)))
        return (1 - (1 - d) * (1 - d)) * 15 / 16
    }

    /// Each pixel of `rgba` (`width × height`, 4 bytes a pixel) as an index of the palette
    /// `nearest` searches, `transparent` where alpha is 0; and the error of the drawn
    /// pixels against the entries they got (not their dithered colours).
    static func remap(rgba: [UInt8], width: Int, height: Int, dithering: Double, transparent: UInt8,
                      palette: [ImageQuant.Entry], nearest: inout NearestPaletteEntry)
        -> (indices: [UInt8], error: ImageQuant.Remapper.Distortion) {
        precondition(rgba.count == width * height * 4 && !nearest.isEmpty)
        let level = level(dithering: dithering)
        let colors = palette.map { SIMD4<Float>(Float($0.r), Float($0.g), Float($0.b), 0) }
        // Two error rows with a column of margin each side. A pixel zeroes its column once
        // it has read it; after each row only the columns written and not read are
        // cleared (see ``clearUnread(_:previous:current:)``): not the whole row, nor the
        // columns between spans (most of a snowfall's wide rectangle).
        var errors = [SIMD4<Float>](repeating: .zero, count: 2 * (width + 2))
        var spans: [Range<Int>] = [], previousSpans: [Range<Int>] = []
        var sum = 0, count = 0
        // The colour last looked up (24 bits; none yet) and its entry: a gradient's rows and
        // flat fills repeat a colour from pixel to pixel, which then needs no lookup.
        var lastKey = UInt32.max, lastIndex: UInt8 = 0
        let indices = [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            out.initialize(repeating: transparent)
            initialized = width * height
            rgba.withUnsafeBytes { p in
                colors.withUnsafeBufferPointer { colors in
                    errors.withUnsafeMutableBufferPointer { errors in
                        guard var this = errors.baseAddress, var next = errors.baseAddress.map({ $0 + width + 2 })
                        else { return }
                        for y in 0..<height {
                            let row = y &* width
                            drawnSpans(p, from: row, to: row &+ width, into: &spans)
                            let forward = y & 1 == 0, step = forward ? 1 : -1
                            for k in 0..<spans.count {
                                let span = spans[forward ? k : spans.count &- 1 &- k]
                                var x = forward ? span.lowerBound &- 1 : span.upperBound
                                // The pixel before's 7/16 share of its error, read by this pixel
                                // alone: added here, not stored in its column and loaded back
                                // (the same sum; the span's last share fell on a margin column).
                                var carried = SIMD4<Float>.zero
                                for _ in 0..<span.count {
                                    x &+= step
                                    let word = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: (row &+ x) &* 4, as: UInt32.self))
                                    guard word >> 24 != 0 else { this[x &+ 1] = .zero; carried = .zero; continue }
                                    // Scalar channels: SIMD conversions between Int32 and Float
                                    // go through generic code (most of rope's remap when used).
                                    let red = Int32(word & 0xFF), green = Int32(word >> 8 & 0xFF), blue = Int32(word >> 16 & 0xFF)
                                    var target = SIMD4<Float>(Float(red), Float(green), Float(blue), 0)
                                    var error = (this[x &+ 1] + carried) * level
                                    this[x &+ 1] = .zero
                                    let size = error.x * error.x + error.y * error.y + error.z * error.z
                                    // The colour looked up (red lowest): the pixel's own, whole
                                    // levels, unless its error is added.
                                    var key = word & 0xFF_FFFF
                                    if size >= tinyError {
                                        if size > largeError { error *= 0.8 }
                                        target += error
                                        target.x = min(255, max(0, target.x))
                                        target.y = min(255, max(0, target.y))
                                        target.z = min(255, max(0, target.z))
                                        // Rounded to nearest: each channel is 0…255 here.
                                        let rounded = floors(target + 0.5)
                                        key = UInt32(truncatingIfNeeded: rounded.x | rounded.y << 8 | rounded.z << 16)
                                    }
                                    if key != lastKey { (lastKey, lastIndex) = (key, nearest.index(key: key)) }
                                    let index = lastIndex
                                    out[row &+ x] = index
                                    // Whole levels: the squares add up exactly in a Float.
                                    let color = colors[Int(index)]
                                    let dr = color.x - Float(red), dg = color.y - Float(green), db = color.z - Float(blue)
                                    sum &+= Int(wholeNumber(dr * dr + dg * dg + db * db))
                                    count &+= 1
                                    let residual = target - color
                                    carried = residual * (7.0 / 16)
                                    next[x &+ 1 &- step] += residual * (3.0 / 16)
                                    next[x &+ 1] += residual * (5.0 / 16)
                                    next[x &+ 1 &+ step] += residual * (1.0 / 16)
                                }
                            }
                            clearUnread(this, previous: previousSpans, current: spans)
                            swap(&this, &next)
                            swap(&spans, &previousSpans)
                        }
                    }
                }
            }
        }
        return (indices, ImageQuant.Remapper.Distortion(sum: sum, count: count))
    }

    /// 2²³, the least Float whose ulp is 1: added to a number of 0 … 2²³, the adder
    /// rounds it to a whole one, which the low 23 bits of the sum then hold (below 2²³).
    private static let wholeBias: Float = 8_388_608

    /// `floor` of each lane of `v` (each 0 … 2²² here), as integers, by the adder's
    /// rounding: the checked conversion of each lane (NaN, infinity and range tested,
    /// three a pixel) was a fifth of the remap's instructions on rope.
    @inline(__always)
    static func floors(_ v: SIMD4<Float>) -> SIMD4<Int32> {
        let bias = SIMD4<Float>(repeating: wholeBias)
        // Nearest, ties to even; one less where that is above v.
        let nearest = (v + bias) - bias
        let down = nearest.replacing(with: nearest - 1, where: nearest .> v) + bias
        return unsafeBitCast(down, to: SIMD4<Int32>.self) & 0x7F_FFFF
    }

    /// `v`, a whole number below 2²³, as an integer (as ``floors(_:)``, unchecked).
    @inline(__always)
    static func wholeNumber(_ v: Float) -> Int32 {
        Int32(bitPattern: (v + wholeBias).bitPattern & 0x7F_FFFF)
    }

    /// Zeroes what is left in the error row `row` after its pixels (the `current` spans)
    /// were dithered, each having zeroed its own column on reading it: a span's pixels
    /// write its columns − 1 … + 1 (margin-shifted: lowerBound ..< upperBound + 2) of the
    /// row below only (their shares along their own row are carried, not stored), so
    /// what remains is whatever the `previous` row's spans wrote into `row` outside the
    /// current spans' own columns. Both lists ascending. Clearing every span's columns of
    /// both lists instead zeroed a fully drawn row twice, 0.7 G instructions of rope's GIF
    /// render (issue 42).
    static func clearUnread(_ row: UnsafeMutablePointer<SIMD4<Float>>, previous: [Range<Int>], current: [Range<Int>]) {
        forEachUnread(previous: previous, current: current) { (row + $0.lowerBound).update(repeating: .zero, count: $0.count) }
    }

    /// The columns (margin-shifted) of the `previous` spans' writes, lowerBound ..<
    /// upperBound + 2 each, outside the `current` spans' own columns (lowerBound + 1 ..<
    /// upperBound + 1), as ascending, disjoint ranges handed to `body` (two spans one
    /// pixel apart both write the column between them). Both lists ascending.
    @inline(__always)
    static func forEachUnread(previous: [Range<Int>], current: [Range<Int>], _ body: (Range<Int>) -> Void) {
        var first = 0, done = 0
        for span in previous {
            let high = span.upperBound &+ 2
            var low = max(span.lowerBound, done)
            done = high
            // Current spans whose columns end at or before this one's start: done with.
            while first < current.count, current[first].upperBound &+ 1 <= low { first &+= 1 }
            var k = first
            while low < high {
                guard k < current.count, current[k].lowerBound &+ 1 < high else {
                    body(low..<high)
                    break
                }
                let own = (current[k].lowerBound &+ 1)..<(current[k].upperBound &+ 1)
                if own.lowerBound > low { body(low..<own.lowerBound) }
                low = max(low, own.upperBound)
                k &+= 1
            }
        }
    }

    /// The runs of pixels from `start` to `end` of straight RGBA bytes whose words are not
    /// 0, as columns from `start`, into `spans` (emptied first).
    private static func drawnSpans(_ p: UnsafeRawBufferPointer, from start: Int, to end: Int,
                                   into spans: inout [Range<Int>]) {
        spans.removeAll(keepingCapacity: true)
        var i = GIFFramePreparer.skipZeros(p, from: start, to: end)
        while i < end {
            var j = i &+ 1
            // Four at a time while none is 0 (rope's rows are drawn whole).
            while j &+ 4 <= end, !any(p.loadUnaligned(fromByteOffset: j &* 4, as: SIMD4<UInt32>.self) .== .zero) { j &+= 4 }
            while j < end, p.loadUnaligned(fromByteOffset: j &* 4, as: UInt32.self) != 0 { j &+= 1 }
            spans.append((i &- start)..<(j &- start))
            i = GIFFramePreparer.skipZeros(p, from: j, to: end)
        }
    }
}
