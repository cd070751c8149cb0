/// Writes an animated GIF frame by frame, in order, to a path that receives the file
/// only once ``finish()`` succeeds.
///
/// Frames come from ``GIFFramePreparer`` (which may run on many threads); the writer is
/// used from one thread. Any error, ``cancel()``, or dropping the writer unfinished
/// removes the temporary file and leaves the destination as it was.
public final class GIFWriter {
    public let path: String
    public let width: Int
    public let height: Int
    public let options: GIFOptions
    private var file: AtomicFile?
    /// Created with the header: at once for a shared palette, else with the first frame,
    /// whose colours become the global colour table.
    private var encoder: GifEncoder?
    /// False once finished or cancelled.
    private var isOpen = true
    /// The global colour table's entries (0xRRGGBB → index) and its transparent index,
    /// when the first frame's colours became it (per-frame palettes).
    private var globalIndices: [UInt32: UInt8] = [:]
    private var globalTransparent = 0
    /// What each canvas pixel shows after the frames written so far, as 0xFFRRGGBB, or 0
    /// where nothing was drawn yet; allocated by the first opaque frame.
    private var displayed: [UInt32] = []
    /// Beside `displayed`: the shared palette's index each pixel shows, or 255 where that
    /// is not known (nothing drawn yet, or drawn by a frame with its own table).
    private var displayedIndex: [UInt8] = []
    /// Bits of the global colour table's size (giflib's `BitsPerPixel`), nil without one.
    private var globalTableBits: Int?
    /// Where frames are compressed on worker threads (nil: on the caller's, in ``write``).
    private var compression: GIFCompressionQueue<PendingFrame>?
    /// Threads a frame's rows may be decided on at once (``RowBands``): the writer's own
    /// `jobs`. Rows are decided independently, so the bytes are the same for any count.
    private let rowJobs: Int

    /// A frame decided and waiting in ``compression`` for its image data.
    private struct PendingFrame {
        var frame: PreparedGIFFrame
        var transparentIndex: Int
        var tableSize: Int
        var delayCentiseconds: Int
        var alternatives: [UInt8]?
        var bitsPerPixel: Int
    }

    /// The hidden file being written until ``finish()`` or ``cancel()``, then nil — for a
    /// signal handler that must remove it when the process is interrupted.
    public var temporaryPath: String? { file?.temporaryPath }

    /// Opens the temporary file. The header, screen descriptor and NETSCAPE2.0 loop
    /// extension follow at once with a shared palette as global colour table (if
    /// ``GIFOptions/palette`` is `.shared`), else with the first frame: with per-frame
    /// palettes, the first frame's colours become the global colour table, and every
    /// later frame whose colours are all in it is written without a local table (768
    /// bytes a frame at most; 13 % of flow-menu's GIF went to local tables before).
    ///
    /// With `jobs` above 1, frames are compressed (LZW) on up to `jobs` worker threads,
    /// that many frames in flight at most, and still written in order: the bytes are the
    /// same for any `jobs`.
    /// - Throws: ``EncodeError/cannotWrite(path:reason:)``, or `.invalidOptions` /
    ///   `.invalidImage` for bad options or a canvas outside 1…65535 pixels a side.
    public init(path: String, width: Int, height: Int, options: GIFOptions, jobs: Int = 1) throws(EncodeError) {
        try options.validate()
        if jobs > 1 { compression = GIFCompressionQueue(limit: jobs) }
        rowJobs = max(1, jobs)
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw .invalidImage(reason: "a GIF canvas must be 1…65535 pixels a side, not \(width)×\(height)")
        }
        self.path = path; self.width = width; self.height = height; self.options = options
        file = try AtomicFile(path: path)
        if case let .shared(palette) = options.palette {
            try start(globalPalette: palette.colors, tableSize: Self.tableSize(palette.colors.count + 1))
        }
    }

    /// Writes the header, with `globalPalette` (`tableSize` entries) as global colour table.
    private func start(globalPalette: [GIFColor]?, tableSize: Int) throws(EncodeError) {
        encoder = try GifEncoder(width: width, height: height, globalPalette: globalPalette,
                                 tableSize: tableSize, loopCount: options.loopCount)
        globalTableBits = globalPalette == nil ? nil : Self.bits(tableSize)
        try flush()
    }

    /// Appends `frame`, shown for `delayCentiseconds` (clamped to 0…65535; see
    /// ``GIFTiming``).
    /// - Throws: `.invalidImage` if the frame does not fit the canvas or lacks a palette,
    ///   ``EncodeError/cannotWrite(path:reason:)`` on I/O failure; either cancels the file.
    public func write(_ frame: PreparedGIFFrame, delayCentiseconds: Int) throws(EncodeError) {
        do throws(EncodeError) {
            let r = frame.rect
            guard r.x >= 0, r.y >= 0, r.width > 0, r.height > 0,
                  r.x + r.width <= width, r.y + r.height <= height else {
                throw .invalidImage(reason: "frame rectangle \(r) is outside the \(width)×\(height) canvas")
            }
            guard frame.indices.count == r.width * r.height else {
                throw .invalidImage(reason: "frame has \(frame.indices.count) pixels for a \(r.width)×\(r.height) rectangle")
            }
            if let palette = frame.localPalette, palette.count > 255 {
                throw .invalidImage(reason: "frame palette has \(palette.count) colours; at most 255 fit beside the transparent index")
            }
            if frame.localPalette == nil, case .perFrame = options.palette {
                throw .invalidImage(reason: "frame has no palette and the GIF has no shared palette")
            }
            guard isOpen else { throw .cannotWrite(path: path, reason: "writer already finished or cancelled") }
            var frame = frame
            let palette: [GIFColor]
            if let local = frame.localPalette {
                palette = local
            } else if case let .shared(shared) = options.palette {
                palette = shared.colors
            } else {
                palette = []
            }
            // With 255 colours every index is a colour or the transparent one: no scan.
            let checksIndices = palette.count < Int(PreparedGIFFrame.transparentIndex)
            let colors = palette.count
            func indexError() -> EncodeError {
                .invalidImage(reason: "frame uses a colour index beyond its \(colors)-colour palette")
            }
            let sourceRows = options.transparentBackground || frame.disposal != .doNotDispose ? nil
                : frame.sourcePixels.flatMap { Self.sourceRowStarts(of: frame, count: $0.count) }
            // The display check reads the indices band by band: it checks them there (below).
            if checksIndices, sourceRows == nil, Self.largestColorIndex(frame.indices) >= colors { throw indexError() }
            // A small shared table's transparent index follows its colours.
            let smallTable = frame.localPalette == nil && palette.count < Int(PreparedGIFFrame.transparentIndex)
            // Whether `displayed` and `displayedIndex` now hold what this frame shows, and
            // its pixels left transparent are `smallTable`'s index already.
            var tracked = false
            if let source = frame.sourcePixels, let sourceRows {
                // The palette as the display's words (0xFFRRGGBB), one for every index
                // (0 past the palette: no colour), so an index never reads past the table.
                let packed = palette.prefix(256).map { 0xFF00_0000 | Self.packed($0) }
                    + [UInt32](repeating: 0, count: 256 - min(palette.count, 256))
                let skipped = smallTable ? UInt8(palette.count) : PreparedGIFFrame.transparentIndex
                let (drawnSpans, largestIndex) = skipNearUnchanged(&frame, source: source, rowStarts: sourceRows,
                                                                   packed: packed, skipped: skipped,
                                                                   checksIndices: checksIndices)
                // The display is changed already, but the writer is cancelled with the error.
                if checksIndices, largestIndex >= colors { throw indexError() }
                bridgeRuns(&frame, packed: packed, transparent: skipped, drawnSpans: drawnSpans)
                tracked = true
            }
            // Not kept while the frame waits for its compression: the caller may hand the
            // buffer to a later frame (``AnimationWriter``).
            frame.sourcePixels = nil
            frame.sourceRows = nil
            var transparent = Int(PreparedGIFFrame.transparentIndex), tableSize = 256
            if smallTable {
                transparent = palette.count
                // The display check wrote it already (a pass over the indices fewer: 1.9 %
                // of snow's GIF render's instructions, issue 42).
                if !tracked {
                    GIFFramePreparer.replace(PreparedGIFFrame.transparentIndex, with: UInt8(transparent), in: &frame.indices)
                }
            } else if frame.localPalette != nil {
                (transparent, tableSize) = Self.compactPalette(&frame)
                if encoder == nil {
                    let colors = frame.localPalette ?? []
                    try start(globalPalette: colors, tableSize: tableSize)
                    for (i, c) in colors.enumerated() { globalIndices[Self.packed(c)] = UInt8(i) }
                    globalTransparent = transparent
                    frame.localPalette = nil
                } else if useGlobalPalette(&frame) {
                    transparent = globalTransparent
                }
            }
            if encoder == nil { try start(globalPalette: nil, tableSize: 256) }
            var alternatives: [UInt8]? = nil
            if tracked, frame.localPalette == nil, case .shared = options.palette {
                alternatives = shownIndices(of: frame, transparent: UInt8(transparent), colors: palette.count)
            }
            let delay = min(max(delayCentiseconds, 0), 65535)
            // giflib compresses for the local table's bits, else the global table's.
            if let compression, let bits = frame.localPalette != nil ? Self.bits(tableSize) : globalTableBits {
                let pending = PendingFrame(frame: frame, transparentIndex: transparent, tableSize: tableSize,
                                           delayCentiseconds: delay, alternatives: alternatives, bitsPerPixel: bits)
                if let done = compression.submit(frame.indices, alternatives: alternatives, bitsPerPixel: bits,
                                                 payload: pending) {
                    try put(done.payload, blocks: done.blocks)
                }
            } else {
                try drainCompression()
                try encoder!.put(frame, transparentIndex: transparent, tableSize: tableSize,
                                 delayCentiseconds: delay, alternatives: alternatives)
                try flush()
            }
        } catch {
            cancel()
            throw error
        }
    }

    /// Writes the trailer and renames the file into place.
    public func finish() throws(EncodeError) {
        do throws(EncodeError) {
            guard isOpen else { throw .cannotWrite(path: path, reason: "writer already finished or cancelled") }
            try drainCompression()
            if encoder == nil { try start(globalPalette: nil, tableSize: 256) }
            try encoder!.close()
            try flush()
            encoder = nil
            guard let done = file.take() else { throw .cannotWrite(path: path, reason: "writer already finished or cancelled") }
            try done.commit()
        } catch {
            cancel()
            throw error
        }
    }

    /// Abandons the GIF: removes the temporary file; the destination is untouched.
    /// Does nothing after ``finish()``.
    public func cancel() {
        isOpen = false
        compression?.discard()
        encoder = nil
        file = nil
    }

    deinit {
        cancel()
    }

    /// A changed pixel alone among transparent ones on its row (``isolation``), whose
    /// displayed colour is within this many levels of its new one, summed over the
    /// channels, stays transparent. Drawn, it splits a transparent run in three (LZW codes
    /// for a correction of one level), and an exact palette keeps such shades apart where
    /// a coarser one (ffmpeg's) maps both to one entry and leaves the pixel unchanged:
    /// on bubble-transition, where blending leaves static pixels a level off now and
    /// then, kinetic's frames had 40 % more runs than ffmpeg's. Skipping them took its GIF
    /// from 1.06× to 0.94× ffmpeg's size for 0.2 dB (issue 15). The error stays bounded:
    /// the display, not the previous frame, is compared. Summed, not a level in every
    /// channel: a pixel a level off in all three (a grey) is three times the error, and
    /// skipping those left replicator-reflection 0.22 dB under ffmpeg's PSNR; summed,
    /// it is 0.41 dB over, for GIFs 0–2 % larger (gravity-rotated), PSNR the same or
    /// higher on 57 of the 58 gallery scenes (bubble-transition −0.3 dB, still +2.8 over).
    static let isolatedPixelTolerance = 1

    /// How many pixels on each side of an isolated pixel are transparent (or beyond the
    /// rectangle). With 1, pixels changing sparsely over a large area (snap-demo's
    /// fading shadow) were left a level off by the thousand, taking it from +2.8 to
    /// −3.4 dB against ffmpeg; with 16 it keeps +2.1 dB and bubble-transition is 0.94×
    /// ffmpeg's size; with 64, bubble-transition was back over ffmpeg's size (1.004×).
    static let isolation = 16

    /// Whether the pixels within ``isolation`` of `x` on its row, before it (as already
    /// decided) and after it (as prepared), are all transparent, given the last pixel
    /// before `x` the row still draws (`lastDrawn`, -1 for none) and the first drawn
    /// one after it (`nextDrawn`, `width` for none): both are known in the loop, so the 32
    /// pixels around a changed pixel a level off its display are not read again (rope,
    /// whose gradient moves a level in many places: the display check 2.66 → 2.62 G
    /// instructions of its GIF render's 39.6 G; the rest is the per-pixel check itself).
    @inline(__always)
    private static func isAlone(_ x: Int, lastDrawn: Int, nextDrawn: Int, width: Int) -> Bool {
        (lastDrawn < 0 || x &- lastDrawn > isolation) && (nextDrawn >= width || nextDrawn &- x > isolation)
    }

    /// Marks transparent every drawn pixel of `frame` whose displayed colour is within
    /// ``GIFOptions/tolerance`` of its source colour or no farther from it than its
    /// palette colour — or within ``isolatedPixelTolerance`` (summed) when the pixel stands
    /// alone between transparent ones —, records the colours that do get drawn, and
    /// shrinks the rectangle to them.
    ///
    /// This runs here, in frame order, because only the writer knows what is on screen:
    /// the preparer (parallel) can compare only with the previous *source* frame, and
    /// skipping against that would let a slow drift of one level a frame go unseen for
    /// ever. Compared with the display instead, a pixel is redrawn as soon as it is more
    /// than the tolerance away from what it should show.
    /// Where each row of `frame`'s rectangle starts in its source colours (`count` bytes),
    /// in pixels, -1 for a row they leave out; nil when they do not fit the frame.
    static func sourceRowStarts(of frame: PreparedGIFFrame, count: Int) -> [Int]? {
        let r = frame.rect
        guard let rows = frame.sourceRows else {
            return count == frame.indices.count * 4 ? (0..<r.height).map { $0 * r.width } : nil
        }
        guard count == rows.count * r.width * 4, zip(rows, rows.dropFirst()).allSatisfy({ $0 < $1 }),
              rows.allSatisfy({ (0..<r.height).contains($0) }) else { return nil }
        var starts = [Int](repeating: -1, count: r.height)
        for (k, y) in rows.enumerated() { starts[y] = k * r.width }
        return starts
    }

    /// The pixels left transparent are written as `skipped` (the transparent index of the
    /// table the frame is written with), those transparent before included. Returns each
    /// row's first and last drawn pixel (two entries a row of the frame's new rectangle,
    /// the last -1 for a row drawing nothing), for ``bridgeRuns(_:packed:transparent:drawnSpans:)``,
    /// and, if `checksIndices`, the ``largestColorIndex(_:)`` of the indices as they came
    /// (else -1): found band by band, where it was the writer's one serial pass over them
    /// (issue 42).
    private func skipNearUnchanged(_ frame: inout PreparedGIFFrame, source: [UInt8], rowStarts: [Int], packed: [UInt32],
                                   skipped: UInt8, checksIndices: Bool) -> (spans: [Int], largestIndex: Int) {
        precondition(packed.count == 256)
        if displayed.isEmpty {
            displayed = [UInt32](repeating: 0, count: width * height)
            displayedIndex = [UInt8](repeating: 255, count: width * height)
        }
        // A frame's own table's indices mean nothing to later frames.
        let ownTable = frame.localPalette != nil
        let r = frame.rect, tolerance = Int32(clamping: options.tolerance), canvasWidth = width
        var left = r.width, right = -1, top = r.height, bottom = -1, largestIndex = -1
        // The decisions go to a buffer of their own, written once, pixel by pixel where
        // drawn and run by run where transparent: the frame's indices are shared with
        // the caller's frame, so changing them in place first copied them whole (1 MB a
        // frame on snow, 0.18 G instructions of its GIF render; issue 42).
        let count = frame.indices.count
        // The source of a row left out (see ``PreparedGIFFrame/sourceRows``).
        let noSource = [UInt8](repeating: 0, count: r.width * 4)
        var spans = [Int](repeating: -1, count: 2 * r.height)
        let decided = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            source.withUnsafeBytes { src in
              noSource.withUnsafeBytes { noSource in
                packed.withUnsafeBufferPointer { packed in
                    displayed.withUnsafeMutableBufferPointer { shown in
                      displayedIndex.withUnsafeMutableBufferPointer { shownIndex in
                        frame.indices.withUnsafeBufferPointer { indices in
                            guard let to = out.baseAddress, let indices = indices.baseAddress,
                                  let src = src.baseAddress ?? noSource.baseAddress, let noSource = noSource.baseAddress,
                                  let packed = packed.baseAddress,
                                  let shown = shown.baseAddress, let shownIndex = shownIndex.baseAddress else { return }
                            // Each band finds the drawn pixels' bounds of its rows.
                            let bands = RowBands(rows: r.height, width: r.width, jobs: rowJobs)
                            var found = [DrawnBounds](repeating: DrawnBounds(), count: bands.count)
                            spans.withUnsafeMutableBufferPointer { spans in
                            found.withUnsafeMutableBufferPointer { found in
                                bands.run { band, rows in
                                    var bounds = DrawnBounds()
                                    if checksIndices {
                                        bounds.largestIndex = Self.largestColorIndex(UnsafeRawBufferPointer(
                                            start: indices + rows.lowerBound &* r.width, count: rows.count &* r.width))
                                    }
                                    for y in rows {
                                        let row = (r.y + y) &* canvasWidth &+ r.x, start = y &* r.width
                                        let sourceStart = rowStarts[y]
                                        let drawn = Self.decideRow(
                                            indices + start, source: sourceStart < 0 ? noSource : src + sourceStart &* 4,
                                            packed: packed, shown: shown + row,
                                            shownIndex: shownIndex + row, ownTable: ownTable, tolerance: tolerance,
                                            width: r.width, skipped: skipped, into: to + start)
                                        bounds.add(drawn, row: y)
                                        spans[2 &* y] = drawn.first
                                        spans[2 &* y &+ 1] = drawn.last
                                    }
                                    found[band] = bounds
                                }
                            }
                            }
                            largestIndex = found.map(\.largestIndex).max() ?? -1
                            for bounds in found where bounds.right >= 0 {
                                left = min(left, bounds.left); right = max(right, bounds.right)
                                top = min(top, bounds.top); bottom = max(bottom, bounds.bottom)
                            }
                        }
                      }
                    }
                }
              }
            }
            initialized = count
        }
        frame.indices = decided
        guard right >= 0 else {
            frame.rect = GIFRect(x: 0, y: 0, width: 1, height: 1)
            frame.indices = [skipped]
            return ([0, -1], largestIndex)
        }
        guard left > 0 || top > 0 || right < r.width - 1 || bottom < r.height - 1 else { return (spans, largestIndex) }
        let w = right - left + 1, h = bottom - top + 1
        // Copied band by band: on the writer's thread alone this was a copy of the whole
        // frame, in frame order (4 MB on snow at scale 4; issue 42).
        frame.indices = [UInt8](unsafeUninitializedCapacity: w * h) { out, initialized in
            frame.indices.withUnsafeBufferPointer { indices in
                guard let from = indices.baseAddress, let to = out.baseAddress else { return }
                RowBands(rows: h, width: w, jobs: rowJobs).run { _, rows in
                    for y in rows { (to + y * w).initialize(from: from + (y + top) * r.width + left, count: w) }
                }
                initialized = w * h
            }
        }
        frame.rect = GIFRect(x: r.x + left, y: r.y + top, width: w, height: h)
        var cropSpans = [Int](repeating: -1, count: 2 * (bottom - top + 1))
        for y in top...bottom where spans[2 * y + 1] >= 0 {
            cropSpans[2 * (y - top)] = spans[2 * y] - left
            cropSpans[2 * (y - top) + 1] = spans[2 * y + 1] - left
        }
        return (cropSpans, largestIndex)
    }

    /// The first and last column and row with a drawn pixel among the rows of a band, and
    /// the largest colour index of its rows (-1 unless asked).
    private struct DrawnBounds {
        var left = Int.max, right = -1, top = Int.max, bottom = -1, largestIndex = -1

        /// Adds `drawn`, row `y`'s first and last drawn pixel (`last` -1: none); rows
        /// come in increasing order.
        mutating func add(_ drawn: (first: Int, last: Int), row y: Int) {
            guard drawn.last >= 0 else { return }
            left = min(left, drawn.first); right = max(right, drawn.last)
            top = min(top, y); bottom = y
        }
    }

    /// One row of ``skipNearUnchanged(_:source:rowStarts:packed:skipped:)``: writes to `decided`
    /// each of the row's `width` decisions (`indices`' index where drawn, `skipped` where
    /// left transparent), records drawn pixels in the display's row (`shown`, and `shownIndex`:
    /// 255 for a frame's own table) and returns the first and last pixel drawn
    /// (`(width, -1)` for none). `source` is the row's straight RGBA bytes.
    ///
    /// A function of its own, on pointers to the row: looping over the whole frame, the
    /// frame's and canvas's offsets and bounds stayed live across the per-pixel loop and
    /// half of its ~100 instructions a drawn pixel were spills (rope; issue 42). Per
    /// pixel, in wrapping 32-bit arithmetic on whole words: this loop was the batch's
    /// busiest of kinetic's own (7 %; 23 % of lock-screen, whose frames change everywhere).
    @inline(never)
    static func decideRow(_ indices: UnsafePointer<UInt8>, source: UnsafeRawPointer, packed: UnsafePointer<UInt32>,
                          shown: UnsafeMutablePointer<UInt32>, shownIndex: UnsafeMutablePointer<UInt8>,
                          ownTable: Bool, tolerance: Int32, width: Int, skipped: UInt8 = PreparedGIFFrame.transparentIndex,
                          into decided: UnsafeMutablePointer<UInt8>) -> (first: Int, last: Int) {
        // Specialized for 255, the index that needs no masking in ``decideFour`` (a full
        // table: rope's check took 1.5 % more instructions with the masking).
        let transparent = PreparedGIFFrame.transparentIndex
        return skipped == transparent
            ? decideRowBody(indices, source: source, packed: packed, shown: shown, shownIndex: shownIndex,
                            ownTable: ownTable, tolerance: tolerance, width: width, skipped: transparent, into: decided)
            : decideRowBody(indices, source: source, packed: packed, shown: shown, shownIndex: shownIndex,
                            ownTable: ownTable, tolerance: tolerance, width: width, skipped: skipped, into: decided)
    }

    @inline(__always)
    private static func decideRowBody(_ indices: UnsafePointer<UInt8>, source: UnsafeRawPointer,
                                      packed: UnsafePointer<UInt32>, shown: UnsafeMutablePointer<UInt32>,
                                      shownIndex: UnsafeMutablePointer<UInt8>, ownTable: Bool, tolerance: Int32,
                                      width: Int, skipped: UInt8,
                                      into decided: UnsafeMutablePointer<UInt8>) -> (first: Int, last: Int) {
        let row = UnsafeBufferPointer(start: indices, count: width)
        // Stored for every drawn pixel: 255 (no shared index) for a frame's own table.
        let ownTableMask: UInt8 = ownTable ? 255 : 0
        var first = width, last = -1
        var x = nextDrawn(row, row: 0, from: 0, width: width)
        if x > 0 { decided.initialize(repeating: skipped, count: x) }
        while x < width {
            // Four drawn pixels in a row (most of a frame where everything moves) are
            // decided together; with a tolerance, pixel by pixel below.
            if tolerance == 0, x &+ 4 <= width {
                let group = UnsafeRawPointer(indices + x).loadUnaligned(as: UInt32.self)
                // No byte of `group` is 255 (no zero byte in its complement).
                if (~group &- 0x0101_0101) & group & 0x8080_8080 == 0 {
                    let next = nextDrawn(row, row: 0, from: x &+ 4, width: width)
                    decideFour(group, at: x, source: source, packed: packed, shown: shown, shownIndex: shownIndex,
                               ownTableMask: ownTableMask, next: next, width: width, skipped: skipped, into: decided,
                               first: &first, last: &last)
                    if next &- x > 4 { (decided + (x &+ 4)).initialize(repeating: skipped, count: next &- x &- 4) }
                    x = next
                    continue
                }
            }
            // The next pixel to decide: this one's decision changes no pixel after it.
            let next = nextDrawn(row, row: 0, from: x &+ 1, width: width)
            // The transparent pixels up to it.
            if next &- x > 1 { (decided + (x &+ 1)).initialize(repeating: skipped, count: next &- x &- 1) }
            let index = indices[x]
            let d = shown[x], q = packed[Int(index)]
            // Drawn, it would show what is shown already (d == q), or it is near enough
            // (0: nothing shown yet, always drawn).
            if d == q || (d != 0 && keepsShown(d, instead: q, source: source.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self),
                                               at: x, lastDrawn: last, nextDrawn: next, width: width, tolerance: tolerance)) {
                decided[x] = skipped
            } else {
                decided[x] = index
                shown[x] = q
                shownIndex[x] = index | ownTableMask
                if last < 0 { first = x }
                last = x
            }
            x = next
        }
        return (first, last)
    }

    /// ``decideRow``'s rule for the four drawn pixels at `x` (their indices `group`, the
    /// first lowest) at once: what is shown, the palette colours and the source as
    /// vectors of four words, the squared errors as four lanes, and the decisions,
    /// display and indices written a word or a vector at a time. The isolation test is
    /// left to ``keepsShown`` for the last pixel alone: the others have a drawn pixel
    /// right after them, and the last only when the three before it stay transparent.
    /// One pixel at a time the check cost about 60 instructions a drawn pixel, rope's
    /// whole GIF 2.0 G of its 22 G (issue 42). Only with tolerance 0 (the default).
    @inline(__always)
    private static func decideFour(_ group: UInt32, at x: Int, source: UnsafeRawPointer, packed: UnsafePointer<UInt32>,
                                   shown: UnsafeMutablePointer<UInt32>, shownIndex: UnsafeMutablePointer<UInt8>,
                                   ownTableMask: UInt8, next: Int, width: Int, skipped: UInt8,
                                   into decided: UnsafeMutablePointer<UInt8>, first: inout Int, last: inout Int) {
        let d = UnsafeRawPointer(shown + x).loadUnaligned(as: SIMD4<Int32>.self)
        let q = SIMD4<Int32>(Int32(bitPattern: packed[Int(group & 0xFF)]),
                             Int32(bitPattern: packed[Int((group >> 8) & 0xFF)]),
                             Int32(bitPattern: packed[Int((group >> 16) & 0xFF)]),
                             Int32(bitPattern: packed[Int(group >> 24)]))
        let c = source.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<Int32>.self)
        let byte = SIMD4<Int32>(repeating: 0xFF)
        // Source channels: red lowest. Display and palette words: 0xFFRRGGBB.
        let sr = c & byte, sg = (c &>> 8) & byte, sb = (c &>> 16) & byte
        let dr = ((d &>> 16) & byte) &- sr, dg = ((d &>> 8) & byte) &- sg, db = (d & byte) &- sb
        let qr = ((q &>> 16) & byte) &- sr, qg = ((q &>> 8) & byte) &- sg, qb = (q & byte) &- sb
        let dError = dr &* dr &+ dg &* dg &+ db &* db, qError = qr &* qr &+ qg &* qg &+ qb &* qb
        let zero = SIMD4<Int32>(repeating: 0)
        var keeps = (d .== q) .| ((d .!= zero) .& (dError .<= qError))
        // A byte of 255 for each pixel kept transparent, 0 for each drawn.
        var keptBytes = UInt32(bitPattern: zero.replacing(with: SIMD4(0xFF, 0xFF00, 0xFF_0000, -0x100_0000),
                                                          where: keeps).wrappedSum())
        if keptBytes == 0x00FF_FFFF, d[3] != 0,
           keepsShown(UInt32(bitPattern: d[3]), instead: UInt32(bitPattern: q[3]),
                      source: UInt32(bitPattern: c[3]), at: x &+ 3, lastDrawn: last, nextDrawn: next,
                      width: width, tolerance: 0) {
            keeps[3] = true
            keptBytes = 0xFFFF_FFFF
        }
        let skippedBytes = UInt32(skipped) &* 0x0101_0101 & keptBytes
        UnsafeMutableRawPointer(decided + x).storeBytes(of: group & ~keptBytes | skippedBytes, as: UInt32.self)
        let drawnBytes = ~keptBytes
        guard drawnBytes != 0 else { return }
        UnsafeMutableRawPointer(shown + x).storeBytes(of: q.replacing(with: d, where: keeps), as: SIMD4<Int32>.self)
        let indexWord = UnsafeMutableRawPointer(shownIndex + x)
        let ownTableWord = UInt32(ownTableMask) &* 0x0101_0101
        indexWord.storeBytes(of: (indexWord.loadUnaligned(as: UInt32.self) & keptBytes)
                                 | ((group | ownTableWord) & drawnBytes), as: UInt32.self)
        if last < 0 { first = x &+ drawnBytes.trailingZeroBitCount / 8 }
        last = x &+ (31 &- drawnBytes.leadingZeroBitCount) / 8
    }

    /// Whether a pixel whose source colour is `source` (straight RGBA bytes, little-endian:
    /// red lowest) may keep showing `shown` (0xFFRRGGBB) instead of `palette`: no farther
    /// from the source, within the tolerance in every channel, or within
    /// ``isolatedPixelTolerance`` (summed) when alone on its row (``isAlone``).
    @inline(__always)
    private static func keepsShown(_ shown: UInt32, instead palette: UInt32, source c: UInt32,
                                   at x: Int, lastDrawn: Int, nextDrawn: Int, width: Int, tolerance: Int32) -> Bool {
        let sr = Int32(c & 0xFF), sg = Int32((c >> 8) & 0xFF), sb = Int32((c >> 16) & 0xFF)
        let dr = Int32((shown >> 16) & 0xFF) &- sr
        let dg = Int32((shown >> 8) & 0xFF) &- sg
        let db = Int32(shown & 0xFF) &- sb
        let qr = Int32((palette >> 16) & 0xFF) &- sr
        let qg = Int32((palette >> 8) & 0xFF) &- sg
        let qb = Int32(palette & 0xFF) &- sb
        // The squared errors first, then the rarer tests: the tolerance (0 by default,
        // where an error within it is 0 and passes the first already) and the isolation.
        // Testing the greatest channel error first kept twice the values in registers.
        return dr &* dr &+ dg &* dg &+ db &* db <= qr &* qr &+ qg &* qg &+ qb &* qb
            || (tolerance > 0 && max(magnitude(dr), magnitude(dg), magnitude(db)) <= tolerance)
            || (isAlone(x, lastDrawn: lastDrawn, nextDrawn: nextDrawn, width: width)
                && magnitude(dr) &+ magnitude(dg) &+ magnitude(db) <= Int32(isolatedPixelTolerance))
    }

    /// |d| for a difference of channel values (−255…255).
    @inline(__always)
    private static func magnitude(_ d: Int32) -> Int32 {
        d < 0 ? 0 &- d : d
    }

    /// The first pixel at or after `x` on the row of `indices` starting at `start`
    /// (`width` pixels) that is not `transparent`, or `width`. Most of a changed rectangle
    /// stays transparent (unchanged pixels), so runs of it are stepped over 8 at a time.
    private static func nextDrawn(_ indices: UnsafeBufferPointer<UInt8>, row start: Int, from x: Int, width: Int,
                                  transparent: UInt8 = PreparedGIFFrame.transparentIndex) -> Int {
        let eightTransparent = UInt64(transparent) &* 0x0101_0101_0101_0101
        // Where most pixels change, the next one is drawn: tell that first.
        if x < width, indices[start &+ x] != transparent { return x }
        let raw = UnsafeRawBufferPointer(indices)
        var x = x
        // 32 at a time first: this skip, 8 at a time, was most of the writer's own time
        // on snow, whose rectangle is the whole canvas around a few thousand flakes.
        while x &+ 32 <= width {
            let o = start &+ x
            let differing = (raw.loadUnaligned(fromByteOffset: o, as: UInt64.self) ^ eightTransparent)
                | (raw.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self) ^ eightTransparent)
                | (raw.loadUnaligned(fromByteOffset: o &+ 16, as: UInt64.self) ^ eightTransparent)
                | (raw.loadUnaligned(fromByteOffset: o &+ 24, as: UInt64.self) ^ eightTransparent)
            guard differing == 0 else { break }
            x &+= 32
        }
        while x + 8 <= width, raw.loadUnaligned(fromByteOffset: start + x, as: UInt64.self) == eightTransparent { x += 8 }
        while x < width, indices[start + x] == transparent { x += 1 }
        return x
    }

    /// The first pixel at or after `x` on the row of `indices` starting at `start`
    /// (`width` pixels) that is `transparent`, or `width`: runs of drawn pixels (most of a
    /// frame where everything moves) are stepped over 8 at a time.
    private static func nextTransparent(_ indices: UnsafeBufferPointer<UInt8>, row start: Int, from x: Int, width: Int,
                                        transparent: UInt8 = PreparedGIFFrame.transparentIndex) -> Int {
        let eightTransparent = UInt64(transparent) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawBufferPointer(indices)
        var x = x
        // Eight at a time while none of them is transparent (no zero byte in the word
        // xor the transparent index's).
        while x &+ 8 <= width {
            let word = raw.loadUnaligned(fromByteOffset: start &+ x, as: UInt64.self) ^ eightTransparent
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            x &+= 8
        }
        while x < width, indices[start &+ x] != transparent { x &+= 1 }
        return x
    }

    /// Gives the transparent pixels between two pixels of one index on a row that index
    /// too, when its colour is exactly what each of them shows: the picture stays the
    /// same, and one run codes shorter in LZW than two cut by transparent pixels (a
    /// background redrawn where a body was, around background that stayed). Only gaps
    /// closed by the same index: running on into the transparent pixels after a run
    /// made liquid-loader's GIF 1.3 % and elasticity's 0.5 % larger. Gaps alone made 50
    /// of the 58 gallery scenes' GIFs smaller at scale 2 (up to 6 %: replicator-squares
    /// 6.3 %, pull-refresh-spin 4.7 %), 8 larger by 0.1–0.5 % (tvos-card; issue 15).
    /// `transparent`: the index of the frame's transparent pixels; `drawnSpans`: each row's
    /// first and last drawn pixel (the last -1 for none), outside which a row has no gap
    /// to close: a snowfall's rows drawing nothing (three quarters of them) are not read
    /// (issue 42).
    private func bridgeRuns(_ frame: inout PreparedGIFFrame, packed: [UInt32], transparent: UInt8, drawnSpans: [Int]) {
        guard !displayed.isEmpty else { return }
        let r = frame.rect, canvasWidth = width
        precondition(drawnSpans.count == 2 * r.height)
        let bands = RowBands(rows: r.height, width: r.width, jobs: rowJobs)
        displayed.withUnsafeBufferPointer { shown in
            frame.indices.withUnsafeMutableBufferPointer { indices in
              bands.run { _, rows in
                for y in rows {
                    // A gap needs a drawn pixel on each side: from the first to the last.
                    let first = drawnSpans[2 * y], limit = drawnSpans[2 * y + 1] + 1
                    guard limit - first > 2 else { continue }
                    let row = (r.y + y) * canvasWidth + r.x, start = y * r.width
                    var x = first
                    while x < limit {
                        // Only a gap after a drawn pixel matters: to the last drawn pixel of this run.
                        let gap = Self.nextTransparent(UnsafeBufferPointer(indices), row: start, from: x + 1, width: limit,
                                                      transparent: transparent)
                        guard gap < limit else { break }
                        x = gap - 1
                        let index = indices[start + x]
                        let end = Self.nextDrawn(UnsafeBufferPointer(indices), row: start, from: gap, width: limit,
                                                 transparent: transparent)
                        // 0: an index past the palette, no colour to show.
                        if end > gap, end < limit, indices[start + end] == index, packed[Int(index)] != 0 {
                            let color = packed[Int(index)]
                            if (gap..<end).allSatisfy({ shown[row + $0] == color }) {
                                for j in gap..<end { indices[start + j] = index }
                            }
                        }
                        x = end
                    }
                }
              }
            }
        }
    }

    /// How far a transparent pixel may be from a drawn one, in the order LZW reads them
    /// (rows joined), to be offered to ``GIFLZW`` as the shared palette entry it shows —
    /// the same picture either way. Offered everywhere, the strings LZW found made
    /// lock-screen's GIF 0.9 % larger (runs far from drawn pixels code shortest as they
    /// are) and cost the most search; within 16, fireworks-button's GIF stayed over
    /// ffmpeg's; within 32 the 58 gallery GIFs came out 3.9 % smaller in all (56 smaller,
    /// up to 9.8 %; ping-transition 0.1 % larger), with the same frames (issue 15).
    static let defaultAlternativeReach = 32
    /// ``defaultAlternativeReach``; 0 offers no alternatives (for the tests, which compare).
    var alternativeReach = GIFWriter.defaultAlternativeReach

    /// For ``GIFLZW``: each pixel of `frame` as it is, but a transparent pixel within
    /// `alternativeReach` of a drawn one as the shared palette's index (below `colors`)
    /// of what it shows — the same picture either way; nil when no pixel has a choice.
    private func shownIndices(of frame: PreparedGIFFrame, transparent: UInt8, colors: Int) -> [UInt8]? {
        guard alternativeReach > 0 else { return nil }
        return displayedIndex.withUnsafeBufferPointer { shown in
            Self.offeredIndices(frame.indices, rect: frame.rect, shown: shown, canvasWidth: width,
                                transparent: transparent, colors: colors, reach: alternativeReach, jobs: rowJobs)
        }
    }

    /// `indices` (of `rect`, row after row) with each `transparent` pixel within `reach`
    /// of a drawn one, in that order (rows joined, as LZW reads them), made the index
    /// `shown` holds at its place on the canvas (`canvasWidth` a row) when that is below
    /// `colors`; nil when no pixel was. Written in one pass, window by window around the
    /// runs of drawn pixels and transparent between them: copying the indices whole
    /// first, and the rectangle's shown indices beside them, cost snow's GIF render 0.2 G
    /// instructions (1 MB each a frame; issue 42). On up to `jobs` threads, by bands of
    /// rows (``RowBands``): the same result.
    static func offeredIndices(_ indices: [UInt8], rect r: GIFRect, shown: UnsafeBufferPointer<UInt8>, canvasWidth: Int,
                               transparent: UInt8, colors: Int, reach: Int, jobs: Int = 1) -> [UInt8]? {
        let n = indices.count
        precondition(n == r.width * r.height && shown.count >= (r.y + r.height - 1) * canvasWidth + r.x + r.width)
        // A band of rows looks `reach` pixels past its ends for drawn pixels, and writes
        // its own pixels alone (``RowBands``).
        let bands = RowBands(rows: r.height, width: r.width, jobs: jobs)
        var offered = [Bool](repeating: false, count: bands.count)
        let result = [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
            indices.withUnsafeBufferPointer { indices in
                guard let to = out.baseAddress, let shownBase = shown.baseAddress else { return }
                offered.withUnsafeMutableBufferPointer { offered in
                    bands.run { band, rows in
                        let pixels = (rows.lowerBound * r.width)..<(rows.upperBound * r.width)
                        offered[band] = offer(indices, into: to, pixels: pixels, rect: r, shown: shownBase,
                                              canvasWidth: canvasWidth, transparent: transparent, colors: colors,
                                              reach: reach)
                    }
                }
            }
            initialized = n
        }
        return offered.contains(true) ? result : nil
    }

    /// ``offeredIndices(_:rect:shown:canvasWidth:transparent:colors:reach:jobs:)`` for the
    /// pixels `pixels` (whole rows), written to `to`; whether any pixel was offered.
    private static func offer(_ indices: UnsafeBufferPointer<UInt8>, into to: UnsafeMutablePointer<UInt8>,
                              pixels: Range<Int>, rect r: GIFRect, shown shownBase: UnsafePointer<UInt8>,
                              canvasWidth: Int, transparent: UInt8, colors: Int, reach: Int) -> Bool {
        let n = indices.count
        var offeredSome = false
        let transparents = SIMD16<UInt8>(repeating: transparent)
        let limit = SIMD16<UInt8>(repeating: UInt8(clamping: colors))
        let raw = UnsafeRawBufferPointer(indices), rawOut = UnsafeMutableRawPointer(to)
        let rawShown = UnsafeRawPointer(shownBase)
        // Every pixel of the band before `covered` is written; drawn pixels up to `reach`
        // before the band offer pixels in it.
        var covered = pixels.lowerBound, p = max(0, pixels.lowerBound - reach)
        while true {
            p = nextDrawn(indices, row: 0, from: p, width: n, transparent: transparent)
            guard p < n, p - reach < pixels.upperBound else { break }
            // A run of drawn pixels, p up to q, and the pixels within reach of it.
            let q = nextTransparent(indices, row: 0, from: p + 1, width: n, transparent: transparent)
            let low = max(covered, p - reach), high = min(pixels.upperBound, q + reach)
            // Out of reach of any drawn pixel: transparent as they are.
            if low > covered { (to + covered).initialize(repeating: transparent, count: low - covered) }
            // The window, row piece by row piece: `offset + j` is pixel j's place
            // on the canvas within a row of the rectangle.
            var j = low
            while j < high {
                let y = j / r.width
                let end = min(high, (y + 1) * r.width)
                let offset = (r.y + y) * canvasWidth + r.x - y * r.width
                while j + 16 <= end {
                    let ind = raw.loadUnaligned(fromByteOffset: j, as: SIMD16<UInt8>.self)
                    let sh = rawShown.loadUnaligned(fromByteOffset: offset + j, as: SIMD16<UInt8>.self)
                    let offered = (ind .== transparents) .& (sh .< limit)
                    rawOut.storeBytes(of: ind.replacing(with: sh, where: offered), toByteOffset: j,
                                      as: SIMD16<UInt8>.self)
                    if any(offered) { offeredSome = true }
                    j += 16
                }
                while j < end {
                    let s = shownBase[offset + j]
                    if indices[j] == transparent, Int(s) < colors {
                        to[j] = s
                        offeredSome = true
                    } else {
                        to[j] = indices[j]
                    }
                    j += 1
                }
            }
            covered = max(covered, high)
            p = q
        }
        if pixels.upperBound > covered {
            (to + covered).initialize(repeating: transparent, count: pixels.upperBound - covered)
        }
        return offeredSome
    }

    /// The largest index of `indices` other than the transparent one, or -1.
    /// Sixteen indices at a time: as a byte loop this check was 4.7 % of snow's GIF
    /// render, on the writer's sequential thread (issue 42). Each index plus one, wrapping,
    /// keeps the order of the colour indices and makes the transparent one (255) 0, the
    /// smallest: the largest of those, less one, is the answer, -1 included — one
    /// `pointwiseMax` a vector, where a mask of drawn indices beside it spilled to memory.
    static func largestColorIndex(_ indices: [UInt8]) -> Int {
        indices.withUnsafeBytes { largestColorIndex($0) }
    }

    /// ``largestColorIndex(_:)`` of the indices in `raw`.
    static func largestColorIndex(_ raw: UnsafeRawBufferPointer) -> Int {
        let transparent = PreparedGIFFrame.transparentIndex
        precondition(transparent == 255, "the +1 trick needs the transparent index last")
        let one = SIMD16<UInt8>(repeating: 1)
        var a = SIMD16<UInt8>(repeating: 0), b = a
        var i = 0
        while i &+ 32 <= raw.count {
            // `replace(with:where:)`, not `pointwiseMax`: that was a generic call a
            // vector, not inlined (snow's writer 0.31 G → 0.21 G instructions).
            let c = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self) &+ one
            let d = raw.loadUnaligned(fromByteOffset: i &+ 16, as: SIMD16<UInt8>.self) &+ one
            a.replace(with: c, where: c .> a)
            b.replace(with: d, where: d .> b)
            i &+= 32
        }
        a.replace(with: b, where: b .> a)
        var largest = a.max()
        while i < raw.count {
            largest = max(largest, raw[i] &+ 1)
            i &+= 1
        }
        return Int(largest) - 1
    }

    /// Rewrites a compacted `frame` to the global colour table if that holds every colour
    /// it uses (dropping its local table); false, leaving it as it was, otherwise.
    private func useGlobalPalette(_ frame: inout PreparedGIFFrame) -> Bool {
        guard let colors = frame.localPalette else { return false }
        var translation: [UInt8] = []
        translation.reserveCapacity(colors.count + 1)
        for color in colors {
            guard let index = globalIndices[Self.packed(color)] else { return false }
            translation.append(index)
        }
        translation.append(UInt8(globalTransparent))  // the local transparent index is colors.count
        translation.withUnsafeBufferPointer { translation in
            frame.indices.withUnsafeMutableBufferPointer { indices in
                for i in indices.indices { indices[i] = translation[Int(indices[i])] }
            }
        }
        frame.localPalette = nil
        return true
    }

    private static func packed(_ c: GIFColor) -> UInt32 {
        UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)
    }

    /// Drops the local palette's unused colours and moves the transparent index right
    /// after the used ones; returns it and the colour table size, the smallest power of
    /// two (2…256) that holds both — a 256-entry table costs 768 bytes a frame.
    static func compactPalette(_ frame: inout PreparedGIFFrame) -> (transparentIndex: Int, tableSize: Int) {
        let palette = frame.localPalette ?? []
        var used = [Bool](repeating: false, count: 256)
        var translation = [UInt8](repeating: 0, count: 256)
        used.withUnsafeMutableBufferPointer { used in
            frame.indices.withUnsafeBufferPointer { for index in $0 { used[Int(index)] = true } }
        }
        var colors: [GIFColor] = []
        for (i, color) in palette.enumerated() where used[i] && i != Int(PreparedGIFFrame.transparentIndex) {
            translation[i] = UInt8(colors.count)
            colors.append(color)
        }
        let transparent = colors.count
        translation[Int(PreparedGIFFrame.transparentIndex)] = UInt8(transparent)
        translation.withUnsafeBufferPointer { translation in
            frame.indices.withUnsafeMutableBufferPointer { indices in
                for i in indices.indices { indices[i] = translation[Int(indices[i])] }
            }
        }
        frame.localPalette = colors
        return (transparent, tableSize(transparent + 1))
    }

    /// The smallest GIF colour table (a power of two, 2…256) with `entries` entries.
    static func tableSize(_ entries: Int) -> Int {
        var size = 2
        while size < entries { size *= 2 }
        return size
    }

    /// Writes a frame compressed by ``compression`` (in frame order).
    private func put(_ pending: PendingFrame, blocks: [UInt8]) throws(EncodeError) {
        guard encoder != nil else { throw .cannotWrite(path: path, reason: "writer already finished or cancelled") }
        try encoder!.put(pending.frame, transparentIndex: pending.transparentIndex, tableSize: pending.tableSize,
                         delayCentiseconds: pending.delayCentiseconds, alternatives: pending.alternatives,
                         compressed: (pending.bitsPerPixel, blocks))
        try flush()
    }

    /// Writes every frame still in ``compression``, in order.
    private func drainCompression() throws(EncodeError) {
        while let done = compression?.next() { try put(done.payload, blocks: done.blocks) }
    }

    /// giflib's `GifBitSize`: the bits of a colour table of `tableSize` entries (2…256).
    static func bits(_ tableSize: Int) -> Int {
        var bits = 1
        while 1 << bits < tableSize { bits += 1 }
        return bits
    }

    /// Moves what giflib produced so far to the file, so memory stays bounded.
    private func flush() throws(EncodeError) {
        guard encoder != nil, file != nil else { return }
        let bytes = encoder!.takeBytes()
        if !bytes.isEmpty { try file!.write(bytes) }
    }
}
