import CGif
import Foundation
import KineticGeometry
import Synchronization
import Testing
@testable import KineticEncode

/// The whole-animation palette (GIFPaletteBuilder) and the `colors` and `dithering`
/// options (`--colors`, `--dither`).
@Suite struct GIFPaletteTests {
    /// The palette pass subsamples a frame before making it straight: the same bytes as
    /// making all of it straight and subsampling that, at every size either side of the
    /// 256 × 256 rule, with rows padded past their pixels and partly transparent pixels.
    @Test(arguments: [(1, 1), (1, 70_000), (256, 256), (257, 256), (301, 257), (640, 480)])
    func straightPaletteSampleIsTheSampleOfTheStraightFrame(size: (Int, Int)) {
        let (width, height) = size
        let stride = width * 4 + 12
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let alpha = UInt32([0, 64, 255, 255][Int(state >> 30)])
                let r = (state >> 8 & 0xFF) * alpha / 255, g = (state >> 16 & 0xFF) * alpha / 255, b = (state & 0xFF) * alpha / 255
                let word = alpha << 24 | r << 16 | g << 8 | b
                withUnsafeBytes(of: word.littleEndian) { bytes.replaceSubrange((y * stride + x * 4)..<(y * stride + x * 4 + 4), with: $0) }
            }
        }
        let frame = PixelImage(width: width, height: height, stride: stride, bytes: bytes)
        let whole = GIFRect(x: 0, y: 0, width: width, height: height)
        let straight = GIFFramePreparer.straightPixels(frame, in: whole, previous: nil, keepAlpha: false)
        let expected = GIFFramePreparer.paletteSample(straight, width: width, height: height)
        let sample = GIFFramePreparer.straightPaletteSample(frame)
        #expect(sample.width == expected.width && sample.height == expected.height)
        #expect(sample.rgba == expected.rgba)
        #expect(sample.width == (width * height > 256 * 256 && width >= 2 && height >= 2 ? width / 2 : width))
    }

    @Test func samplePositionsSpanTheAnimationEvenly() {
        #expect(GIFPaletteBuilder.samplePositions(frameCount: 0) == [])
        #expect(GIFPaletteBuilder.samplePositions(frameCount: 1) == [0])
        #expect(GIFPaletteBuilder.samplePositions(frameCount: 5) == [0, 1, 2, 3, 4])
        for n in [16, 17, 115, 200, 1000] {
            let p = GIFPaletteBuilder.samplePositions(frameCount: n)
            #expect(p.count == 16 && p.first == 0 && p.last == n - 1, "\(n): \(p)")
            #expect(zip(p, p.dropFirst()).allSatisfy { $0 < $1 }, "\(n): \(p)")
            // Evenly spaced: gaps differ by at most one frame.
            let gaps = zip(p, p.dropFirst()).map { $1 - $0 }
            #expect(gaps.max()! - gaps.min()! <= 1, "\(n): \(gaps)")
        }
    }

    /// A shared palette with `colors` N is the GIF's only table: at most N − 1 colours
    /// and the transparent index, in the smallest power-of-two table that holds them,
    /// every frame drawn with those colours.
    @Test(arguments: [2, 16, 100, 256])
    func colorsBoundTheSharedTable(colors: Int) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(6)
        var options = GIFOptions(colors: colors)
        let palette = try GIFPalette.make(from: frames, options: options)
        #expect(palette.colors.count <= colors - 1 && palette.colors.count >= 1)
        options.palette = .shared(palette)
        try encodeGIF(frames, to: folder + "/c.gif", options: options)
        let gif = try DecodedGIF(path: folder + "/c.gif")
        let table = GIFWriter.tableSize(palette.colors.count + 1)
        // GIF tables are powers of two: N entries used of the smallest table holding them.
        #expect(gif.globalColorCount == table && palette.colors.count + 1 <= colors && table < 2 * colors)
        #expect(gif.colorCounts.allSatisfy { $0 == 0 })
        #expect(gif.transparentIndices.allSatisfy { Int($0) == palette.colors.count })
        let allowed: Set<[UInt8]> = Set(palette.colors.map { [$0.red, $0.green, $0.blue] })
        for canvas in gif.canvases {
            var outside = 0
            for o in stride(from: 0, to: canvas.count, by: 4) {
                let color: [UInt8] = [canvas[o], canvas[o + 1], canvas[o + 2]]
                if canvas[o + 3] != 255 || !allowed.contains(color) { outside += 1 }
            }
            #expect(outside == 0)
        }
    }

    /// Per-frame palettes (transparent backgrounds) obey `colors` too: each local table
    /// has at most N entries with the transparent one.
    @Test func colorsBoundPerFrameTables() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let options = GIFOptions(transparentBackground: true, colors: 8)
        let prepared = try encodeGIF(Synthetic.frames(4, transparent: true), to: folder + "/t.gif", options: options)
        #expect(prepared.allSatisfy { ($0.localPalette?.count ?? 99) <= 7 })
        let gif = try DecodedGIF(path: folder + "/t.gif")
        #expect(gif.tableSizes.allSatisfy { $0 <= 8 })
    }

    /// Fewer colours: larger error, smaller file (what `--help` promises).
    @Test func fewerColoursMakeASmallerCoarserGIF() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(6)
        var results: [(bytes: Int, mean: Double)] = []
        for colors in [256, 16] {
            var options = GIFOptions(colors: colors)
            options.palette = .shared(try GIFPalette.make(from: frames, options: options))
            try encodeGIF(frames, to: folder + "/\(colors).gif", options: options)
            let gif = try DecodedGIF(path: folder + "/\(colors).gif")
            let mean = zip(gif.canvases, frames).map { GIFTests.error($0, $1).mean }.reduce(0, +) / Double(frames.count)
            let size = try FileManager.default.attributesOfItem(atPath: folder + "/\(colors).gif")[.size] as! Int
            results.append((size, mean))
        }
        #expect(results[1].bytes < results[0].bytes, "\(results)")
        #expect(results[1].mean > results[0].mean, "\(results)")
    }

    /// Dithering keeps a gradient's local average (the eye's view) where no dithering
    /// leaves flat bands: with 8 colours, the mean colour of each 4 × 4 block is nearer
    /// the source with full dithering, and the file is larger (noise compresses worse).
    @Test func ditheringTradesBandsForNoise() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = [Synthetic.frame(0)]
        var blockErrors: [Double] = [], sizes: [Int] = []
        for level in [0.0, 1.0] {
            var options = GIFOptions(dithering: level, colors: 8)
            options.palette = .shared(try GIFPalette.make(from: frames, options: options))
            try encodeGIF(frames, to: folder + "/d\(level).gif", options: options)
            let canvas = try DecodedGIF(path: folder + "/d\(level).gif").canvases[0]
            let source = frames[0]
            var total = 0.0, blocks = 0
            for by in stride(from: 0, to: source.height, by: 4) {
                for bx in stride(from: 0, to: source.width, by: 4) {
                    var sum = [0, 0, 0], got = [0, 0, 0]
                    for y in by..<(by + 4) {
                        for x in bx..<(bx + 4) {
                            let s = source.rgba(x: x, y: y), o = (y * source.width + x) * 4
                            sum[0] += Int(s.r); sum[1] += Int(s.g); sum[2] += Int(s.b)
                            for c in 0..<3 { got[c] += Int(canvas[o + c]) }
                        }
                    }
                    total += (0..<3).map { Double(abs(sum[$0] - got[$0])) / 16 }.reduce(0, +) / 3
                    blocks += 1
                }
            }
            blockErrors.append(total / Double(blocks))
            sizes.append(try FileManager.default.attributesOfItem(atPath: folder + "/d\(level).gif")[.size] as! Int)
        }
        #expect(blockErrors[1] < blockErrors[0] * 0.7, "block errors without and with dithering: \(blockErrors)")
        #expect(sizes[1] > sizes[0], "sizes: \(sizes)")
    }

    /// The builder reads frames one at a time: the same frames in the same order give the
    /// same palette as building it from all of them at once, and a flat background
    /// covering most of the frames is an exact entry.
    @Test func builderMatchesAllAtOnceAndKeepsTheFlatBackground() throws {
        var frames: [PixelImage] = []
        for i in 0..<4 {
            var image = PixelImage(width: 40, height: 30)
            for y in 0..<30 {
                for x in 0..<40 {
                    let onSquare = x >= 4 * i && x < 4 * i + 10 && y >= 10 && y < 20
                    Synthetic.put(&image, x, y, r: onSquare ? Double(x) / 40 : 0.2, g: onSquare ? 0.9 : 0.4,
                                  b: onSquare ? Double(y) / 30 : 0.6, a: 1)
                }
            }
            frames.append(image)
        }
        let builder = try GIFPaletteBuilder(options: GIFOptions())
        for frame in frames { try builder.add(GIFPaletteBuilder.sample(frame)) }
        let palette = try builder.palette()
        #expect(palette == (try GIFPalette.make(from: frames, options: GIFOptions())))
        let background = frames[0].rgba(x: 0, y: 0)
        #expect(palette.colors.contains(GIFColor(red: background.r, green: background.g, blue: background.b)))
    }

    /// A frame whose colours the shared palette lacks (a tint in none of the sampled
    /// frames, as a mid-fade frame between two samples) gets a colour table of its own:
    /// its error stays near the sampled frames', where remapping it to the shared palette
    /// alone errs many times more. The sampled frames keep the global table.
    @Test func frameMissingFromTheSampleGetsItsOwnTable() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var frames = Synthetic.frames(6)
        // Frame 3 with its channels rotated (r, g, b → b, r, g): other hues everywhere.
        frames[3].bytes.withUnsafeMutableBytes { p in
            for o in stride(from: 0, to: p.count, by: 4) {
                let word = p.loadUnaligned(fromByteOffset: o, as: UInt32.self)
                let rotated = word & 0xFF00_0000 | (word & 0xFF) << 16 | (word >> 16 & 0xFF) << 8 | (word >> 8 & 0xFF)
                p.storeBytes(of: rotated, toByteOffset: o, as: UInt32.self)
            }
        }
        let sampled = frames.indices.filter { $0 != 3 }
        let palette = try GIFPalette.make(from: sampled.map { frames[$0] }, options: GIFOptions())
        let prepared = try encodeGIF(frames, to: folder + "/f.gif", options: GIFOptions(palette: .shared(palette)))
        #expect(prepared[3].localPalette != nil)
        #expect(sampled.allSatisfy { prepared[$0].localPalette == nil })
        let gif = try DecodedGIF(path: folder + "/f.gif")
        #expect(gif.colorCounts[3] > 0 && sampled.allSatisfy { gif.colorCounts[$0] == 0 })

        func meanSquaredError(_ canvas: [UInt8], _ source: PixelImage) -> Double {
            var total = 0
            for y in 0..<source.height {
                for x in 0..<source.width {
                    let s = source.rgba(x: x, y: y), o = (y * source.width + x) * 4
                    for (c, d) in [(s.r, canvas[o]), (s.g, canvas[o + 1]), (s.b, canvas[o + 2])] {
                        total += (Int(c) - Int(d)) * (Int(c) - Int(d))
                    }
                }
            }
            return Double(total) / Double(3 * source.width * source.height)
        }
        let errors = zip(gif.canvases, frames).map(meanSquaredError)
        let typical = sampled.map { errors[$0] }.max() ?? 0
        // The tinted frame through the shared palette alone, as the GIF would show it
        // without a table of its own.
        let whole = GIFRect(x: 0, y: 0, width: frames[3].width, height: frames[3].height)
        let rgba = GIFFramePreparer.straightPixels(frames[3], in: whole, previous: nil, keepAlpha: false)
        let remapped = try palette.remapper.remap(rgba: rgba, width: whole.width, height: whole.height,
                                                  settings: GIFOptions().quantizerSettings)
        let sharedOnly = GIFFramePreparer.meanSquaredError(rgba, remapped, palette.colors)
        #expect(errors[3] <= 2 * typical + 1, "tinted frame MSE \(errors[3]), sampled frames at most \(typical)")
        #expect(sharedOnly > 10 * errors[3], "shared palette alone: MSE \(sharedOnly), own table \(errors[3])")
    }

    /// A white frame with a soft white-to-blue band of 600 shades: libimagequant alone
    /// stops short of 255 colours (its error floor is met), leaving more than a quarter
    /// of the table; the builder gives the
    /// entries left to the shades that err most, so the table fills and the band's error
    /// drops.
    @Test func spareEntriesGoToTheWorstMatchedColours() throws {
        var image = PixelImage(width: 200, height: 200)
        for y in 0..<200 {
            for x in 0..<200 {
                let t = (16..<19).contains(y) ? Double((y - 16) * 200 + x + 1) / 600 : 0
                Synthetic.put(&image, x, y, r: 1 - 0.76 * t, g: 1 - 0.39 * t, b: 1 - 0.09 * t, a: 1)
            }
        }
        let options = GIFOptions()
        var settings = options.quantizerSettings
        settings.speed = 1
        let alone = try ImageQuant.Histogram(settings: settings)
        let sample = GIFPaletteBuilder.sample(image)
        try alone.add(rgba: sample.rgba, width: sample.width, height: sample.height)
        let plain = try alone.palette().map { GIFColor(red: $0.r, green: $0.g, blue: $0.b) }
        let palette = try GIFPalette.make(from: [image], options: options)
        #expect(plain.count < 192, "libimagequant alone: \(plain.count) colours")
        #expect(palette.colors.count == 255 && Set(palette.colors).count == 255)
        func bandError(_ colors: [GIFColor]) -> Int {
            var total = 0
            for y in 16..<19 {
                for x in 0..<200 {
                    let s = image.rgba(x: x, y: y)
                    var nearest = Int.max
                    for c in colors {
                        let r = Int(s.r) - Int(c.red), g = Int(s.g) - Int(c.green), b = Int(s.b) - Int(c.blue)
                        nearest = min(nearest, r * r + g * g + b * b)
                    }
                    total += nearest
                }
            }
            return total
        }
        #expect(bandError(palette.colors) * 4 < bandError(plain), "\(bandError(palette.colors)) against \(bandError(plain))")
    }

    /// Counted colours as `ColorCounts` keys them: straight opaque RGBA, red lowest.
    static func counts(_ colors: [(r: Int, g: Int, b: Int, pixels: Int)]) -> CountedColors {
        var counts = ColorCounts(slots: 64)
        for c in colors { counts.add(0xFF00_0000 | UInt32(c.b) << 16 | UInt32(c.g) << 8 | UInt32(c.r), c.pixels) }
        return counts.counted
    }

    /// Greys (all three channels `v`) with their pixels.
    static func greys(_ colors: [(v: Int, pixels: Int)]) -> CountedColors {
        counts(colors.map { (r: $0.v, g: $0.v, b: $0.v, pixels: $0.pixels) })
    }

    static func grey(_ v: UInt8) -> GIFColor { GIFColor(red: v, green: v, blue: v) }

    /// Centring by hand: an entry moves to the pixel-weighted mean of the colours nearest
    /// it, rounded ((0×1 + 10×3) / 4 = 7.5 → 8; (100×2 + 104×2) / 4 = 102), a fixed entry stays
    /// though colours other than its own are nearest it, and a second round moves
    /// nothing. The error over the counted colours falls.
    @Test func centringMovesEntriesToTheCentreOfTheirColours() {
        let counts = Self.counts([(255, 255, 255, 50), (250, 250, 250, 10), (0, 0, 0, 1), (10, 0, 0, 3),
                                  (100, 100, 100, 2), (104, 100, 100, 2)])
        let white = GIFColor(red: 255, green: 255, blue: 255)
        let palette = [white, GIFColor(red: 0, green: 0, blue: 0), GIFColor(red: 100, green: 100, blue: 100)]
        let (centred, centredError) = counts.centred(palette, fixed: 1)
        #expect(centred == [white, GIFColor(red: 8, green: 0, blue: 0), GIFColor(red: 102, green: 100, blue: 100)])
        #expect(counts.centred(centred, fixed: 1).palette == centred)
        func error(_ palette: [GIFColor]) -> Int {
            [(255, 255, 255, 50), (250, 250, 250, 10), (0, 0, 0, 1), (10, 0, 0, 3), (100, 100, 100, 2), (104, 100, 100, 2)]
                .map { c in
                    c.3 * palette.map { e in
                        let r = c.0 - Int(e.red), g = c.1 - Int(e.green), b = c.2 - Int(e.blue)
                        return r * r + g * g + b * b
                    }.min()!
                }.reduce(0, +)
        }
        #expect(centredError == error(centred))
        #expect(error(centred) < error(palette), "\(error(centred)) against \(error(palette))")
        // Fixed, the same entries stay where they are.
        #expect(counts.centred(palette, fixed: 3) == (palette, error(palette)))
    }

    /// A palette with an entry for every counted colour is left as it is: each entry is
    /// the only colour nearest it, so a scene of at most 255 colours stays exact.
    @Test func centringKeepsAPaletteHoldingEveryColour() {
        let colors: [(r: Int, g: Int, b: Int, pixels: Int)] = [(255, 255, 255, 90), (250, 250, 250, 10), (0, 0, 0, 1), (8, 0, 0, 3)]
        let palette = colors.map { GIFColor(red: UInt8($0.r), green: UInt8($0.g), blue: UInt8($0.b)) }
        #expect(Self.counts(colors).centred(palette, fixed: 1) == (palette, 0))
        #expect(Self.counts(Array(colors.prefix(3))).centred(palette, fixed: 0) == (palette, 0))
    }

    /// The greedy choice with a spacing passes over colours nearer than it to an entry:
    /// grey 253 (3 × 2² = 12 from the fixed 255, its pixels erring 1000 × 12) is chosen
    /// first unspaced and at spacing 12, not at 13, where 239 (3 × 16², 10 pixels) is.
    @Test func spacedChoicePassesOverNearShades() {
        let counts = Self.greys([(255, 100_000), (253, 1000), (239, 10), (240, 10), (241, 10)])
        #expect(counts.worstMatched(by: [Self.grey(255)], adding: 1) == [Self.grey(253)])
        #expect(counts.worstMatched(by: [Self.grey(255)], adding: 1, spacing: 12) == [Self.grey(253)])
        #expect(counts.worstMatched(by: [Self.grey(255)], adding: 1, spacing: 13) == [Self.grey(239)])
        // Nothing far enough: nothing added.
        #expect(counts.worstMatched(by: [Self.grey(255)], adding: 2, spacing: 3 * 17 * 17) == [])
    }

    /// A scene of few colours keeps its shades apart where that errs no more. Above, the
    /// entry at 253 leaves 239…241 erring 3 × (14² + 13² + 12²) × 10 = 15,270 (centred,
    /// it stays at 253); spaced, 240 takes them (error 60) and 253 errs 12 × 1000 as
    /// part of 255's: 12,060 in all, less — so the spaced palette is the one made. With
    /// 254's 100,000 pixels instead, spacing would cost more error than it saves (255's
    /// 300,000 against 0's 3 × 254² = 193,548 when 254 has an entry): unspaced it stays.
    @Test func shadesAreKeptApartWhereThatErrsNoMore() {
        let spaced = Self.greys([(255, 100_000), (253, 1000), (239, 10), (240, 10), (241, 10)])
        #expect(spaced.centred([Self.grey(255), Self.grey(253)], fixed: 1).error == 15_270)
        #expect(spaced.centred([Self.grey(255), Self.grey(239)], fixed: 1) == ([Self.grey(255), Self.grey(240)], 12_060))
        #expect(spaced.palette(flat: [Self.grey(255)], room: 1) == [Self.grey(255), Self.grey(240)])
        let near = Self.greys([(255, 1_000_000), (254, 100_000), (0, 1)])
        #expect(near.palette(flat: [Self.grey(255)], room: 1) == [Self.grey(255), Self.grey(254)])
        // Room for every colour: each its own entry, whatever the spacing.
        #expect(spaced.palette(flat: [Self.grey(255)], room: 4).count == 5)
    }

    /// The nearest-entry search eight entries at a time finds what a search of every
    /// entry finds (the first of equals), for palettes of every length around the lanes.
    @Test(arguments: [1, 7, 8, 9, 16, 255])
    func nearestEntryIsTheFirstNearest(entries: Int) {
        var random = SplitMix64(seed: UInt64(entries))
        func channel() -> Int32 { Int32(random.next() % 16) * 17 }   // few values: many ties
        let palette = (0..<entries).map { _ in SIMD4<Int32>(channel(), channel(), channel(), 0) }
        let nearest = NearestEntry(palette)
        for _ in 0..<500 {
            let c = SIMD4<Int32>(Int32(random.next() % 256), Int32(random.next() % 256), Int32(random.next() % 256), 0)
            var index = 0, distance = Int32.max
            for (k, e) in palette.enumerated() where CountedColors.distance(c, e) < distance {
                index = k; distance = CountedColors.distance(c, e)
            }
            let found = nearest.find(c)
            #expect(found.index == index && found.distance == distance)
        }
    }

    /// A white 64×48 frame with a 40×20 square whose pixel (x, y) has `color(x, y)`.
    static func squareFrame(_ color: (Int, Int) -> (r: Int, g: Int, b: Int)) -> PixelImage {
        var image = PixelImage(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                let inside = (10..<50).contains(x) && (14..<34).contains(y)
                let c = inside ? color(x, y) : (r: 255, g: 255, b: 255)
                Synthetic.put(&image, x, y, r: Double(c.r) / 255, g: Double(c.g) / 255, b: Double(c.b) / 255, a: 1)
            }
        }
        return image
    }

    /// A frame between two samples whose tint the shared palette lacks, erring under
    /// the 25 a channel of a full table but over 0.25, gets a table of its own when its
    /// changed pixels hold few colours (at most 64: a small exact table), and is then
    /// drawn exactly; the same error over more colours stays on the shared table.
    @Test func fewColourFrameMissingFromTheSampleGetsASmallExactTable() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // One flat tint, 3 levels off the sampled tints in green and blue (MSE 6 a channel).
        let flat = [(40, 40), (43, 43), (46, 46)].map { g, b in Self.squareFrame { _, _ in (200, g, b) } }
        // 72 colours, each 3 levels off a sampled colour in green (MSE 3 a channel).
        let many = [20, 23, 26].map { g0 in Self.squareFrame { x, y in (200, g0 + 6 * (x % 36), 40 + 40 * (y % 2)) } }
        for (frames, ownTable) in [(flat, true), (many, false)] {
            let palette = try GIFPalette.make(from: [frames[0], frames[2]], options: GIFOptions())
            let options = GIFOptions(palette: .shared(palette))
            let square = GIFRect(x: 10, y: 14, width: 40, height: 20)
            let rgba = GIFFramePreparer.straightPixels(frames[1], in: square, previous: nil, keepAlpha: false)
            let remapped = try palette.remapper.remap(rgba: rgba, width: 40, height: 20, settings: options.quantizerSettings)
            let sharedError = GIFFramePreparer.meanSquaredError(rgba, remapped, palette.colors)
            #expect(sharedError > 0.25 && sharedError < 25, "shared palette: MSE \(sharedError)")
            let prepared = try encodeGIF(frames, to: folder + "/f.gif", options: options)
            #expect(prepared[0].localPalette == nil && prepared[2].localPalette == nil)
            if ownTable {
                #expect((prepared[1].localPalette?.count ?? 99) <= 64)
                let gif = try DecodedGIF(path: folder + "/f.gif")
                #expect(GIFTests.error(gif.canvases[1], frames[1]).max == 0)
            } else {
                #expect(prepared[1].localPalette == nil)
            }
        }
    }

    /// In a scene of few colours (at most ``GIFPaletteBuilder/exactColorLimit`` in the
    /// samples) every frame between the samples is asked for, at most
    /// ``GIFPaletteBuilder/maximumExtraSamples`` spread evenly, and their exact colours
    /// (``GIFPaletteBuilder/addColors(_:)``) reach the palette; a scene of many colours
    /// asks for none.
    @Test func framesBetweenSamplesAreCountedInASceneOfFewColours() throws {
        let red = Self.squareFrame { _, _ in (220, 30, 30) }, green = Self.squareFrame { _, _ in (30, 160, 60) }
        let tint = (r: 125, g: 95, b: 45), between = Self.squareFrame { _, _ in tint }
        let tintColor = GIFColor(red: UInt8(tint.r), green: UInt8(tint.g), blue: UInt8(tint.b))
        func builder(_ frames: [PixelImage]) throws -> GIFPaletteBuilder {
            let builder = try GIFPaletteBuilder(options: GIFOptions())
            for frame in frames { try builder.add(GIFPaletteBuilder.sample(frame)) }
            return builder
        }
        let positions = [0, 10, 20, 30]
        let few = try builder([red, red, green, green])
        #expect(few.extraSamplePositions(between: positions) == Array(1...9) + Array(11...19) + Array(21...29))
        few.addColors(GIFPaletteBuilder.colors(between))
        #expect(try few.palette().colors.contains(tintColor))
        // Without the frames between, the tint is in no sample and not in the palette.
        #expect(try !builder([red, red, green, green]).palette().colors.contains(tintColor))
        // Many frames between: at most maximumExtraSamples, spread evenly, ascending.
        let long = try builder([red, green]).extraSamplePositions(between: [0, 1000])
        #expect(long.count == GIFPaletteBuilder.maximumExtraSamples && long.first! < 5 && long.last! > 995)
        #expect(zip(long, long.dropFirst()).allSatisfy { $0 < $1 })
        // A frame of more colours than the limit: every pixel its own colour.
        var many = PixelImage(width: 80, height: 64)
        for y in 0..<64 {
            for x in 0..<80 { Synthetic.put(&many, x, y, r: Double(x) / 79, g: Double(y) / 63, b: Double(x + y) / 142, a: 1) }
        }
        #expect(Set(GIFPaletteBuilder.colors(many).colors.map(\.word)).count > GIFPaletteBuilder.exactColorLimit)
        #expect(try builder([many, many]).extraSamplePositions(between: [0, 10]) == [])
    }

    /// In a scene of many colours, the frames between two samples that share few colours
    /// (a menu sliding open through a blur) are sampled too, as samples
    /// (``GIFPaletteBuilder/extraFramesAreSamples``), at most
    /// ``GIFPaletteBuilder/maximumTurnoverSamples``; between samples sharing their
    /// colours, none.
    @Test func framesBetweenSamplesSharingFewColoursAreSampledInASceneOfManyColours() throws {
        // 80 × 64 pixels, each its own colour: more than exactColorLimit.
        func gradient(blue: Double) -> PixelImage {
            var image = PixelImage(width: 80, height: 64)
            for y in 0..<64 {
                for x in 0..<80 { Synthetic.put(&image, x, y, r: Double(x) / 79, g: Double(y) / 63, b: blue, a: 1) }
            }
            return image
        }
        let a = gradient(blue: 0.2), c = gradient(blue: 0.7)
        func builder(_ frames: [PixelImage]) throws -> GIFPaletteBuilder {
            let builder = try GIFPaletteBuilder(options: GIFOptions())
            for frame in frames { try builder.add(GIFPaletteBuilder.sample(frame)) }
            return builder
        }
        let turning = try builder([a, a, c, c])  // one gap of three turns over
        #expect(turning.extraSamplePositions(between: [0, 10, 20, 30]) == Array(11...19))
        #expect(turning.extraFramesAreSamples)
        try turning.add(GIFPaletteBuilder.sample(gradient(blue: 0.45)))
        #expect(try !turning.palette().colors.isEmpty)
        let still = try builder([a, a, a, a])
        #expect(still.extraSamplePositions(between: [0, 10, 20, 30]) == [])
        // Colours turning over between most samples: none (the samples have their share).
        let everywhere = try builder([a, c, a, a])
        #expect(everywhere.extraSamplePositions(between: [0, 10, 20, 30]) == [])
        let long = try builder([a, a, c]).extraSamplePositions(between: [0, 1, 1001])
        #expect(long.count == GIFPaletteBuilder.maximumTurnoverSamples && long.first! < 20 && long.last! > 980)
        #expect(long.allSatisfy { (2...1000).contains($0) })
        #expect(zip(long, long.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// A sample of a frame of more colours than a scene of few colours may hold carries
    /// the weights libimagequant's histogram gives its pixels (its ``NoiseMap``), made with
    /// the sample on whichever thread samples the frame, so that the ordered
    /// ``GIFPaletteBuilder/add(_:)`` only counts (issue 42); a frame of few colours
    /// carries none. Samples made on several threads at once and added in order give the
    /// palette of the same samples weighed as they are added, one after another — and the
    /// weights matter: every pixel weighed fully gives another palette.
    @Test func samplesOfManyColoursCarryTheirHistogramWeights() throws {
        // Noise over the top half (weighed down), a smooth ramp below: 96 × 96 pixels,
        // most their own colour, the noise shifted by `phase`.
        func frame(_ phase: UInt32) -> PixelImage {
            var image = PixelImage(width: 96, height: 96)
            var seed = 12345 &+ phase
            for y in 0..<96 {
                for x in 0..<96 {
                    seed = seed &* 1_103_515_245 &+ 12345
                    let noise = Double((seed >> 16) % 64) / 63
                    if y < 48 {
                        Synthetic.put(&image, x, y, r: 0.5 + 0.5 * noise, g: 0.1 * noise, b: Double(x) / 190, a: 1)
                    } else {
                        Synthetic.put(&image, x, y, r: Double(y) / 380, g: Double(x) / 95, b: 0.5 + Double(y - 48) / 95, a: 1)
                    }
                }
            }
            return image
        }
        let frames = (0..<6).map { frame(UInt32($0) * 7919) }
        let made = Mutex([GIFPaletteBuilder.Sample?](repeating: nil, count: frames.count))
        DispatchQueue.concurrentPerform(iterations: frames.count) { i in
            let sample = GIFPaletteBuilder.sample(frames[i])
            made.withLock { $0[i] = sample }
        }
        let samples = made.withLock { $0.compactMap { $0 } }
        #expect(samples.count == frames.count)
        for sample in samples {
            #expect(sample.colors.count > GIFPaletteBuilder.exactColorLimit)
            let map = sample.rgba.withUnsafeBytes { NoiseMap.of(rgba: $0, width: sample.width, height: sample.height) }
            #expect(sample.importance != nil && sample.importance == map)
        }
        // A frame of few colours: weighed only by the sampler of a builder whose samples
        // already make a scene of many colours.
        let few = Self.squareFrame { _, _ in (220, 30, 30) }
        #expect(GIFPaletteBuilder.sample(few).importance == nil)
        let builder = try GIFPaletteBuilder(options: GIFOptions())
        #expect(builder.sampler.sample(few).importance == nil)
        try builder.add(samples[0])
        #expect(builder.sampler.sample(few).importance != nil)
        func palette(_ samples: [GIFPaletteBuilder.Sample], weights: ((GIFPaletteBuilder.Sample) -> [UInt8]?)) throws -> [GIFColor] {
            let builder = try GIFPaletteBuilder(options: GIFOptions(colors: 16))
            for s in samples {
                try builder.add(GIFPaletteBuilder.Sample(rgba: s.rgba, width: s.width, height: s.height, runs: s.runs,
                                                         colors: s.colors, importance: weights(s)))
            }
            return try builder.palette().colors
        }
        let carried = try palette(samples) { $0.importance }
        #expect(carried == (try palette(samples) { _ in nil }))
        #expect(carried != (try palette(samples) { [UInt8](repeating: 255, count: $0.width * $0.height) }))
    }

    /// Samples of many colours held for ``GIFPaletteBuilder/palette()`` (``defersHistogram``,
    /// with more than two jobs) give the palette of samples added to the histogram at once,
    /// and so do samples held, handed over by ``stopDeferring()`` and followed by more.
    @Test func heldSamplesGiveThePaletteOfSamplesAddedAtOnce() throws {
        func frame(_ phase: Int) -> PixelImage {
            var image = PixelImage(width: 80, height: 64)
            for y in 0..<64 {
                for x in 0..<80 {
                    Synthetic.put(&image, x, y, r: Double((x + phase) % 80) / 79, g: Double(y) / 63,
                                  b: Double((x * y + phase) % 97) / 96, a: 1)
                }
            }
            return image
        }
        let samples = (0..<6).map { GIFPaletteBuilder.sample(frame($0 * 13), weighed: true) }
        func palette(defers: Bool, stoppingAfter: Int? = nil) throws -> (colors: [GIFColor], held: Int) {
            let builder = try GIFPaletteBuilder(options: GIFOptions(colors: 32))
            builder.defersHistogram = defers
            var held = 0
            for (i, sample) in samples.enumerated() {
                if i == stoppingAfter { try builder.stopDeferring() }
                try builder.add(sample)
                held = max(held, builder.heldSamples)
            }
            return (try builder.palette().colors, held)
        }
        let atOnce = try palette(defers: false), held = try palette(defers: true), stopped = try palette(defers: true, stoppingAfter: 3)
        #expect(atOnce.held == 0 && held.held == samples.count && stopped.held == 3)
        #expect(held.colors == atOnce.colors)
        #expect(stopped.colors == atOnce.colors)
        // Not the palette of fewer samples: every held sample reached the histogram.
        let firstThree = try GIFPaletteBuilder(options: GIFOptions(colors: 32))
        for sample in samples.prefix(3) { try firstThree.add(sample) }
        #expect(try firstThree.palette().colors != atOnce.colors)
    }

    /// A body moving between two samples blends its edge rows into shades no sample has,
    /// one row a frame; thin lines fall between the pixels libimagequant's histogram
    /// samples (every second one of every second row). Both reach the palette of a scene
    /// of few colours exactly: its colours are counted from every pixel of every frame.
    @Test func thinEdgesOfEveryFrameReachThePaletteExactly() throws {
        // A 300×300 frame (sampled every second pixel of every second row) with a square
        // whose top edge row, an odd one, blends into the background by `share`.
        func frame(top: Int, share: Double) -> PixelImage {
            var image = PixelImage(width: 300, height: 300)
            for y in 0..<300 {
                for x in 0..<300 {
                    let inside = (60..<140).contains(x) && (top..<(top + 80)).contains(y)
                    let edge = (60..<140).contains(x) && y == top - 1
                    let t = inside ? 1 : edge ? share : 0
                    Synthetic.put(&image, x, y, r: 0.93 - 0.93 * t + t, g: 0.92 - 0.92 * t, b: 0.9 - 0.9 * t, a: 1)
                }
            }
            return image
        }
        let frames = (0..<31).map { frame(top: 102 + 2 * $0, share: Double($0 + 1) / 32) }
        let builder = try GIFPaletteBuilder(options: GIFOptions())
        let positions = GIFPaletteBuilder.samplePositions(frameCount: frames.count)
        for p in positions { try builder.add(GIFPaletteBuilder.sample(frames[p])) }
        for p in builder.extraSamplePositions(between: positions) { builder.addColors(GIFPaletteBuilder.colors(frames[p])) }
        let palette = Set(try builder.palette().colors)
        for f in frames {
            for (x, y) in [(100, 0), (100, 150)] + (0..<31).map({ (100, 101 + 2 * $0) }) {
                let c = f.rgba(x: x, y: y)
                #expect(palette.contains(GIFColor(red: c.r, green: c.g, blue: c.b)), "(\(x), \(y)): \(c)")
            }
        }
    }

    /// Counting a frame's colours reads Cairo's premultiplied words as they are and gives
    /// the colours and counts of the straight, opaque pixels the quantizer sees; colours
    /// two premultiplied words share are counted once, transparent black too.
    @Test func colourCountsMatchTheStraightPixels() {
        var image = PixelImage(width: 37, height: 23)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<23 {
            for x in 0..<37 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let v = Int(state >> 33)
                // Runs, partial alpha, transparent pixels and a few opaque colours.
                let a = [0, 1, 128, 200, 255, 255, 255, 255][v % 8]
                let c = (x / 5 + y) % 3 == 0 ? 40 : (v >> 3) % 256
                let i = y * image.stride + x * 4
                image.bytes[i] = UInt8(c * a / 255); image.bytes[i + 1] = UInt8(a / 2)
                image.bytes[i + 2] = UInt8(a * (v >> 11 & 1)); image.bytes[i + 3] = UInt8(a)
            }
        }
        let whole = GIFRect(x: 0, y: 0, width: 37, height: 23)
        let rgba = GIFFramePreparer.straightPixels(image, in: whole, previous: nil, keepAlpha: false)
        var expected: [UInt32: Int] = [:]
        for i in stride(from: 0, to: rgba.count, by: 4) {
            expected[UInt32(rgba[i]) | UInt32(rgba[i + 1]) << 8 | UInt32(rgba[i + 2]) << 16 | UInt32(rgba[i + 3]) << 24, default: 0] += 1
        }
        let counted = ColorCounts.counted(image)
        #expect(counted.count == expected.count)
        #expect(Dictionary(counted.map { ($0.word, $0.count) }, uniquingKeysWith: +) == expected)
    }

    /// Remapping measures the frame's error as it looks pixels up, with or without
    /// dithering: the same indices as `remap`, and the error `meanSquaredError` sums over
    /// them — pixels with alpha 0 (with a colour or without) and those given the
    /// transparent entry left out.
    @Test(arguments: [0.0, 1.0]) func remappingMeasuresItsError(dithering: Double) throws {
        let colors = (0..<40).map { (i: Int) -> GIFColor in
            GIFColor(red: UInt8(i * 6), green: UInt8(255 - i * 5), blue: UInt8(i * 37 % 256))
        }
        let palette = try GIFPalette(colors: colors)
        let settings = GIFOptions(dithering: dithering).quantizerSettings
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(state >> 56)
        }
        for trial in 0..<50 {
            let width = 1 + Int(next()) % 60, height = 1 + Int(next()) % 8
            // A few colours, in runs, some transparent, some of alpha 0 with a colour.
            let shades = (0..<(1 + trial % 12)).map { _ in [next(), next(), next(), next() < 40 ? 0 : 255] }
            var rgba: [UInt8] = []
            while rgba.count < width * height * 4 {
                let shade = next() < 64 ? [0, 0, 0, 0] : shades[Int(next()) % shades.count]
                for _ in 0..<min(1 + Int(next()) % 7, width * height - rgba.count / 4) { rgba += shade }
            }
            let (indices, error) = try palette.remapper.remapMeasuringError(rgba: rgba, width: width, height: height, settings: settings)
            #expect(indices == (try palette.remapper.remap(rgba: rgba, width: width, height: height, settings: settings)))
            let measured = try #require(error, "trial \(trial)")
            let mapped = indices.map { $0 == UInt8(colors.count) ? PreparedGIFFrame.transparentIndex : $0 }
            #expect((measured.count == 0 ? 0 : Double(measured.sum) / Double(3 * measured.count))
                    == GIFFramePreparer.meanSquaredError(rgba, mapped, colors), "trial \(trial)")
            #expect(measured.count == (0..<(width * height)).count { rgba[$0 * 4 + 3] != 0 && Int(indices[$0]) < colors.count })
        }
    }

    /// Without dithering, remapping each distinct colour once gives the indices
    /// libimagequant gives every pixel: palette colours, colours between them, runs,
    /// transparent pixels, and a transparent white that is not the table's transparent key.
    @Test func unditheredRemappingByColourMatchesRemappingEveryPixel() throws {
        let colors = (0..<40).map { (i: Int) -> GIFColor in
            GIFColor(red: UInt8(i * 6), green: UInt8(255 - i * 5), blue: UInt8(i * 37 % 256))
        }
        let palette = try GIFPalette(colors: colors)
        let width = 61, height = 17
        var rgba: [UInt8] = []
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for i in 0..<(width * height) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let v = Int(state >> 33)
            switch v % 5 {
            case 0: rgba += [0, 0, 0, 0]
            case 1: let c = colors[v / 5 % colors.count]; rgba += [c.red, c.green, c.blue, 255]
            case 2 where i >= 1: rgba += rgba[(rgba.count - 4)...]
            default: rgba += [UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF), 255]
            }
        }
        let settings = GIFOptions(dithering: 0).quantizerSettings
        let byPixel = try palette.remapper.remap(rgba: rgba, width: width, height: height, settings: settings, asOneImage: true)
        #expect(try palette.remapper.remap(rgba: rgba, width: width, height: height, settings: settings) == byPixel)
        #expect(Set(byPixel).count > 30 && byPixel.contains(UInt8(colors.count)))
        // Alpha 0 with a colour: remapped pixel by pixel.
        var odd = rgba
        odd.replaceSubrange(0..<4, with: [255, 255, 255, 0])
        #expect(try palette.remapper.remap(rgba: odd, width: width, height: height, settings: settings)
                == palette.remapper.remap(rgba: odd, width: width, height: height, settings: settings, asOneImage: true))
    }

    /// `ColorCounts.indexed` gives the pixels as runs of one colour, found 8 pixels at a
    /// time: expanded, the runs are the pixels (each run's colour is its pixels' bytes),
    /// neighbouring runs differ, colours are numbered in first-seen order; runs long and
    /// short, ending at and across 8-pixel steps. The remapping from them (with its error)
    /// matches libimagequant's remapping of every pixel.
    @Test func colourRunsAreThePixels() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let colors = (0..<12).map { (i: Int) -> GIFColor in
            GIFColor(red: UInt8(i * 20), green: UInt8(200 - i * 9), blue: UInt8(i * 53 % 256))
        }
        let palette = try GIFPalette(colors: colors)
        let settings = GIFOptions(dithering: 0).quantizerSettings
        for trial in 0..<40 {
            let shades: [[UInt8]] = [[0, 0, 0, 0]] + (0..<(1 + trial % 9)).map { _ in
                [UInt8(next() & 0xFF), UInt8(next() & 0xFF), UInt8(next() & 0xFF), 255]
            }
            var rgba: [UInt8] = []
            let pixels = 1 + next() % 700
            while rgba.count < pixels * 4 {
                let shade = shades[next() % shades.count], length = [1, 7, 8, 9, 16, 17, 40][next() % 7]
                for _ in 0..<min(length, pixels - rgba.count / 4) { rgba += shade }
            }
            let (found, runs) = try #require(ColorCounts.indexed(rgba))
            var expanded: [UInt8] = [], start = 0, seen: [UInt32] = []
            for run in runs {
                #expect(run.end > start)
                let o = Int(run.id) * 4
                for _ in start..<run.end { expanded += found[o..<(o + 4)] }
                if !seen.contains(run.id) { seen.append(run.id) }
                start = run.end
            }
            #expect(expanded == rgba, "trial \(trial)")
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.id != $1.id })
            #expect(seen == (0..<UInt32(found.count / 4)).map { $0 })
            let (indices, error) = try palette.remapper.remapMeasuringError(rgba: rgba, width: pixels, height: 1,
                                                                             settings: settings)
            let byPixel = try palette.remapper.remap(rgba: rgba, width: pixels, height: 1, settings: settings, asOneImage: true)
            #expect(indices == byPixel, "trial \(trial)")
            let mapped = byPixel.map { $0 == UInt8(colors.count) ? PreparedGIFFrame.transparentIndex : $0 }
            let measured = try #require(error)
            #expect((measured.count == 0 ? 0 : Double(measured.sum) / Double(3 * measured.count))
                    == GIFFramePreparer.meanSquaredError(rgba, mapped, colors), "trial \(trial)")
        }
        // Cairo's transparent word among straight pixels: no runs.
        #expect(ColorCounts.indexed([1, 2, 3, 255] + [255, 255, 255, 0]) == nil)
    }

    /// `ColorCounts.hasAtMost` answers what counting the distinct opaque colours answers,
    /// at the count and one under it, on pixels of up to 80 colours in runs of unchanged
    /// (0) pixels long and short — stepped over, not counted —, with colours of another
    /// alpha (not counted) among them.
    @Test func colourCountLimitsCountTheOpaqueColours() {
        var state: UInt64 = 0x5851_F42D_4C95_7F2D
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for trial in 0..<60 {
            let shades: [[UInt8]] = (0..<(1 + trial % 80)).map { k in
                [UInt8(next() & 0xFF), UInt8(k), UInt8(next() & 0xFF), k % 9 == 8 ? 100 : 255]
            }
            var rgba: [UInt8] = []
            for _ in 0..<(1 + next() % 300) {
                let zeros = [0, 1, 3, 15, 16, 17, 70][next() % 7]
                rgba += [UInt8](repeating: 0, count: zeros * 4)
                for _ in 0..<(1 + next() % 3) { rgba += shades[next() % shades.count] }
            }
            let colours = Set(stride(from: 0, to: rgba.count, by: 4).filter { rgba[$0 + 3] == 255 }.map { o in
                rgba.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: o, as: UInt32.self) }
            }).count
            #expect(ColorCounts.hasAtMost(colours, colorsIn: rgba), "trial \(trial)")
            if colours > 0 { #expect(!ColorCounts.hasAtMost(colours - 1, colorsIn: rgba), "trial \(trial)") }
        }
    }

    @Test func badColourCountsAreRejected() throws {
        #expect(throws: EncodeError.invalidOptions(reason: "colors 1 is outside 2…256")) {
            _ = try GIFWriter(path: "/tmp/never.gif", width: 4, height: 4, options: GIFOptions(colors: 1))
        }
        #expect(throws: EncodeError.invalidOptions(reason: "colors 257 is outside 2…256")) {
            _ = try GIFPaletteBuilder(options: GIFOptions(colors: 257))
        }
        let palette = try GIFPalette.make(from: Synthetic.frames(2), options: GIFOptions(colors: 16))
        #expect(throws: EncodeError.self) {
            _ = try GIFWriter(path: "/tmp/never.gif", width: 4, height: 4,
                              options: GIFOptions(palette: .shared(palette), colors: palette.colors.count))
        }
        #expect(throws: EncodeError.invalidOptions(reason: "--colors and --dither apply to .gif only")) {
            var settings = AnimationSettings(fps: 25)
            settings.colors = 16
            try settings.validate(for: .mp4)
        }
    }

    /// Unchanged pixels near a change written as the shared entry they show (``GIFLZW``'s
    /// alternatives) leave every frame's picture as it is: the animation written without
    /// them decodes to the same canvases, frame by frame, and the two differ only at
    /// pixels the one without leaves transparent.
    @Test func unchangedPixelsWrittenAsWhatTheyShowLeaveEveryFrame() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(12)
        var options = GIFOptions()
        options.palette = .shared(try GIFPalette.make(from: frames, options: options))
        func write(reach: Int, to path: String) throws -> DecodedGIF {
            let writer = try GIFWriter(path: path, width: frames[0].width, height: frames[0].height, options: options)
            writer.alternativeReach = reach
            for (i, frame) in frames.enumerated() {
                try writer.write(GIFFramePreparer.prepare(frame, previous: i > 0 ? frames[i - 1] : nil, options: options),
                                 delayCentiseconds: 2)
            }
            try writer.finish()
            return try DecodedGIF(path: path)
        }
        let without = try write(reach: 0, to: folder + "/without.gif")
        let with = try write(reach: GIFWriter.defaultAlternativeReach, to: folder + "/with.gif")
        #expect(with.canvases == without.canvases)
        #expect(with.rects == without.rects)
        let taken = with.rasters != without.rasters
        #expect(taken, "no alternative was taken")
        for (frame, (a, b)) in zip(with.rasters, without.rasters).enumerated() {
            let transparent = UInt8(without.transparentIndices[frame])
            let elsewhere = zip(a, b).filter { $0 != $1 && $1 != transparent }.count
            #expect(elsewhere == 0, "frame \(frame): \(elsewhere) drawn pixels changed")
        }
    }
}
