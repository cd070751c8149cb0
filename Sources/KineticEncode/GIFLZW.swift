/// GIF's LZW compression of one image's colour indices, written to give giflib 5.2.1's
/// bytes (`EGifCompressLine`) exactly, faster.
///
/// ``encode(_:bitsPerPixel:)`` returns the image data sub-blocks — each a length byte
/// (1…255) and that many bytes of the code stream — without the minimum code size byte
/// before them nor the empty block after them (giflib's `EGifPutImageDesc` and
/// `EGifPutCodeNext(gif, NULL)` write those). giflib's policy, matched step by step:
/// - codes start at `max(2, bitsPerPixel)` + 1 bits, and every index is first masked to
///   `max(2, bitsPerPixel)` bits (`EGifPutLine` does so);
/// - a clear code first; then, for each index, the current string extended by it if the
///   dictionary holds that, else the current code is written, the extension gets the next
///   code, and the string restarts at the index;
/// - the width grows right after writing any code while the next code to assign has
///   reached `1 << width` — before that code is assigned, so one code later than the
///   decoder needs, as giflib does;
/// - when the next code reaches 4095 (giflib's `LZ_MAX_CODE`), the missed extension is not
///   added: a clear code is written and the dictionary starts over;
/// - at the end the current code, the end-of-information code, and the last bits padded
///   with zeros to a byte; blocks of 255 bytes, the last one shorter.
///
/// ``encode(_:alternatives:bitsPerPixel:)`` may also write some pixels as another index
/// that shows the same picture (``GIFWriter`` offers a transparent pixel near what changed
/// as the palette entry it shows); then the bytes are its own, not giflib's: each string
/// is the longest the dictionary holds over both readings of the pixels (a search with
/// runs taken whole, a few branches kept and a step budget of one a pixel, so it stays
/// within a few times giflib's work on any input), and a string that starts on a pixel
/// with a choice starts with the index from which the longer string follows.
///
/// giflib looks each extension up in a hash table of 8192 entries with linear probing
/// (11 % of the gallery batch's CPU). Here it is one load from a direct table of
/// `4096 << minimumCodeSize` codes, reused across images and cleared entry by entry; and
/// a run of one index (most of a frame's pixels: the transparent index around what
/// changed, flat backgrounds) takes one step per code written instead of one lookup per
/// pixel, since the dictionary holds that index repeated 1…n times for some n, each a
/// code kept in a list: the run goes to the longest string it fills, or past it, where
/// giflib writes it and adds the next longer one.
struct GIFLZW {
    /// The code of string `prefix` + `index` at `prefix << minimumCodeSize | index`, 0 when
    /// absent (no assigned code is 0: they start after the end-of-information code).
    private var children: [UInt16] = []
    /// Which `children` entry each assigned code filled, to clear only those.
    private var filled = [Int32](repeating: 0, count: Self.maxCode + 1)
    /// For each index i, at `i << 12 | k` the code of i repeated k times (k ≥ 1), and at
    /// `i << 12` the longest such k the dictionary holds (< 4096: it holds fewer codes).
    private var runs: [UInt16] = []

    /// giflib's `LZ_MAX_CODE`: the dictionary starts over before assigning it.
    fileprivate static let maxCode = 4095

    /// Where ``Compressor/longestMatch(from:at:)`` keeps the branches it has yet to follow.
    private var branches: [Int] = []

    /// Compresses `indices` for a colour table of `1 << bitsPerPixel` entries (1…8 bits;
    /// giflib takes `BitsPerPixel` of the local colour map, else the global one), to
    /// giflib's bytes.
    mutating func encode(_ indices: [UInt8], bitsPerPixel: Int) -> [UInt8] {
        encode(indices, alternatives: nil, bitsPerPixel: bitsPerPixel)
    }

    /// Compresses `indices`, each of which may be written as `alternatives[i]` instead
    /// (the same count; equal to `indices[i]` where there is no choice), whichever makes
    /// the longer strings: the decoder then reads either index at that pixel. Without
    /// alternatives (or none differing) the bytes are giflib's.
    mutating func encode(_ indices: [UInt8], alternatives: [UInt8]?, bitsPerPixel: Int) -> [UInt8] {
        precondition(alternatives.map { $0.count == indices.count } ?? true, "one alternative a pixel")
        let minimumCodeSize = min(max(bitsPerPixel, 2), 8)
        let tableSize = (Self.maxCode + 1) << minimumCodeSize
        if children.count < tableSize {
            children = [UInt16](repeating: 0, count: tableSize)
            runs = [UInt16](repeating: 0, count: tableSize)
        }
        // Codes written ≤ indices + clears (one per ≥ 3837 codes) + first clear, last
        // code and end; 12 bits each at most; a length byte per 255 bytes and one spare.
        let codes = indices.count + indices.count / 1024 + 3
        let dataBytes = (codes * 12 + 7) / 8
        let capacity = dataBytes + dataBytes / 255 + 2
        if alternatives != nil, branches.isEmpty { branches = [Int](repeating: 0, count: 2 * Compressor.branchLimit) }
        return children.withUnsafeMutableBufferPointer { children in
            filled.withUnsafeMutableBufferPointer { filled in
                runs.withUnsafeMutableBufferPointer { runs in
                    branches.withUnsafeMutableBufferPointer { branches in
                        indices.withUnsafeBufferPointer { pixels in
                            Self.withOptionalBuffer(alternatives) { alternatives in
                                [UInt8](unsafeUninitializedCapacity: capacity) { output, count in
                                    var state = Compressor(minimumCodeSize: minimumCodeSize, children: children,
                                                           filled: filled, runs: runs, branches: branches,
                                                           output: output)
                                    count = state.compress(pixels, alternatives: alternatives)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static func withOptionalBuffer<R>(_ array: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let array else { return body(nil) }
        return array.withUnsafeBufferPointer { body($0) }
    }
}

/// One image's compression: the dictionary's state and the bit writer, in locals the
/// optimizer keeps in registers.
private struct Compressor {
    let minimumCodeSize: Int
    let clearCode: Int
    let children: UnsafeMutableBufferPointer<UInt16>
    let filled: UnsafeMutableBufferPointer<Int32>
    let runs: UnsafeMutableBufferPointer<UInt16>
    /// Pairs of code and position: branches ``longestMatch(from:at:)`` has yet to follow.
    let branches: UnsafeMutableBufferPointer<Int>
    /// The pixels and their alternatives while compressing with alternatives.
    var pixels = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var alternatives = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// Pixel steps ``longestMatch(from:at:)`` may still spend on branches other than the
    /// first it follows, for the whole image: bounds the search on any input.
    var branchSteps = 0
    /// giflib's `RunningCode`, `RunningBits` and `MaxCode1`.
    var nextCode: Int
    var width: Int
    var widthLimit: Int
    var writer: SubBlockWriter

    init(minimumCodeSize: Int, children: UnsafeMutableBufferPointer<UInt16>,
         filled: UnsafeMutableBufferPointer<Int32>, runs: UnsafeMutableBufferPointer<UInt16>,
         branches: UnsafeMutableBufferPointer<Int>, output: UnsafeMutableBufferPointer<UInt8>) {
        self.minimumCodeSize = minimumCodeSize
        clearCode = 1 << minimumCodeSize
        self.children = children; self.filled = filled; self.runs = runs; self.branches = branches
        nextCode = clearCode + 2
        width = minimumCodeSize + 1
        widthLimit = 1 << width
        writer = SubBlockWriter(output: output)
        resetRuns()
    }

    /// Compresses `pixels`, each of which may be written as its entry of `alternatives`
    /// (if any) instead; the byte count written. Leaves `children` all zero.
    mutating func compress(_ pixels: UnsafeBufferPointer<UInt8>, alternatives: UnsafeBufferPointer<UInt8>?) -> Int {
        let mask = UInt8(truncatingIfNeeded: clearCode - 1), shift = minimumCodeSize
        // Where a pixel's alternative differs (else nil: giflib's steps exactly).
        let other = alternatives?.baseAddress
        if let alternatives {
            self.pixels = pixels; self.alternatives = alternatives
            branchSteps = Self.branchStepsPerPixel &* pixels.count
        }
        put(clearCode)
        if let base = pixels.baseAddress, let first = pixels.first {
            let raw = UnsafeRawPointer(base), count = pixels.count
            var current = Int(first & mask)
            // While the current string is one index repeated: that index and how often;
            // else `runIndex` is the clear code, which no masked index equals.
            var runIndex = current, runLength = 1
            var i = 1
            while i < count {
                let byte = base[i]
                if let other, (other[i] ^ byte) & mask != 0 {
                    // Either index: the longest string the dictionary holds either way.
                    // (A run index of the clear code matches no pixel: no run.)
                    let (code, end) = longestMatch(from: current, at: i, run: runIndex, runLength: runLength)
                    if end > i {
                        current = code
                        runIndex = clearCode
                        i = end
                        continue
                    }
                    // Neither extends the string: it is written, and the next starts here
                    // with the index that leads further — and goes as far as found then.
                    let (index, next) = startIndex(at: i)
                    if write(current, adding: current &<< shift | index), next.end > i &+ 1 {
                        current = next.code
                        runIndex = clearCode
                        i = next.end
                        continue
                    }
                    current = index
                    runIndex = index
                    runLength = 1
                    i &+= 1
                    continue
                }
                let index = Int(byte & mask)
                i &+= 1
                let key = current &<< shift | index
                let child = children[key]
                if child != 0 {
                    current = Int(child)
                    if index == runIndex {
                        runLength &+= 1
                        // Eight more of this byte (with no other choice): the whole run at once.
                        let eight = 0x0101_0101_0101_0101 &* UInt64(byte)
                        if i &+ 8 <= count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == eight,
                           Self.sameAsPixels(other, raw, at: i) {
                            var length = 8
                            while i &+ length &+ 32 <= count, Self.thirtyTwo(eight, raw, other, at: i &+ length) {
                                length &+= 32
                            }
                            while i &+ length &+ 8 <= count,
                                  raw.loadUnaligned(fromByteOffset: i &+ length, as: UInt64.self) == eight,
                                  Self.sameAsPixels(other, raw, at: i &+ length) {
                                length &+= 8
                            }
                            while i &+ length < count, base[i &+ length] == byte,
                                  other.map({ $0[i &+ length] == byte }) ?? true { length &+= 1 }
                            i &+= length
                            runLength = extendRun(of: index, from: runLength, by: length)
                            current = Int(runs[index &<< 12 | runLength])
                        }
                    } else {
                        runIndex = clearCode
                    }
                    continue
                }
                write(current, adding: key)
                current = index
                runIndex = index
                runLength = 1
            }
            put(current)
        }
        put(clearCode + 1)
        clearDictionary()
        return writer.finish()
    }

    /// Whether the 32 pixels at `offset`, and their alternatives (if any), are all the
    /// byte repeated in `eight`: the run's 8-byte steps, four at a time, with one test.
    /// Most of snow's frame is one transparent run around a few thousand flakes: 8 pixels
    /// a step, this loop cost 0.35 G instructions of snow's GIF render, 0.26 G now (issue 42).
    @inline(__always)
    private static func thirtyTwo(_ eight: UInt64, _ pixels: UnsafeRawPointer, _ other: UnsafePointer<UInt8>?,
                                  at offset: Int) -> Bool {
        var differing = (pixels.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ eight)
            | (pixels.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self) ^ eight)
            | (pixels.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self) ^ eight)
            | (pixels.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self) ^ eight)
        if let other {
            let raw = UnsafeRawPointer(other)
            differing |= (raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ eight)
                | (raw.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self) ^ eight)
                | (raw.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self) ^ eight)
                | (raw.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self) ^ eight)
        }
        return differing == 0
    }

    /// Whether the eight alternatives at `offset` are the pixels there (or there are none).
    @inline(__always)
    private static func sameAsPixels(_ other: UnsafePointer<UInt8>?, _ pixels: UnsafeRawPointer, at offset: Int) -> Bool {
        guard let other else { return true }
        return UnsafeRawPointer(other).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            == pixels.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// How many branches one ``longestMatch(from:at:run:runLength:)`` keeps to follow, and
    /// how many pixel steps an image may spend on them: at most its pixels, so the search
    /// stays within a few times giflib's work whatever the image. Larger (64 and 4) made
    /// ten gallery scenes' GIFs only 0.05 % smaller.
    static let branchLimit = 8
    static let branchStepsPerPixel = 1

    /// The longest string the dictionary holds that extends the string `code` with the
    /// pixels from `start` on, each pixel as itself or its alternative: its code and the
    /// position after it. LZW's own choice (the longest string) made over both readings:
    /// the pixels themselves first (an alternative where they end), then the branches an
    /// alternative opened, depth first, while ``branchSteps`` last; ties keep the first
    /// found. Never shorter than the pixels' own string. While the string is `run`
    /// repeated `runLength` times (-1: not a run) and the pixels repeat it, it goes to the
    /// longest such run held in one step, as the main loop does: walked pixel by pixel,
    /// the search cost 6.6 times giflib's dictionary lookups on ten gallery scenes, with
    /// runs 2.8 times, for GIFs 0.03 % larger.
    private mutating func longestMatch(from code: Int, at start: Int, run: Int = -1,
                                       runLength: Int = 0) -> (code: Int, end: Int) {
        let mask = clearCode &- 1, shift = minimumCodeSize, count = pixels.count
        var bestCode = code, bestEnd = start
        var c = code, p = start, pending = 0, first = true
        // While `c` is one index repeated: that index and how often; else -1.
        var runIndex = run, runLength = runLength
        let rawPixels = UnsafeRawBufferPointer(pixels)
        while true {
            while p < count {
                let a = Int(pixels[p]) & mask, b = Int(alternatives[p]) & mask
                if a == runIndex {
                    // More of the run: to the longest run held at once, as the pixels' own.
                    let longest = Int(runs[a &<< 12])
                    if runLength < longest {
                        var length = 1
                        // Eight pixels a step first: a pixel a step, the search cost
                        // 0.46 G instructions of snow's GIF render (0.12 G now; issue 42).
                        let eight = UInt64(a) &* 0x0101_0101_0101_0101
                        let eightMasks = UInt64(mask) &* 0x0101_0101_0101_0101
                        while p &+ length &+ 8 <= count, runLength &+ length &+ 8 <= longest,
                              rawPixels.loadUnaligned(fromByteOffset: p &+ length, as: UInt64.self) & eightMasks == eight {
                            length &+= 8
                        }
                        while p &+ length < count, runLength &+ length < longest,
                              Int(pixels[p &+ length]) & mask == a { length &+= 1 }
                        runLength &+= length
                        c = Int(runs[a &<< 12 | runLength])
                        p &+= length
                        if !first { branchSteps &-= 1 }
                        continue
                    }
                }
                let viaA = Int(children[c &<< shift | a])
                if a != b {
                    let viaB = Int(children[c &<< shift | b])
                    if viaB != 0 {
                        if viaA == 0 {
                            c = viaB; p &+= 1
                            if b == runIndex { runLength &+= 1 } else { runIndex = -1 }
                            if !first { branchSteps &-= 1 }
                            continue
                        }
                        if pending < Self.branchLimit, branchSteps > 0 {
                            branches[2 &* pending] = viaB
                            branches[2 &* pending &+ 1] = p &+ 1
                            pending &+= 1
                        }
                    }
                }
                if viaA == 0 { break }
                c = viaA; p &+= 1
                if a == runIndex { runLength &+= 1 } else { runIndex = -1 }
                if !first { branchSteps &-= 1 }
            }
            if p > bestEnd { bestEnd = p; bestCode = c }
            guard pending > 0, branchSteps > 0 else { break }
            pending &-= 1
            c = branches[2 &* pending]; p = branches[2 &* pending &+ 1]
            runIndex = -1
            first = false
        }
        return (bestCode, bestEnd)
    }

    /// The index a new string starts with at `i`, a pixel with an alternative: the one
    /// from which the dictionary holds the longer string on (the pixel's own on a tie),
    /// and that string (valid while no code is taken away: not after a restart).
    private mutating func startIndex(at i: Int) -> (index: Int, next: (code: Int, end: Int)) {
        let mask = clearCode &- 1
        let a = Int(pixels[i]) & mask, b = Int(alternatives[i]) & mask
        guard branchSteps > 0 else { return (a, (a, i &+ 1)) }
        let viaA = longestMatch(from: a, at: i &+ 1, run: a, runLength: 1)
        let viaB = longestMatch(from: b, at: i &+ 1, run: b, runLength: 1)
        return viaB.end > viaA.end ? (b, viaB) : (a, viaA)
    }

    /// giflib's steps for `length` more pixels of `index` after a string of `runLength` of
    /// them; the run length the string ends with. A step per code written: the string
    /// grows to the longest run held, which is written and one longer added (or the
    /// dictionary restarted), and the next pixel starts a string again.
    @inline(never)
    private mutating func extendRun(of index: Int, from runLength: Int, by length: Int) -> Int {
        let row = index &<< 12
        var runLength = runLength, length = length
        while true {
            let longest = Int(runs[row])
            if runLength &+ length <= longest { return runLength &+ length }
            length &-= longest &- runLength &+ 1
            let code = Int(runs[row | longest])
            write(code, adding: code &<< minimumCodeSize | index)
            runLength = 1
        }
    }

    /// Writes `code`, then gives the next code to the string at `key` (that string and the
    /// pixel after it) — or, when codes ran out, writes a clear code and starts the
    /// dictionary over, as giflib does, not adding `key`. Whether `key` was added.
    @inline(__always) @discardableResult
    private mutating func write(_ code: Int, adding key: Int) -> Bool {
        put(code)
        guard nextCode < GIFLZW.maxCode else {
            put(clearCode)
            restart()
            return false
        }
        add(key)
        return true
    }

    /// Assigns the next code to the string at `key` (prefix and index).
    @inline(__always)
    private mutating func add(_ key: Int) {
        let code = UInt16(truncatingIfNeeded: nextCode)
        children[key] = code
        filled[nextCode] = Int32(truncatingIfNeeded: key)
        // A prefix that is a run of the index (the longest held, since this is new) makes
        // this code the next longer run.
        let index = key & (clearCode &- 1), prefix = key &>> minimumCodeSize
        let row = index &<< 12, longest = Int(runs[row])
        if Int(runs[row | longest]) == prefix {
            runs[row | (longest &+ 1)] = code
            runs[row] = UInt16(truncatingIfNeeded: longest &+ 1)
        }
        nextCode &+= 1
    }

    /// Writes `code` at the current width, then widens as giflib's `EGifCompressOutput` does.
    @inline(__always)
    private mutating func put(_ code: Int) {
        writer.put(code, width: width)
        if nextCode >= widthLimit {
            width &+= 1
            widthLimit &<<= 1
        }
    }

    private mutating func restart() {
        clearDictionary()
        resetRuns()
        nextCode = clearCode + 2
        width = minimumCodeSize + 1
        widthLimit = 1 << width
    }

    private func clearDictionary() {
        for code in (clearCode + 2)..<nextCode { children[Int(filled[code])] = 0 }
    }

    /// Each index alone is its only run.
    private func resetRuns() {
        for index in 0..<clearCode {
            runs[index << 12] = 1
            runs[index << 12 | 1] = UInt16(truncatingIfNeeded: index)
        }
    }
}

/// Packs codes least significant bit first into GIF data sub-blocks, leaving a slot for
/// each block's length byte.
private struct SubBlockWriter {
    let output: UnsafeMutableBufferPointer<UInt8>
    private var bits: UInt64 = 0
    private var bitCount = 0
    /// Where the current block's length byte goes.
    private var blockStart = 0
    private var position = 1

    init(output: UnsafeMutableBufferPointer<UInt8>) { self.output = output }

    @inline(__always)
    mutating func put(_ code: Int, width: Int) {
        bits |= UInt64(truncatingIfNeeded: code) &<< UInt64(bitCount)
        bitCount &+= width
        while bitCount >= 8 {
            putByte(UInt8(truncatingIfNeeded: bits))
            bits &>>= 8
            bitCount &-= 8
        }
    }

    @inline(__always)
    private mutating func putByte(_ byte: UInt8) {
        output[position] = byte
        position &+= 1
        if position &- blockStart == 256 {
            output[blockStart] = 255
            blockStart = position
            position &+= 1
        }
    }

    /// Writes the last bits and the last block's length; the byte count.
    mutating func finish() -> Int {
        while bitCount > 0 {
            putByte(UInt8(truncatingIfNeeded: bits))
            bits &>>= 8
            bitCount -= 8
        }
        bitCount = 0
        let length = position - blockStart - 1
        guard length > 0 else { return blockStart }
        output[blockStart] = UInt8(length)
        return position
    }
}
