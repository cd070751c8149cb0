/// The colours a ``ColorCounts`` table counted, each with its pixels: what the palette of
/// a scene of few colours is chosen from (``GIFPaletteBuilder/palette()``), and what the
/// entries left over in a scene of many colours go to.
struct CountedColors {
    /// Each colour as its table word (straight opaque RGBA, red lowest), in table order.
    let words: [UInt32]
    /// Each colour's channels: red, green, blue and 0.
    let channels: [SIMD4<Int32>]
    /// Each colour's pixels.
    let weights: [Int]

    init(words: [UInt32], weights: [Int]) {
        precondition(words.count == weights.count, "one weight a colour")
        self.words = words
        self.weights = weights
        channels = words.map { SIMD4(Int32($0 & 0xFF), Int32($0 >> 8 & 0xFF), Int32($0 >> 16 & 0xFF), 0) }
    }

    var count: Int { words.count }

    /// The palette of a scene of few colours: `flat` (exact and fixed), then `room`
    /// entries from ``worstMatched(by:adding:spacing:)``, ``centred(_:fixed:)``.
    ///
    /// Where colours outnumber entries, the greedy choice also spends entries on shades a
    /// level or two from one already chosen — the antialiased fringe of a heavy colour,
    /// whose pixels each err by a level — and a picture drawn with shades that close
    /// costs LZW more: its edges come out in more distinct indices. So it is made again
    /// with the entries at least ``spacings`` apart, widening while the palette errs no
    /// more (over the counted colours, after centring) than the unspaced one, and the
    /// widest such is kept. On noise-field at scale 2 that is spacing 6 (error 11.10 million
    /// against 11.36): its GIF 0.88× the bytes at +0.14 dB. Where spacing costs error
    /// (floating-bubble's 498 colours: 1.8× at spacing 3), the palette is as before.
    func palette(flat: [GIFColor], room: Int) -> [GIFColor] {
        var chosen = worstMatched(by: flat, adding: room)
        let unspaced = centred(flat + chosen, fixed: flat.count)
        guard count > flat.count + room else { return unspaced.palette }
        var best = unspaced.palette
        for spacing in Self.spacings {
            let wider = worstMatched(by: flat, adding: room, spacing: spacing)
            // The same colours chosen (no two were that close): the same palette.
            if wider == chosen { continue }
            chosen = wider
            let spaced = centred(flat + wider, fixed: flat.count)
            // Stop at the first that errs more: on the 58 gallery scenes at scale 2 that
            // chooses as trying every spacing does (the error is not always monotone in
            // the spacing: flow-menu 0.997, 0.984, 0.975, then 1.076 of the unspaced).
            guard spaced.error <= unspaced.error else { break }
            best = spaced.palette
        }
        return best
    }

    /// The least squared RGB distances between a new entry and those before it that
    /// ``palette(flat:room:)`` tries, ascending.
    static let spacings = [3, 6, 12, 24]

    /// Up to `room` counted colours not in `palette`, chosen one at a time as the colour
    /// whose pixels err most against the palette so far (pixels × squared RGB distance
    /// to the nearest entry) among those at least `spacing` (squared RGB distance) from
    /// every entry; none once every counted colour is matched exactly, or none is far
    /// enough.
    func worstMatched(by palette: [GIFColor], adding room: Int, spacing: Int = 0) -> [GIFColor] {
        guard room > 0 else { return [] }
        let minimum = max(1, spacing)
        var nearest = channels.map { c in
            palette.reduce(Int.max) { min($0, Int(Self.distance(c, Self.channels($1)))) }
        }
        var added: [GIFColor] = []
        while added.count < room {
            var best = -1, bestError = 0
            for i in words.indices where nearest[i] >= minimum {
                let error = nearest[i] == Int.max ? Int.max : weights[i] * nearest[i]
                // Ties go to the smaller word: the table's order must not choose.
                if error > bestError || (error == bestError && error > 0 && words[i] < words[best]) {
                    best = i; bestError = error
                }
            }
            guard best >= 0 else { break }
            let chosen = channels[best]
            added.append(Self.color(chosen))
            for i in words.indices { nearest[i] = min(nearest[i], Int(Self.distance(channels[i], chosen))) }
        }
        return added
    }

    /// `palette` with each entry after the first `fixed` moved to the centre (the mean,
    /// weighted by pixels, rounded) of the counted colours nearest it, again while any
    /// moves (Lloyd's steps, at most ``centringRounds``), and the error over the counted
    /// colours then (pixels × squared RGB distance to the nearest entry, summed). The
    /// same entries when every counted colour has one. Where colours outnumber entries,
    /// an entry chosen as one exact colour stands for its neighbours too, and their
    /// centre errs less over all of them (noise-field at scale 2, 255 entries: 62.45 →
    /// 62.94 dB for the same bytes). The first `fixed` (the flat colours, which cover
    /// the most pixels) stay exact.
    func centred(_ palette: [GIFColor], fixed: Int) -> (palette: [GIFColor], error: Int) {
        guard !palette.isEmpty else { return ([], count == 0 ? 0 : .max) }
        var entries = palette.map(Self.channels)
        let movable = palette.count > fixed && count > palette.count
        for round in 0...Self.centringRounds {
            let nearest = NearestEntry(entries)
            var sums = [SIMD4<Int>](repeating: .zero, count: entries.count)
            var totals = [Int](repeating: 0, count: entries.count)
            var error = 0
            for (c, weight) in zip(channels, weights) {
                let (k, distance) = nearest.find(c)
                error &+= Int(distance) &* weight
                sums[k] &+= SIMD4(truncatingIfNeeded: c) &* weight
                totals[k] &+= weight
            }
            var moved = false
            if movable, round < Self.centringRounds {
                for k in fixed..<entries.count where totals[k] > 0 {
                    let centre = SIMD4<Int32>(truncatingIfNeeded: (sums[k] &+ totals[k] / 2) / totals[k])
                    if centre != entries[k] { entries[k] = centre; moved = true }
                }
            }
            if !moved { return (entries.map(Self.color), error) }
        }
        preconditionFailure("the last round moves nothing")
    }

    /// At most this many rounds of ``centred(_:fixed:)``: most of the gain comes in the
    /// first (noise-field: 62.45 → 62.78 dB after one, 62.94 after eight).
    static let centringRounds = 8

    static func channels(_ c: GIFColor) -> SIMD4<Int32> { SIMD4(Int32(c.red), Int32(c.green), Int32(c.blue), 0) }

    static func color(_ c: SIMD4<Int32>) -> GIFColor {
        GIFColor(red: UInt8(clamping: c.x), green: UInt8(clamping: c.y), blue: UInt8(clamping: c.z))
    }

    @inline(__always)
    static func distance(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> Int32 {
        let d = a &- b
        return (d &* d).wrappedSum()
    }
}

/// The nearest of up to a few hundred palette entries to a colour, eight entries at a
/// time (``CountedColors/centred(_:fixed:)`` asks once per counted colour a round: up to
/// 65,536 colours against 255 entries).
struct NearestEntry {
    private var red: [SIMD8<Int32>] = [], green: [SIMD8<Int32>] = [], blue: [SIMD8<Int32>] = []

    /// Lanes past the entries hold a colour farther than any channel can be (a squared
    /// distance of 3 × 1000², no overflow), so they are never nearest.
    init(_ entries: [SIMD4<Int32>]) {
        let far = SIMD4<Int32>(1000, 1000, 1000, 0)
        for start in stride(from: 0, to: entries.count, by: 8) {
            var r = SIMD8<Int32>(repeating: far.x), g = r, b = r
            for lane in 0..<min(8, entries.count - start) {
                r[lane] = entries[start + lane].x; g[lane] = entries[start + lane].y; b[lane] = entries[start + lane].z
            }
            red.append(r); green.append(g); blue.append(b)
        }
    }

    /// The index of the entry nearest `c` (the first of equals) and its squared RGB
    /// distance; (0, Int32.max) with no entries.
    func find(_ c: SIMD4<Int32>) -> (index: Int, distance: Int32) {
        var best = SIMD8<Int32>(repeating: .max), bestIndex = SIMD8<Int32>(repeating: 0)
        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        for block in red.indices {
            let dr = red[block] &- c.x, dg = green[block] &- c.y, db = blue[block] &- c.z
            let distance = dr &* dr &+ dg &* dg &+ db &* db
            // Strictly nearer only: each lane keeps the first of its equals.
            let nearer = distance .< best
            best.replace(with: distance, where: nearer)
            bestIndex.replace(with: lanes &+ Int32(truncatingIfNeeded: block &* 8), where: nearer)
        }
        let minimum = best.min()
        let first = (bestIndex.replacing(with: .max, where: best .!= minimum)).min()
        return minimum == .max ? (0, .max) : (Int(first), minimum)
    }
}
