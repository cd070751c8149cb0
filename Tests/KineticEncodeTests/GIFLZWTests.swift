import Foundation
import KineticGeometry
import Testing
@testable import KineticEncode

/// GIFLZW against giflib's own compressor (`EGifPutLine`): whole GIFs, byte for byte.
struct GIFLZWTests {
    /// One image of a GIF under test: its rectangle's indices, and the size of its local
    /// colour table (nil: the global one).
    struct Image {
        var width: Int, height: Int
        var indices: [UInt8]
        var localTableSize: Int? = nil
        /// What each pixel may be written as instead (nil: no choice).
        var alternatives: [UInt8]? = nil
    }

    static func palette(_ size: Int) -> [GIFColor] {
        (0..<size).map { (i: Int) -> GIFColor in
            GIFColor(red: UInt8(truncatingIfNeeded: i), green: UInt8(truncatingIfNeeded: i * 7),
                     blue: UInt8(truncatingIfNeeded: i * 13))
        }
    }

    /// A GIF of `images` (each at the canvas's corner) over a global table of
    /// `globalTableSize` entries, compressed by giflib or by GIFLZW.
    static func gif(_ images: [Image], globalTableSize: Int, giflib: Bool) throws -> [UInt8] {
        let width = images.map(\.width).max() ?? 1, height = images.map(\.height).max() ?? 1
        var encoder = try GifEncoder(width: width, height: height, globalPalette: palette(globalTableSize),
                                     tableSize: globalTableSize, loopCount: 0)
        for image in images {
            let frame = PreparedGIFFrame(rect: GIFRect(x: 0, y: 0, width: image.width, height: image.height),
                                         indices: image.indices, localPalette: image.localTableSize.map(palette),
                                         disposal: .doNotDispose)
            try encoder.put(frame, transparentIndex: 0, tableSize: image.localTableSize ?? globalTableSize,
                            delayCentiseconds: 3, alternatives: image.alternatives, giflibCompressor: giflib)
        }
        try encoder.close()
        return encoder.takeBytes()
    }

    /// Both compressors' GIFs, which must be identical; ours.
    @discardableResult
    static func expectIdentical(_ images: [Image], globalTableSize: Int,
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let ours = try gif(images, globalTableSize: globalTableSize, giflib: false)
        let theirs = try gif(images, globalTableSize: globalTableSize, giflib: true)
        #expect(ours.count == theirs.count, sourceLocation: sourceLocation)
        if ours != theirs {
            let first = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(ours.count, theirs.count)
            Issue.record("GIFs differ from byte \(first) of \(theirs.count)", sourceLocation: sourceLocation)
        }
        return ours
    }

    /// `bytes` decoded by giflib.
    static func decode(_ bytes: [UInt8]) throws -> DecodedGIF {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/t.gif"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try DecodedGIF(path: path)
    }

    /// Runs of random indices below `tableSize`, of lengths 1…`longestRun`.
    static func runs(_ count: Int, tableSize: Int, longestRun: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)  // the same rasters every run
        var indices: [UInt8] = []
        indices.reserveCapacity(count)
        while indices.count < count {
            let index = UInt8(Int.random(in: 0..<tableSize, using: &random))
            let length = min(Int.random(in: 1...longestRun, using: &random), count - indices.count)
            indices += repeatElement(index, count: length)
        }
        return indices
    }

    /// Every table size, 2 (1 bit, for which giflib codes with 2 bits) to 256: noise, short
    /// runs and long runs, in an odd rectangle; over the global table and as local table.
    @Test(arguments: 1...8)
    func matchesGiflibAtEveryTableSize(bits: Int) throws {
        let size = 1 << bits
        let width = 211, height = 97
        let noise = Self.runs(width * height, tableSize: size, longestRun: 1, seed: UInt64(bits))
        let short = Self.runs(width * height, tableSize: size, longestRun: 9, seed: UInt64(bits) + 100)
        let long = Self.runs(width * height, tableSize: size, longestRun: 2000, seed: UInt64(bits) + 200)
        let images = [noise, short, long].map { Image(width: width, height: height, indices: $0) }
        let global = try Self.decode(Self.expectIdentical(images, globalTableSize: size))
        #expect(global.rasters == images.map(\.indices))
        #expect(global.tableSizes == [size, size, size])
        // The same rasters with local tables of this size under a global table of another.
        let local = images.map { Image(width: $0.width, height: $0.height, indices: $0.indices, localTableSize: size) }
        let other = bits == 8 ? 4 : 256
        let decoded = try Self.decode(Self.expectIdentical(local, globalTableSize: other))
        #expect(decoded.rasters == images.map(\.indices))
        #expect(decoded.tableSizes == [size, size, size])
    }

    /// Rasters long enough for many dictionary restarts (at code 4095), and one colour
    /// throughout, at 1000 × 1000.
    @Test func largeRastersRestartTheDictionaryAsGiflibDoes() throws {
        let side = 1000
        let noise = Self.runs(side * side, tableSize: 256, longestRun: 1, seed: 7)
        // Smooth: a diagonal gradient over 256 indices with a little noise on its edges.
        var random = SplitMix64(seed: 8)
        let smooth = (0..<side * side).map { i -> UInt8 in
            let x = i % side, y = i / side
            return UInt8(truncatingIfNeeded: (x + y) / 8 + Int.random(in: 0...1, using: &random))
        }
        let flat = [UInt8](repeating: 255, count: side * side)
        let mixed = Self.runs(side * side, tableSize: 32, longestRun: 300, seed: 9)
        for (indices, size, restarts) in [(noise, 256, 100), (smooth, 256, 5), (flat, 256, 0), (mixed, 32, 5)] {
            let bytes = try Self.expectIdentical([Image(width: side, height: side, indices: indices)],
                                                 globalTableSize: size)
            #expect(try Self.decode(bytes).rasters == [indices])
            // More than 4095 codes of at most 12 bits (6 KiB) since the last restart needs
            // another restart.
            #expect(bytes.count > restarts * 6144)
        }
    }

    /// Long runs of one index at every code size, in rasters long enough that the
    /// dictionary restarts within runs.
    @Test func longRunsRestartTheDictionaryAsGiflibDoes() throws {
        let side = 1000
        for bits in 1...8 {
            let indices = Self.runs(side * side, tableSize: 1 << bits, longestRun: 25 * bits, seed: UInt64(bits) + 300)
            let bytes = try Self.expectIdentical([Image(width: side, height: side, indices: indices)],
                                                 globalTableSize: 1 << bits)
            #expect(bytes.count > 2 * 6144)
            #expect(try Self.decode(bytes).rasters == [indices])
        }
    }

    /// Small and odd rectangles, and raster lengths that end the code stream on every
    /// byte of a 255-byte sub-block, the last one full included.
    @Test func matchesGiflibOnSmallAndOddRectangles() throws {
        for (width, height) in [(1, 1), (2, 1), (1, 3), (3, 3), (255, 1), (256, 1), (257, 3), (1, 4099), (4099, 1)] {
            for bits in [1, 4, 8] {
                let indices = Self.runs(width * height, tableSize: 1 << bits, longestRun: 3,
                                        seed: UInt64(width * 31 + height * 7 + bits))
                try Self.expectIdentical([Image(width: width, height: height, indices: indices)],
                                         globalTableSize: 1 << bits)
            }
        }
        var lastBlockLengths = Set<Int>()
        var lzw = GIFLZW()
        for count in 1...2500 {
            let indices = Self.runs(count, tableSize: 256, longestRun: 1, seed: UInt64(count))
            try Self.expectIdentical([Image(width: count, height: 1, indices: indices)], globalTableSize: 256)
            let blocks = lzw.encode(indices, bitsPerPixel: 8)
            lastBlockLengths.insert(blocks.count % 256 == 0 ? 255 : blocks.count % 256 - 1)
        }
        #expect(lastBlockLengths.contains(255))
        #expect(lastBlockLengths.count == 255)
    }

    /// Indices beyond the table are masked to its bits before compressing, as giflib does
    /// (GIFWriter never hands such indices over, but the bytes must not depend on it).
    @Test func masksIndicesBeyondTheTableAsGiflibDoes() throws {
        for bits in [1, 2, 5] {
            let indices = Self.runs(300 * 200, tableSize: 256, longestRun: 4, seed: UInt64(bits) + 50)
            let decoded = try Self.decode(Self.expectIdentical([Image(width: 300, height: 200, indices: indices)],
                                                               globalTableSize: 1 << bits))
            let mask = UInt8((1 << max(bits, 2)) - 1)
            #expect(decoded.rasters == [indices.map { $0 & mask }])
        }
    }

    /// Images of different sizes and tables in one GIF: each takes its own table's code
    /// size, and giflib's bookkeeping lets the next image and the trailer follow.
    @Test func consecutiveImagesMatchGiflib() throws {
        let images = [
            Image(width: 120, height: 80, indices: Self.runs(120 * 80, tableSize: 256, longestRun: 6, seed: 1)),
            Image(width: 33, height: 17, indices: Self.runs(33 * 17, tableSize: 4, longestRun: 6, seed: 2),
                  localTableSize: 4),
            Image(width: 1, height: 1, indices: [200]),
            Image(width: 64, height: 64, indices: Self.runs(64 * 64, tableSize: 2, longestRun: 40, seed: 3),
                  localTableSize: 2),
            Image(width: 120, height: 80, indices: Self.runs(120 * 80, tableSize: 256, longestRun: 1, seed: 4)),
        ]
        let decoded = try Self.decode(Self.expectIdentical(images, globalTableSize: 256))
        #expect(decoded.rasters == images.map(\.indices))
        #expect(decoded.tableSizes == [256, 4, 256, 2, 256])
    }

    /// The dictionary table is reused from image to image (and across code sizes): what
    /// one image left must not change the next one's bytes.
    @Test func reusedEncoderGivesTheSameBytesAsAFreshOne() {
        let a = Self.runs(50_000, tableSize: 256, longestRun: 5, seed: 11)
        let b = Self.runs(50_000, tableSize: 8, longestRun: 5, seed: 12)
        var reused = GIFLZW()
        _ = reused.encode(a, bitsPerPixel: 8)
        _ = reused.encode(b, bitsPerPixel: 3)
        for (indices, bits) in [(a, 8), (b, 3), (b, 8)] {
            var fresh = GIFLZW()
            #expect(reused.encode(indices, bitsPerPixel: bits) == fresh.encode(indices, bitsPerPixel: bits))
        }
    }

    /// A frame as GIFWriter hands one over: drawn runs (the background, index 1, and short
    /// runs of other colours) between transparent ones (index 0 here), each transparent
    /// pixel within `reach` of a drawn one offered as what it shows — the background,
    /// or now and then another colour.
    static func changedFrame(width: Int, height: Int, tableSize: Int, reach: Int,
                             seed: UInt64) -> (indices: [UInt8], alternatives: [UInt8]) {
        var random = SplitMix64(seed: seed)
        var indices: [UInt8] = []
        while indices.count < width * height {
            let transparent = Int.random(in: 1...60, using: &random)
            let drawn = Int.random(in: 1...12, using: &random)
            indices += repeatElement(0, count: transparent)
            for _ in 0..<drawn {
                let background = Int.random(in: 0..<3, using: &random) > 0
                indices.append(background ? 1 : UInt8(Int.random(in: 2..<tableSize, using: &random)))
            }
        }
        indices.removeLast(indices.count - width * height)
        var alternatives = indices
        let drawn = indices.indices.filter { indices[$0] != 0 }
        for i in drawn {
            for j in max(0, i - reach)..<min(indices.count, i + reach + 1) where indices[j] == 0 {
                alternatives[j] = Int.random(in: 0..<8, using: &random) > 0 ? 1 : UInt8(Int.random(in: 2..<tableSize, using: &random))
            }
        }
        return (indices, alternatives)
    }

    /// With alternatives, each pixel decodes (by giflib) to its own index or to its
    /// alternative, never to anything else: over every code size, in rasters long enough
    /// for the dictionary to restart during the search, and in odd small ones.
    @Test func alternativesDecodeToEitherReading() throws {
        for (bits, width, height) in [(2, 300, 200), (4, 500, 400), (8, 1000, 700), (8, 1, 1), (8, 3, 1), (5, 257, 3)] {
            let (indices, alternatives) = Self.changedFrame(width: width, height: height, tableSize: 1 << bits,
                                                            reach: 32, seed: UInt64(bits * 1000 + width))
            let gif = try Self.gif([Image(width: width, height: height, indices: indices, alternatives: alternatives)],
                                   globalTableSize: 1 << bits, giflib: false)
            let decoded = try Self.decode(gif).rasters
            try #require(decoded.count == 1)
            let wrong = zip(decoded[0].indices, zip(indices, alternatives)).filter { index, pair in
                decoded[0][index] != pair.0 && decoded[0][index] != pair.1
            }
            #expect(wrong.isEmpty, "\(bits) bits, \(width)×\(height): \(wrong.count) pixels read neither way")
            let taken = zip(decoded[0], alternatives).enumerated().filter { $0.element.0 == $0.element.1 && indices[$0.offset] != $0.element.1 }
            if width * height > 1000 {
                #expect(!taken.isEmpty, "the alternatives were never taken")
            }
        }
    }

    /// Where no alternative differs from its pixel, the bytes are giflib's: with short
    /// runs, and with runs of up to 300 (taken 32 pixels a step, alternatives checked too).
    @Test(arguments: [30, 300])
    func alternativesThatChangeNothingGiveGiflibsBytes(longestRun: Int) throws {
        let indices = Self.runs(400 * 300, tableSize: 64, longestRun: longestRun, seed: 21)
        let ours = try Self.gif([Image(width: 400, height: 300, indices: indices, alternatives: indices)],
                                globalTableSize: 64, giflib: false)
        let theirs = try Self.gif([Image(width: 400, height: 300, indices: indices)], globalTableSize: 64, giflib: true)
        #expect(ours == theirs)
    }
}
