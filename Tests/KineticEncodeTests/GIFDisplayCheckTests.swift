import KineticGeometry
import Testing
@testable import KineticEncode

/// The writer's near-unchanged check, one row at a time (`GIFWriter.decideRow`), against
/// a plain reference written from its documented rule, on random rows.
@Suite struct GIFDisplayCheckTests {
    /// The rule, pixel by pixel in order: a drawn pixel stays transparent when the display
    /// shows its palette colour already, or shows a colour (not 0) no farther from the
    /// source in squared RGB error, within `tolerance` in every channel, or within
    /// `isolatedPixelTolerance` summed when no pixel within `isolation` before it is still
    /// drawn and none within `isolation` after it is drawn in the prepared row.
    static func reference(indices: [UInt8], source: [UInt8], packed: [UInt32], shown: inout [UInt32],
                          shownIndex: inout [UInt8], ownTable: Bool, tolerance: Int,
                          skipped: UInt8 = PreparedGIFFrame.transparentIndex) -> (decided: [UInt8], first: Int, last: Int) {
        let transparent = PreparedGIFFrame.transparentIndex, width = indices.count
        var decided = [UInt8](repeating: skipped, count: width)
        var first = width, last = -1
        for x in 0..<width where indices[x] != transparent {
            let d = shown[x], q = packed[Int(indices[x])]
            if d == q { continue }
            if d != 0 {
                func channels(_ c: UInt32) -> [Int] { [Int((c >> 16) & 0xFF), Int((c >> 8) & 0xFF), Int(c & 0xFF)] }
                let s = [Int(source[4 * x]), Int(source[4 * x + 1]), Int(source[4 * x + 2])]
                let dError = zip(channels(d), s).map { $0 - $1 }, qError = zip(channels(q), s).map { $0 - $1 }
                let before = last < 0 || x - last > GIFWriter.isolation
                let after = (x + 1..<min(width, x + 1 + GIFWriter.isolation)).allSatisfy { indices[$0] == transparent }
                if dError.map({ $0 * $0 }).reduce(0, +) <= qError.map({ $0 * $0 }).reduce(0, +)
                    || (tolerance > 0 && dError.allSatisfy { abs($0) <= tolerance })
                    || (before && after && dError.map(abs).reduce(0, +) <= GIFWriter.isolatedPixelTolerance) {
                    continue
                }
            }
            decided[x] = indices[x]
            shown[x] = q
            shownIndex[x] = ownTable ? 255 : indices[x]
            if last < 0 { first = x }
            last = x
        }
        return (decided, first, last)
    }

    /// `GIFWriter.decideRow` on arrays: the decisions, and the first and last pixel drawn.
    static func decideRow(_ indices: [UInt8], source: [UInt8], packed: [UInt32], shown: inout [UInt32],
                          shownIndex: inout [UInt8], ownTable: Bool, tolerance: Int,
                          skipped: UInt8 = PreparedGIFFrame.transparentIndex) -> (decided: [UInt8], drawn: (first: Int, last: Int)) {
        let width = indices.count
        var decided = [UInt8](repeating: 7, count: width)
        let drawn = indices.withUnsafeBufferPointer { indices in
            source.withUnsafeBytes { source in
                packed.withUnsafeBufferPointer { packed in
                    shown.withUnsafeMutableBufferPointer { shown in
                        shownIndex.withUnsafeMutableBufferPointer { shownIndex in
                            decided.withUnsafeMutableBufferPointer { decided in
                                GIFWriter.decideRow(indices.baseAddress!, source: source.baseAddress!,
                                                    packed: packed.baseAddress!, shown: shown.baseAddress!,
                                                    shownIndex: shownIndex.baseAddress!, ownTable: ownTable,
                                                    tolerance: Int32(tolerance), width: width, skipped: skipped,
                                                    into: decided.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
        return (decided, drawn)
    }

    /// Four drawn pixels alone on a row (the check takes them together), the first three
    /// showing their palette colour already and the last a level off its display, whose
    /// palette colour is its source exactly: the last stays as displayed while nothing is
    /// drawn within `isolation` on either side, and is drawn when a pixel 16 after it is
    /// drawn, or one 16 before it still is.
    @Test(arguments: [(before: false, after: false), (before: false, after: true), (before: true, after: false)])
    func lastOfFourDrawnPixelsLevelOffStaysAsDisplayedOnlyWhenAlone(before: Bool, after: Bool) {
        let transparent = PreparedGIFFrame.transparentIndex, isolation = GIFWriter.isolation
        let width = 2 * isolation + 8, x = isolation + 2
        // Index 0 is grey 100; index 1 is (100, 100, 101), the last pixel's source.
        let packed: [UInt32] = [0xFF64_6464, 0xFF64_6465] + [UInt32](repeating: 0, count: 254)
        var indices = [UInt8](repeating: transparent, count: width)
        indices[x] = 0; indices[x + 1] = 0; indices[x + 2] = 0; indices[x + 3] = 1
        // Shown: grey everywhere, so the neighbours below are drawn (their index 1 differs).
        var shown = [UInt32](repeating: 0xFF64_6464, count: width)
        if after { indices[x + 3 + isolation] = 1 }
        if before { indices[x + 3 - isolation] = 1 }
        var source = [UInt8](repeating: 100, count: 4 * width)
        for i in 0..<width { source[4 * i + 3] = 255 }
        for i in [x + 3, x + 3 + isolation, x + 3 - isolation] { source[4 * i + 2] = 101 }
        var shownIndex = [UInt8](repeating: 0, count: width)
        var expectedShown = shown, expectedShownIndex = shownIndex
        let expected = Self.reference(indices: indices, source: source, packed: packed, shown: &expectedShown,
                                      shownIndex: &expectedShownIndex, ownTable: false, tolerance: 0)
        let (decided, drawn) = Self.decideRow(indices, source: source, packed: packed, shown: &shown,
                                              shownIndex: &shownIndex, ownTable: false, tolerance: 0)
        #expect(decided == expected.decided && drawn.first == expected.first && drawn.last == expected.last)
        #expect(shown == expectedShown && shownIndex == expectedShownIndex)
        #expect(decided[x..<(x + 3)].allSatisfy { $0 == transparent })
        #expect(decided[x + 3] == (before || after ? 1 : transparent))
    }

    /// `skipped`: the index written for pixels left transparent (a small shared table's
    /// transparent index, which follows its colours).
    @Test(arguments: [(ownTable: false, tolerance: 0, skipped: 255), (ownTable: true, tolerance: 0, skipped: 255),
                      (ownTable: false, tolerance: 2, skipped: 255), (ownTable: false, tolerance: 0, skipped: 3),
                      (ownTable: false, tolerance: 2, skipped: 3)] as [(Bool, Int, UInt8)])
    func randomRowsDecideAsTheReference(ownTable: Bool, tolerance: Int, skipped: UInt8) {
        // Seeded: the same rows on every run, so a failure can be replayed.
        var rng = SplitMix64(seed: UInt64(tolerance * 2 + (ownTable ? 1 : 0)))
        // A few colours a level or two apart, so that the squared, tolerance and isolation
        // tests all decide some pixels; index 3 is past the 3-colour palette (0).
        let colors: [UInt32] = [0xFF64_6464, 0xFF65_6464, 0xFF66_6565]
        let packed = colors.map { $0 } + [UInt32](repeating: 0, count: 256 - colors.count)
        for round in 0..<400 {
            let width = Int.random(in: 1...120, using: &rng)
            // Runs of transparent pixels of every length (the check skips them 32 and 8
            // at a time) between drawn ones; in half the rounds drawn runs of 1…9 (the
            // check decides four drawn pixels together), far apart in a quarter (so that
            // the last of four may stand alone).
            var indices: [UInt8] = []
            let longestDrawnRun = round % 4 >= 2 ? 9 : 1
            while indices.count < width {
                let run = Int.random(in: 0...(round % 2 == 0 ? 3 : 40), using: &rng)
                indices += [UInt8](repeating: PreparedGIFFrame.transparentIndex, count: min(run, width - indices.count))
                for _ in 0..<Int.random(in: 1...longestDrawnRun, using: &rng) where indices.count < width {
                    indices.append(UInt8.random(in: 0...2, using: &rng))
                }
            }
            let source = (0..<width).flatMap { _ -> [UInt8] in
                let level = UInt8.random(in: 98...104, using: &rng)
                return [level, UInt8.random(in: 98...104, using: &rng), level, 255]
            }
            let shownBefore = (0..<width).map { _ in
                Bool.random(using: &rng) && Bool.random(using: &rng) ? 0 : colors.randomElement(using: &rng) ?? 0
            }
            let shownIndexBefore = (0..<width).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var expectedShown = shownBefore, expectedShownIndex = shownIndexBefore
            let expected = Self.reference(indices: indices, source: source, packed: packed, shown: &expectedShown,
                                          shownIndex: &expectedShownIndex, ownTable: ownTable, tolerance: tolerance,
                                          skipped: skipped)
            var shown = shownBefore, shownIndex = shownIndexBefore
            let (decided, drawn) = Self.decideRow(indices, source: source, packed: packed, shown: &shown,
                                                  shownIndex: &shownIndex, ownTable: ownTable, tolerance: tolerance,
                                                  skipped: skipped)
            #expect(decided == expected.decided, "round \(round)")
            #expect(drawn.first == expected.first && drawn.last == expected.last, "round \(round)")
            #expect(shown == expectedShown && shownIndex == expectedShownIndex, "round \(round)")
            if decided != expected.decided { return }
        }
    }
}
