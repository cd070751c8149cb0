import Foundation
import KineticGeometry
import Testing
@testable import KineticEncode

/// Near-unchanged skipping (GIFOptions.tolerance), compact colour tables and exact flat
/// colours.
@Suite struct GIFSkippingTests {
    /// A grey frame prepared by hand: one palette entry per distinct level, so the
    /// displayed colour is exactly the source colour wherever a pixel is drawn.
    /// With `previous` (the source before), pixels equal to it get the transparent index
    /// as ``GIFFramePreparer`` gives them.
    static func greyFrame(_ levels: [UInt8], at rect: GIFRect, previous: [UInt8]? = nil) -> PreparedGIFFrame {
        let distinct = Array(Set(levels)).sorted()
        let unchanged = levels.indices.map { previous?[$0] == levels[$0] }
        return PreparedGIFFrame(
            rect: rect,
            indices: levels.indices.map { unchanged[$0] ? PreparedGIFFrame.transparentIndex
                                                        : UInt8(distinct.firstIndex(of: levels[$0]) ?? 0) },
            localPalette: distinct.map { GIFColor(red: $0, green: $0, blue: $0) },
            disposal: .doNotDispose,
            sourcePixels: levels.indices.flatMap { unchanged[$0] ? [0, 0, 0, 0] : [levels[$0], levels[$0], levels[$0], 255] })
    }

    /// A row of four grey pixels drawn at 100, then sources of 101, 102, 103, 110: with
    /// tolerance 2 the first two stay at 100. Then pixel 0 becomes 103: 3 away from what
    /// is displayed (100) although only 2 from the previous source (101), so it is drawn.
    @Test func nearUnchangedPixelIsSkippedOnlyWhileTheDisplayStaysWithinTolerance() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/t.gif"
        let writer = try GIFWriter(path: path, width: 4, height: 1, options: GIFOptions(tolerance: 2))
        let row = GIFRect(x: 0, y: 0, width: 4, height: 1)
        try writer.write(Self.greyFrame([100, 100, 100, 100], at: row), delayCentiseconds: 2)
        try writer.write(Self.greyFrame([101, 102, 103, 110], at: row), delayCentiseconds: 2)
        try writer.write(Self.greyFrame([103, 102, 103, 110], at: GIFRect(x: 0, y: 0, width: 4, height: 1)),
                         delayCentiseconds: 2)
        try writer.finish()
        let gif = try DecodedGIF(path: path)
        func greys(_ canvas: [UInt8]) -> [UInt8] { stride(from: 0, to: canvas.count, by: 4).map { canvas[$0] } }
        #expect(greys(gif.canvases[1]) == [100, 100, 103, 110])
        #expect(gif.rects[1] == GIFRect(x: 2, y: 0, width: 2, height: 1))
        #expect(greys(gif.canvases[2]) == [103, 100, 103, 110])
        #expect(gif.rects[2] == GIFRect(x: 0, y: 0, width: 1, height: 1))
    }

    /// Two dots (50) on a row of 100 vanish: the two changed pixels are drawn at 100, and
    /// the unchanged pixels between them, which show 100 already, get that index too —
    /// one run instead of a run cut by transparent pixels, the same picture. On the
    /// second row one of them shows 99, so the gap stays transparent.
    @Test func unchangedPixelsBetweenTwoOfOneIndexShowingItsColourTakeIt() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/t.gif"
        let writer = try GIFWriter(path: path, width: 7, height: 2, options: GIFOptions())
        let whole = GIFRect(x: 0, y: 0, width: 7, height: 2)
        let before: [UInt8] = [100, 50, 100, 100, 100, 50, 100,
                               100, 50, 100, 99, 100, 50, 100]
        let after: [UInt8] = [100, 100, 100, 100, 100, 100, 100,
                              100, 100, 100, 99, 100, 100, 100]
        try writer.write(Self.greyFrame(before, at: whole), delayCentiseconds: 2)
        try writer.write(Self.greyFrame(after, at: whole, previous: before), delayCentiseconds: 2)
        try writer.finish()
        let gif = try DecodedGIF(path: path)
        #expect(stride(from: 0, to: 56, by: 4).map { gif.canvases[1][$0] } == after)
        #expect(gif.rects[1] == GIFRect(x: 1, y: 0, width: 5, height: 2))
        let t = UInt8(gif.transparentIndices[1]), k = gif.rasters[1][0]
        #expect(k != t)
        #expect(gif.rasters[1] == [k, k, k, k, k,
                                   k, t, t, t, k])
    }

    /// The same two dots on a shared palette of three colours: its transparent index (3)
    /// follows them, and the display check writes it for the pixels it leaves transparent
    /// (no pass replacing 255 after it, issue 42); the gap between the two is bridged on
    /// that index as on a frame's own table.
    @Test func unchangedPixelsBetweenTwoOfOneIndexTakeItOnASmallSharedTable() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/t.gif"
        let levels: [UInt8] = [50, 99, 100]
        let palette = try GIFPalette(colors: levels.map { GIFColor(red: $0, green: $0, blue: $0) })
        let writer = try GIFWriter(path: path, width: 7, height: 2, options: GIFOptions(palette: .shared(palette)))
        // The rasters as decided: no transparent pixel offered to LZW as what it shows.
        writer.alternativeReach = 0
        let whole = GIFRect(x: 0, y: 0, width: 7, height: 2)
        func frame(_ grey: [UInt8], previous: [UInt8]?) -> PreparedGIFFrame {
            let unchanged = grey.indices.map { previous?[$0] == grey[$0] }
            return PreparedGIFFrame(
                rect: whole,
                indices: grey.indices.map { unchanged[$0] ? PreparedGIFFrame.transparentIndex
                                                          : UInt8(levels.firstIndex(of: grey[$0]) ?? 0) },
                localPalette: nil, disposal: .doNotDispose,
                sourcePixels: grey.indices.flatMap { unchanged[$0] ? [0, 0, 0, 0] : [grey[$0], grey[$0], grey[$0], 255] })
        }
        let before: [UInt8] = [100, 50, 100, 100, 100, 50, 100,
                               100, 50, 100, 99, 100, 50, 100]
        let after: [UInt8] = [100, 100, 100, 100, 100, 100, 100,
                              100, 100, 100, 99, 100, 100, 100]
        try writer.write(frame(before, previous: nil), delayCentiseconds: 2)
        try writer.write(frame(after, previous: before), delayCentiseconds: 2)
        // Nothing changes: one transparent pixel.
        try writer.write(frame(after, previous: after), delayCentiseconds: 2)
        try writer.finish()
        let gif = try DecodedGIF(path: path)
        #expect(stride(from: 0, to: 56, by: 4).map { gif.canvases[1][$0] } == after)
        #expect(gif.rects[1] == GIFRect(x: 1, y: 0, width: 5, height: 2))
        #expect(gif.transparentIndices[1] == 3)
        #expect(gif.rasters[1] == [2, 2, 2, 2, 2,
                                   2, 3, 3, 3, 2])
        #expect(gif.rasters[2] == [3] && gif.canvases[2] == gif.canvases[1])
    }

    /// A 64 × 8 grey ramp brightening one level a frame for 100 frames: every pixel
    /// changes in every frame, by less than the tolerance. The display must never be
    /// more than the tolerance off (skipping against the previous source frame would
    /// leave it 99 levels behind), and skipping must still happen.
    @Test(arguments: [0, 2, 4])
    func slowDriftDoesNotAccumulate(tolerance: Int) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (w, h) = (64, 8)
        let frames = (0..<100).map { t in
            var image = PixelImage(width: w, height: h)
            for y in 0..<h { for x in 0..<w {
                let level = Double(40 + 2 * x + t) / 255  // 40…265 clamps at 255: a flat end too
                Synthetic.put(&image, x, y, r: level, g: level, b: level, a: 1)
            } }
            return image
        }
        let options = GIFOptions(dithering: 0, tolerance: tolerance)
        try encodeGIF(frames, to: folder + "/d.gif", options: options)
        let gif = try DecodedGIF(path: folder + "/d.gif")
        #expect(gif.canvases.count == 100)
        var worst = 0
        for (canvas, frame) in zip(gif.canvases, frames) { worst = max(worst, GIFTests.error(canvas, frame).max) }
        // At most 64 distinct levels a frame: the palette holds them exactly.
        #expect(worst <= tolerance)
        let fullFrames = gif.rects.filter { $0.width == w && $0.height == h }.count
        if tolerance == 0 {
            #expect(fullFrames >= 85)  // only the clamped flat end stays
        } else {
            // A pixel is redrawn once every tolerance + 1 frames.
            #expect(fullFrames <= 100 / (tolerance + 1) + 2)
        }
    }

    /// Colour tables hold the frame's colours plus the transparent index, rounded up to a
    /// power of two; colours that skipping left unused are dropped. The first frame's
    /// table is the global one, and a later frame whose colours are all in it (here the
    /// empty frame 3) has no table of its own.
    @Test func colourTableIsTheSmallestPowerOfTwo() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/c.gif"
        let writer = try GIFWriter(path: path, width: 4, height: 1, options: GIFOptions(tolerance: 0))
        let row = GIFRect(x: 0, y: 0, width: 4, height: 1)
        try writer.write(Self.greyFrame([10, 20, 30, 30], at: row), delayCentiseconds: 2)   // 3 + 1 → 4
        try writer.write(Self.greyFrame([10, 20, 31, 40], at: row), delayCentiseconds: 2)   // 2 used + 1 → 4
        try writer.write(Self.greyFrame([11, 20, 31, 40], at: row), delayCentiseconds: 2)   // 1 + 1 → 2
        try writer.write(Self.greyFrame([11, 20, 31, 40], at: row), delayCentiseconds: 2)   // none → 2
        let many = (0..<4).map { UInt8(100 + $0) }
        var wide = Self.greyFrame(many, at: row)
        // 200 palette entries of which the frame uses 4 (new levels 100…103): 4 + 1 → 8.
        wide.localPalette = many.map { GIFColor(red: $0, green: $0, blue: $0) }
            + (0..<196).map { GIFColor(red: UInt8($0), green: 0, blue: 0) }
        try writer.write(wide, delayCentiseconds: 2)
        try writer.finish()
        let gif = try DecodedGIF(path: path)
        #expect(gif.globalColorCount == 4)
        #expect(gif.colorCounts == [0, 4, 2, 0, 8])
        #expect(gif.transparentIndices == [3, 2, 1, 3, 4])
        #expect(gif.rects[1] == GIFRect(x: 2, y: 0, width: 2, height: 1))
        func greys(_ canvas: [UInt8]) -> [UInt8] { stride(from: 0, to: canvas.count, by: 4).map { canvas[$0] } }
        #expect(greys(gif.canvases[2]) == [11, 20, 31, 40])
        #expect(greys(gif.canvases[4]) == [100, 101, 102, 103])
        // The header's 256-colour sizes are gone: each table is 3 bytes an entry.
        let bytes = try #require(FileManager.default.contents(atPath: path)).count
        #expect(bytes < 500)
    }

    /// A frame drawing only colours of the first frame (in another order) refers to the
    /// global colour table instead of carrying its own, and decodes to exactly those colours.
    @Test func frameWithTheFirstFramesColoursUsesTheGlobalTable() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/g.gif"
        let writer = try GIFWriter(path: path, width: 4, height: 1, options: GIFOptions())
        let row = GIFRect(x: 0, y: 0, width: 4, height: 1)
        try writer.write(Self.greyFrame([10, 20, 30, 40], at: row), delayCentiseconds: 2)
        try writer.write(Self.greyFrame([30, 10, 40, 20], at: row), delayCentiseconds: 3)
        try writer.write(Self.greyFrame([30, 10, 40, 50], at: row), delayCentiseconds: 4)
        try writer.finish()
        let gif = try DecodedGIF(path: path)
        func greys(_ canvas: [UInt8]) -> [UInt8] { stride(from: 0, to: canvas.count, by: 4).map { canvas[$0] } }
        #expect(gif.globalColorCount == 8)  // 4 colours + the transparent index → 8
        #expect(gif.colorCounts == [0, 0, 2])  // 50 is new: a local table (1 colour + transparent)
        #expect(greys(gif.canvases[1]) == [30, 10, 40, 20])
        #expect(greys(gif.canvases[2]) == [30, 10, 40, 50])
        #expect(gif.delays == [2, 3, 4])
    }

    /// With tolerance 0 a changed pixel is still left transparent when what is displayed
    /// is closer to its new colour than the palette colour it would be drawn with.
    @Test func pixelIsNotRedrawnWithAWorseColour() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/w.gif"
        let writer = try GIFWriter(path: path, width: 2, height: 1, options: GIFOptions(tolerance: 0))
        let row = GIFRect(x: 0, y: 0, width: 2, height: 1)
        try writer.write(Self.greyFrame([100, 100], at: row), delayCentiseconds: 2)
        // Sources 102 and 120, both quantized to 110: 102 is 2 levels from the displayed
        // 100 but 8 from 110, so it stays; 120 is 20 from 100 and 10 from 110: redrawn.
        try writer.write(PreparedGIFFrame(rect: row, indices: [0, 0],
                                          localPalette: [GIFColor(red: 110, green: 110, blue: 110)],
                                          disposal: .doNotDispose,
                                          sourcePixels: [102, 102, 102, 255, 120, 120, 120, 255]),
                         delayCentiseconds: 2)
        try writer.finish()
        let gif = try DecodedGIF(path: path)
        func greys(_ canvas: [UInt8]) -> [UInt8] { stride(from: 0, to: canvas.count, by: 4).map { canvas[$0] } }
        #expect(greys(gif.canvases[1]) == [100, 110])
        #expect(gif.rects[1] == GIFRect(x: 1, y: 0, width: 1, height: 1))
    }

    /// A changed pixel alone among unchanged ones on its row (none changed within
    /// GIFWriter.isolation pixels) is left as displayed while that is within one level in
    /// one channel (GIFWriter.isolatedPixelTolerance, summed over the channels): drawing
    /// it would split a transparent run for a correction no one sees. Two levels off, a
    /// level off in every channel (a grey), or near another changed pixel, it is drawn;
    /// the display is never more than one level off.
    @Test func isolatedPixelOneLevelOffStaysAsDisplayed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/i.gif"
        let width = 2 * GIFWriter.isolation + 8
        let writer = try GIFWriter(path: path, width: width, height: 1, options: GIFOptions(tolerance: 0))
        let row = GIFRect(x: 0, y: 0, width: width, height: 1)
        typealias RGB = [UInt8]
        let base: RGB = [100, 100, 100]
        func red(_ r: UInt8) -> RGB { [r, 100, 100] }
        func pixels(_ changes: [Int: RGB]) -> [RGB] { (0..<width).map { changes[$0] ?? base } }
        let a = 2, mid = GIFWriter.isolation + 4, b = mid + GIFWriter.isolation, grey = mid - 8
        let shown: [[Int: RGB]] = [
            [:],
            [:],                                                  // mid: red 101, alone: skipped
            [mid: red(102)],                                      // two levels: drawn
            [mid: red(102), a: red(101), a + 1: red(101)],        // side by side: both drawn
            [mid: red(103), a: red(101), a + 1: red(101), b: red(99)],  // within reach: drawn
            [mid: red(103), a: red(101), a + 1: red(101), b: red(99)],  // the last pixel alone: skipped
            [mid: red(103), a: red(101), a + 1: red(101), b: red(99), grey: [101, 101, 101]]]  // grey: drawn
        let sources = [pixels([:]), pixels([mid: red(101)]), pixels(shown[2]), pixels(shown[3]), pixels(shown[4]),
                       pixels(shown[4].merging([width - 1: red(101)]) { $1 }),
                       pixels(shown[6].merging([width - 1: red(101)]) { $1 })]
        for (i, source) in sources.enumerated() {
            let distinct = Array(Set(source)).sorted { $0.lexicographicallyPrecedes($1) }
            let unchanged = source.indices.map { i > 0 && sources[i - 1][$0] == source[$0] }
            let frame = PreparedGIFFrame(
                rect: row,
                indices: source.indices.map { unchanged[$0] ? PreparedGIFFrame.transparentIndex
                                                            : UInt8(distinct.firstIndex(of: source[$0]) ?? 0) },
                localPalette: distinct.map { GIFColor(red: $0[0], green: $0[1], blue: $0[2]) },
                disposal: .doNotDispose,
                sourcePixels: source.indices.flatMap { unchanged[$0] ? [0, 0, 0, 0] : source[$0] + [255] })
            try writer.write(frame, delayCentiseconds: 2)
        }
        try writer.finish()
        let gif = try DecodedGIF(path: path)
        func rgbs(_ canvas: [UInt8]) -> [RGB] { stride(from: 0, to: canvas.count, by: 4).map { Array(canvas[$0..<($0 + 3)]) } }
        #expect(gif.canvases.map(rgbs) == shown.map(pixels))
        #expect(gif.rects[1] == GIFRect(x: 0, y: 0, width: 1, height: 1))  // nothing drawn
        #expect(gif.rects[5] == GIFRect(x: 0, y: 0, width: 1, height: 1))
        #expect(gif.rects[6] == GIFRect(x: grey, y: 0, width: 1, height: 1))
        for (canvas, source) in zip(gif.canvases, sources) {
            #expect(zip(rgbs(canvas), source).allSatisfy { zip($0, $1).map { abs(Int($0) - Int($1)) }.reduce(0, +) <= 1 })
        }
    }

    /// An out-of-palette index is an error, not a crash.
    @Test func indexBeyondThePaletteIsRejected() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try GIFWriter(path: folder + "/x.gif", width: 2, height: 1, options: GIFOptions())
        let frame = PreparedGIFFrame(rect: GIFRect(x: 0, y: 0, width: 2, height: 1), indices: [0, 3],
                                     localPalette: [GIFColor(red: 1, green: 2, blue: 3)], disposal: .doNotDispose)
        #expect(throws: EncodeError.self) { try writer.write(frame, delayCentiseconds: 2) }
        #expect(folderContents(folder).isEmpty)
    }

    /// A flat area of an awkward colour (#F2F2F7, iOS's grouped background) beside a
    /// 2-D gradient that needs every palette entry comes out exactly, not a level off.
    @Test func dominantFlatColourIsExact() throws {
        let (w, h) = (300, 240)
        var image = PixelImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w {
            if x < 120 {
                Synthetic.put(&image, x, y, r: 242 / 255, g: 242 / 255, b: 247 / 255, a: 1)
            } else {
                let u = Double(x) / Double(w), v = Double(y) / Double(h)
                Synthetic.put(&image, x, y, r: u, g: v, b: 1 - u * v, a: 1)
            }
        } }
        let frame = try GIFFramePreparer.prepare(image, previous: nil, options: GIFOptions(dithering: 1))
        let palette = try #require(frame.localPalette)
        for (x, y) in [(0, 0), (60, 120), (100, 239), (5, 7)] {
            let c = palette[Int(frame.indices[y * w + x])]
            #expect([c.red, c.green, c.blue] == [242, 242, 247], "pixel \(x),\(y)")
        }
    }

    /// Two changes far apart: the unchanged rows between them are left out of
    /// quantization but come back transparent, and both changes decode to their colours.
    @Test func unchangedRowsBetweenChangesStayTransparent() throws {
        let first = Synthetic.frame(0)
        var second = first
        for x in 10..<20 { Synthetic.put(&second, x, 2, r: 1, g: 0, b: 0, a: 1) }
        for x in 30..<34 { Synthetic.put(&second, x, 40, r: 0, g: 0, b: 1, a: 1) }
        let frame = try GIFFramePreparer.prepare(second, previous: first, options: GIFOptions())
        #expect(frame.rect == GIFRect(x: 10, y: 2, width: 24, height: 39))
        let palette = try #require(frame.localPalette)
        for y in 0..<39 { for x in 0..<24 {
            let index = frame.indices[y * 24 + x]
            let changed = (y == 0 && x < 10) || (y == 38 && x >= 20)
            #expect((index == PreparedGIFFrame.transparentIndex) == !changed, "pixel \(x),\(y)")
            if changed {
                let c = palette[Int(index)]
                #expect([c.red, c.green, c.blue] == (y == 0 ? [255, 0, 0] : [0, 0, 255]))
            }
        } }
    }

    /// Only runs of 8 or more identical opaque pixels count, covering ≥ 5 % of the pixels.
    @Test func dominantColoursAreLongRuns() {
        // 100 × 2 pixels: row 0 = 50 × A then 50 alternating B/C; row 1 = 7 × D, 93 × A.
        func px(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> [UInt8] { [r, g, b, a] }
        let a = px(1, 2, 3), b = px(9, 9, 9), c = px(8, 8, 8), d = px(200, 0, 0)
        var rgba: [UInt8] = []
        for _ in 0..<50 { rgba += a }
        for i in 0..<50 { rgba += i % 2 == 0 ? b : c }
        for _ in 0..<7 { rgba += d }
        for _ in 0..<93 { rgba += a }
        #expect(GIFFramePreparer.dominantColors(rgba, width: 100) == [ImageQuant.Entry(r: 1, g: 2, b: 3, a: 255)])
        // Transparent runs are not colours.
        let clear = [UInt8](repeating: 0, count: 400)
        #expect(GIFFramePreparer.dominantColors(clear, width: 100).isEmpty)
    }

    /// The indices offered to LZW (``GIFWriter/offeredIndices(_:rect:shown:canvasWidth:transparent:colors:reach:jobs:)``)
    /// are, pixel by pixel, what their definition says: a drawn pixel as it is; a
    /// transparent one as the index shown at its place on the canvas when a drawn pixel
    /// is at most `reach` away in LZW's order (rows joined) and that index is below
    /// `colors`, else transparent; nil when no pixel is offered. On random rectangles of
    /// a canvas, with runs of drawn and transparent pixels and rows wider and narrower
    /// than the 16-pixel steps.
    @Test(arguments: [1, 5, 32]) func offeredIndicesAreTheShownIndicesWithinReach(reach: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(reach)
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let transparent: UInt8 = 40, colors = 30
        let canvasWidth = 90, canvasHeight = 40
        var offeredAny = false, declined = 0
        for _ in 0..<60 {
            let shown = (0..<(canvasWidth * canvasHeight)).map { _ in UInt8(next(4) == 0 ? 255 : next(45)) }
            let w = 1 + next(canvasWidth), h = 1 + next(canvasHeight)
            let rect = GIFRect(x: next(canvasWidth - w + 1), y: next(canvasHeight - h + 1), width: w, height: h)
            // Runs of one kind: long transparent ones (most of a frame), short drawn ones.
            var indices: [UInt8] = []
            while indices.count < w * h {
                let drawn = next(3) == 0
                let length = drawn ? 1 + next(6) : 1 + next(4 * reach + 40)
                for _ in 0..<length where indices.count < w * h {
                    indices.append(drawn ? UInt8(next(colors)) : transparent)
                }
            }
            if next(8) == 0 { indices = [UInt8](repeating: transparent, count: w * h) }
            let drawnAt = indices.indices.filter { indices[$0] != transparent }
            var expected = indices, offered = false
            for j in indices.indices where indices[j] == transparent {
                let place = (rect.y + j / w) * canvasWidth + rect.x + j % w
                let near = drawnAt.contains { abs($0 - j) <= reach }
                if near, Int(shown[place]) < colors {
                    expected[j] = shown[place]
                    offered = true
                }
            }
            let found = shown.withUnsafeBufferPointer {
                GIFWriter.offeredIndices(indices, rect: rect, shown: $0, canvasWidth: canvasWidth,
                                         transparent: transparent, colors: colors, reach: reach)
            }
            #expect(found == (offered ? expected : nil), "\(rect)")
            offeredAny = offeredAny || offered
            if !offered { declined += 1 }
        }
        #expect(offeredAny && declined > 0)
    }
}
