/// The palette entry nearest a colour: the opaque entry at the least squared RGB distance
/// (the error PSNR measures), the lowest index among equals, exactly what a search of
/// every entry returns.
///
/// Kept for a whole animation (one per thread remapping at a time, see
/// ``ImageQuant/Remapper``), so nothing is set up per frame or per band: libimagequant's
/// remap built its search tree on every call (0.67 M instructions, seven calls a frame
/// on snow). Colours fall in cells of 8 × 8 × 8 levels; a cell's candidates are the
/// entries that can be nearest to some colour in it (those no farther from the cell than
/// the farthest corner of the entry whose farthest corner is nearest), found the first
/// time a colour falls there. A small table of recent colours answers repeats (a flat
/// fill, an undithered gradient) without searching.
struct NearestPaletteEntry {
    /// The opaque entries as (red, green, blue, 0), and their palette indices.
    private let colors: [SIMD4<Int32>]
    private let indices: [UInt8]
    /// For each cell, `start << 8 | (count - 1)` of its candidates (positions in `colors`)
    /// in `candidates`, or `unsearched`.
    private var cells: [UInt32]
    private var candidates: [UInt8] = []
    /// Recent colours (24-bit, red lowest, `recentMiss` for none) and their entries.
    private var recentColors: [UInt32]
    private var recentEntries: [UInt8]

    private static let unsearched = UInt32.max
    private static let recentMiss = UInt32.max
    private static let recentCount = 4096

    /// - Parameter palette: its entries with alpha ≥ 128 are the opaque ones (at most 256).
    init(palette: [ImageQuant.Entry]) {
        let opaque = palette.indices.filter { palette[$0].a >= 128 }.prefix(256)
        colors = opaque.map { SIMD4(Int32(palette[$0].r), Int32(palette[$0].g), Int32(palette[$0].b), 0) }
        indices = opaque.map { UInt8($0) }
        cells = [UInt32](repeating: Self.unsearched, count: 32 * 32 * 32)
        recentColors = [UInt32](repeating: Self.recentMiss, count: Self.recentCount)
        recentEntries = [UInt8](repeating: 0, count: Self.recentCount)
    }

    /// Whether the palette has an opaque entry (else ``index(red:green:blue:)`` has no answer).
    var isEmpty: Bool { colors.isEmpty }

    /// The opaque entry of `palette` nearest (red, green, blue), each 0…255, as its index
    /// in `palette`.
    /// - Precondition: `!isEmpty`.
    @inline(__always)
    mutating func index(red: Int32, green: Int32, blue: Int32) -> UInt8 {
        index(key: UInt32(truncatingIfNeeded: red | green << 8 | blue << 16))
    }

    /// ``index(red:green:blue:)`` of the colour `key` (red lowest, 24 bits): a straight
    /// RGBA word's low three bytes.
    @inline(__always)
    mutating func index(key: UInt32) -> UInt8 {
        // A multiplicative hash of the 24 bits: neighbouring colours spread over the table.
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 20)
        if recentColors[slot] == key { return recentEntries[slot] }
        let found = search(SIMD4(Int32(key & 0xFF), Int32(key >> 8 & 0xFF), Int32(key >> 16 & 0xFF), 0))
        recentColors[slot] = key
        recentEntries[slot] = found
        return found
    }

    /// The search of ``index(red:green:blue:)`` past the recent colours.
    private mutating func search(_ color: SIMD4<Int32>) -> UInt8 {
        let cell = Int(truncatingIfNeeded: (color[0] >> 3) << 10 | (color[1] >> 3) << 5 | color[2] >> 3)
        if cells[cell] == Self.unsearched { cells[cell] = findCandidates(cell) }
        let start = Int(cells[cell] >> 8), count = Int(cells[cell] & 0xFF) + 1
        return colors.withUnsafeBufferPointer { colors in
            candidates.withUnsafeBufferPointer { candidates in
                var best = Int(candidates[start]), bestDistance = Int32.max
                for k in start..<(start &+ count) {
                    let position = Int(candidates[k])
                    let d = colors[position] &- color
                    let distance = (d &* d).wrappedSum()
                    // Candidates come in palette order: the first of equals stays.
                    if distance < bestDistance { (best, bestDistance) = (position, distance) }
                }
                return indices[best]
            }
        }
    }

    /// The candidates of `cell` appended to ``candidates``, as the cell's word.
    private mutating func findCandidates(_ cell: Int) -> UInt32 {
        let low = SIMD4<Int32>(Int32(cell >> 10 & 31), Int32(cell >> 5 & 31), Int32(cell & 31), 0) &* 8
        let high = low &+ SIMD4(7, 7, 7, 0)
        let zero = SIMD4<Int32>.zero
        // The least and the greatest squared distance from each entry to the cell's colours.
        let nearest = colors.map { c -> Int32 in
            let d = pointwiseMax(zero, pointwiseMax(low &- c, c &- high))
            return (d &* d).wrappedSum()
        }
        let farthest = colors.map { c -> Int32 in
            let d = pointwiseMax(c &- low, high &- c)
            return (d &* d).wrappedSum()
        }
        // Every colour of the cell has an entry within `bound`: one farther from the whole
        // cell can be nearest to none of them.
        let bound = farthest.min() ?? 0
        let start = UInt32(candidates.count)
        for position in colors.indices where nearest[position] <= bound { candidates.append(UInt8(position)) }
        return start << 8 | (UInt32(candidates.count) - start - 1)
    }
}
