import CGif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import KineticGeometry
import Testing
@testable import KineticEncode

@Suite struct GIFTests {
    /// Largest per-channel difference and mean absolute difference between the decoded
    /// canvas and the source frame, over pixels where the source is opaque.
    static func error(_ canvas: [UInt8], _ source: PixelImage) -> (max: Int, mean: Double) {
        var worst = 0, total = 0, n = 0
        for y in 0..<source.height {
            for x in 0..<source.width {
                let s = source.rgba(x: x, y: y)
                let o = (y * source.width + x) * 4
                for (c, d) in [(s.r, canvas[o]), (s.g, canvas[o + 1]), (s.b, canvas[o + 2])] {
                    let e = abs(Int(c) - Int(d))
                    worst = max(worst, e); total += e; n += 1
                }
            }
        }
        return (worst, Double(total) / Double(n))
    }

    @Test(arguments: [0.0, 1.0])
    func roundTripMatchesTheSource(dithering: Double) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(10)
        let delays = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        let options = GIFOptions(dithering: dithering, loopCount: 3)
        try encodeGIF(frames, to: folder + "/r.gif", options: options, delays: delays)
        let gif = try DecodedGIF(path: folder + "/r.gif")
        #expect(gif.width == 64 && gif.height == 48)
        #expect(gif.canvases.count == 10)
        #expect(gif.delays == delays)
        #expect(gif.disposals.allSatisfy { $0 == DISPOSE_DO_NOT })
        // The transparent index follows the frame's colours in the smallest table that fits.
        for (t, n) in zip(gif.transparentIndices, gif.tableSizes) {
            #expect(t < n && n <= 256 && n.nonzeroBitCount == 1 && (n == 2 || Int(t) >= n / 2))
        }
        for (i, canvas) in gif.canvases.enumerated() {
            // Every pixel drawn, and close to the source. The background is a 64 × 48 grid of
            // colours (red and blue vary with x by 153 and 127 levels, green with y by 127):
            // 255 palette entries make cells of about 4 × 3 pixels, i.e. about 5 levels per
            // channel from a cell's centre. Allow 13 without dithering (the disc's flat
            // colour is pinned as an exact entry, leaving the others slightly coarser
            // cells); dithering trades that for noise of up to about one cell (24), with a
            // mean still near 2.
            #expect(stride(from: 3, to: canvas.count, by: 4).allSatisfy { canvas[$0] == 255 })
            let e = Self.error(canvas, frames[i])
            #expect(e.max <= (dithering == 0 ? 13 : 24), "frame \(i): max error \(e.max)")
            #expect(e.mean <= 3, "frame \(i): mean error \(e.mean)")
        }
        // NETSCAPE2.0 loop extension directly after the 13-byte header + screen descriptor
        // and the global colour table (the first frame's colours, 3 bytes an entry, its
        // size 2^(n+1) in the descriptor's low bits): loop count 3, little-endian.
        let bytes = try #require(FileManager.default.contents(atPath: folder + "/r.gif")).map { $0 }
        #expect(Array(bytes[0..<6]) == Array("GIF89a".utf8))
        #expect(bytes[10] & 0x80 != 0)
        let table = 3 * (2 << Int(bytes[10] & 7))
        #expect(table == 3 * gif.globalColorCount && gif.colorCounts[0] == 0)
        #expect(Array(bytes[(13 + table)..<(16 + table)]) == [0x21, 0xFF, 0x0B])
        #expect(Array(bytes[(16 + table)..<(27 + table)]) == Array("NETSCAPE2.0".utf8))
        #expect(Array(bytes[(27 + table)..<(32 + table)]) == [3, 1, 3, 0, 0])
        #expect(bytes.last == 0x3B)
    }

    @Test func differencingStoresOnlyTheChangedSquare() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = Synthetic.frame(0)
        // Second frame: a 6×5 outline at (30, 7); its 4×3 inside is left as it was.
        var second = first
        for y in 7..<12 { for x in 30..<36 where y == 7 || y == 11 || x == 30 || x == 35 {
            Synthetic.put(&second, x, y, r: 0, g: 0, b: 1, a: 1)
        } }
        let third = second
        var fourth = third
        Synthetic.put(&fourth, 63, 47, r: 1, g: 1, b: 1, a: 1)
        let prepared = try encodeGIF([first, second, third, fourth], to: folder + "/d.gif")
        #expect(prepared[1].rect == GIFRect(x: 30, y: 7, width: 6, height: 5))
        for y in 1..<4 { for x in 1..<5 {
            #expect(prepared[1].indices[y * 6 + x] == PreparedGIFFrame.transparentIndex)
        } }
        #expect(prepared[1].indices[0] != PreparedGIFFrame.transparentIndex)
        // Unchanged frame: one transparent pixel.
        #expect(prepared[2].rect == GIFRect(x: 0, y: 0, width: 1, height: 1))
        #expect(prepared[2].indices == [PreparedGIFFrame.transparentIndex])

        let gif = try DecodedGIF(path: folder + "/d.gif")
        #expect(gif.rects == [GIFRect(x: 0, y: 0, width: 64, height: 48),
                              GIFRect(x: 30, y: 7, width: 6, height: 5),
                              GIFRect(x: 0, y: 0, width: 1, height: 1),
                              GIFRect(x: 63, y: 47, width: 1, height: 1)])
        #expect(Array(gif.canvases[3][(gif.canvases[3].count - 4)...]) == [255, 255, 255, 255])
        // The outline is pure blue; the inside still shows the first frame.
        let o = (7 * 64 + 30) * 4
        #expect(Array(gif.canvases[1][o..<(o + 3)]) == [0, 0, 255])
        #expect(gif.canvases[1][((9 * 64 + 32) * 4)...].prefix(4) == gif.canvases[0][((9 * 64 + 32) * 4)...].prefix(4))
        #expect(gif.canvases[2] == gif.canvases[1])
    }

    /// Large rectangles build their palette from every second pixel of every second row;
    /// unchanged pixels the sample skips must still become transparent, and the frame
    /// must still match the source.
    @Test func subsampledPaletteKeepsUnchangedPixelsTransparent() throws {
        let (w, h) = (300, 240)  // 72 000 pixels: above the 65 536 sampling threshold
        var first = PixelImage(width: w, height: h), second = PixelImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w {
            let u = Double(x) / Double(w), v = Double(y) / Double(h)
            Synthetic.put(&first, x, y, r: u, g: v, b: 0.5, a: 1)
            Synthetic.put(&second, x, y, r: 1 - u, g: 0.5, b: 0.1 + 0.3 * v, a: 1)  // blue < 0.5: differs everywhere
        } }
        let kept = [(1, 1), (3, 5), (299, 239)]  // odd coordinates: never sampled
        for (x, y) in kept {
            let i = y * first.stride + x * 4
            second.bytes[i..<(i + 4)] = first.bytes[i..<(i + 4)]
        }
        let frame = try GIFFramePreparer.prepare(second, previous: first, options: GIFOptions())
        #expect(frame.rect == GIFRect(x: 0, y: 0, width: w, height: h))
        for (x, y) in kept { #expect(frame.indices[y * w + x] == PreparedGIFFrame.transparentIndex) }
        #expect(frame.indices.filter { $0 == PreparedGIFFrame.transparentIndex }.count == kept.count)
        let palette = try #require(frame.localPalette)
        var worst = 0
        for y in 0..<h { for x in 0..<w where !kept.contains(where: { $0 == (x, y) }) {
            let s = second.rgba(x: x, y: y), c = palette[Int(frame.indices[y * w + x])]
            worst = max(worst, abs(Int(s.r) - Int(c.red)), abs(Int(s.g) - Int(c.green)), abs(Int(s.b) - Int(c.blue)))
        } }
        // A 2-D gradient of 300 × 240 colours in 254 entries: cells of about 19 × 15
        // pixels, about 16 levels per channel across; dithering adds up to about a cell.
        #expect(worst <= 32)
    }

    /// A large rectangle of which few pixels changed builds its palette from all of them:
    /// 240 distinct colours, one on every row at an odd x (which a 2 × 2 sample never
    /// sees), spread over 300 × 240 pixels, all come out exact.
    @Test func sparseChangesInALargeRectangleKeepTheirColours() throws {
        let (w, h) = (300, 240)
        var first = PixelImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w { Synthetic.put(&first, x, y, r: 0.5, g: 0.5, b: 0.5, a: 1) } }
        var second = first
        var changed: [(x: Int, y: Int, rgb: [UInt8])] = []
        for k in 0..<240 {
            let x = 1 + 2 * ((k * 37) % 150), y = k
            let rgb = [UInt8(k), UInt8(255 - k), UInt8((k * 7) % 256)]
            Synthetic.put(&second, x, y, r: Double(rgb[0]) / 255, g: Double(rgb[1]) / 255, b: Double(rgb[2]) / 255, a: 1)
            changed.append((x, y, rgb))
        }
        #expect(Set(changed.map { $0.y * w + $0.x }).count == 240)
        let frame = try GIFFramePreparer.prepare(second, previous: first, options: GIFOptions())
        #expect(frame.rect.width * frame.rect.height > 256 * 256)
        let palette = try #require(frame.localPalette)
        for p in changed {
            let index = frame.indices[(p.y - frame.rect.y) * frame.rect.width + p.x - frame.rect.x]
            let c = palette[Int(index)]
            #expect([c.red, c.green, c.blue] == p.rgb, "pixel \(p.x),\(p.y)")
        }
    }

    @Test func transparentBackgroundKeepsCoverageAndReplacesFrames() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(6, transparent: true)
        let options = GIFOptions(transparentBackground: true)
        let prepared = try encodeGIF(frames, to: folder + "/t.gif", options: options)
        #expect(prepared.allSatisfy { $0.rect == GIFRect(x: 0, y: 0, width: 64, height: 48) })
        let gif = try DecodedGIF(path: folder + "/t.gif")
        #expect(gif.disposals.allSatisfy { $0 == DISPOSE_BACKGROUND })
        for (i, canvas) in gif.canvases.enumerated() {
            for y in 0..<48 { for x in 0..<64 {
                let s = frames[i].rgba(x: x, y: y)
                let o = (y * 64 + x) * 4
                #expect((canvas[o + 3] == 255) == (s.a >= 128), "frame \(i) pixel \(x),\(y)")
                if s.a >= 128 {
                    // The disc is one colour: un-premultiplied edges must match its centre.
                    #expect(abs(Int(canvas[o]) - 255) <= 4 && abs(Int(canvas[o + 1]) - 140) <= 4
                            && abs(Int(canvas[o + 2]) - 26) <= 4, "frame \(i) pixel \(x),\(y)")
                }
            } }
        }
    }

    @Test func emptyAndSingleColourFrames() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let empty = PixelImage(width: 20, height: 10)
        var red = empty
        for y in 0..<10 { for x in 0..<20 { Synthetic.put(&red, x, y, r: 1, g: 0, b: 0, a: 1) } }
        let options = GIFOptions(transparentBackground: true)
        let prepared = try encodeGIF([empty, red, empty], to: folder + "/e.gif", options: options)
        #expect(prepared[0].indices.allSatisfy { $0 == PreparedGIFFrame.transparentIndex })
        #expect(Set(prepared[1].indices).count == 1)
        let gif = try DecodedGIF(path: folder + "/e.gif")
        #expect(gif.canvases[0].allSatisfy { $0 == 0 })
        #expect(gif.canvases[1] == Array([[UInt8]](repeating: [255, 0, 0, 255], count: 200).joined()))
        #expect(gif.canvases[2].allSatisfy { $0 == 0 })  // the red frame was cleared
    }

    @Test func halfTransparentWhiteStaysWhite() throws {
        var image = PixelImage(width: 2, height: 1)
        // 50 %-alpha white: premultiplied (128, 128, 128, 128).
        image.bytes = [128, 128, 128, 128, 0, 0, 0, 0]
        let frame = try GIFFramePreparer.prepare(image, previous: nil, options: GIFOptions(transparentBackground: true))
        let palette = try #require(frame.localPalette)
        #expect(frame.indices[1] == PreparedGIFFrame.transparentIndex)
        #expect(palette[Int(frame.indices[0])] == GIFColor(red: 255, green: 255, blue: 255))
        // Opaque mode un-premultiplies too.
        let opaque = try GIFFramePreparer.prepare(image, previous: nil, options: GIFOptions())
        let opaquePalette = try #require(opaque.localPalette)
        #expect(opaquePalette[Int(opaque.indices[0])] == GIFColor(red: 255, green: 255, blue: 255))
    }

    @Test func sameInputGivesIdenticalBytesWhateverTheThreads() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(8)
        let options = GIFOptions(speed: 6)  // the speed where OpenMP threads would matter
        let sequential = try encodeGIF(frames, to: folder + "/a.gif", options: options)
        // Prepare the same frames concurrently, as the render pipeline does.
        // Unsafe on purpose: each iteration writes only its own element.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<PreparedGIFFrame?>.allocate(capacity: frames.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: frames.count) { i in
            results[i] = try? GIFFramePreparer.prepare(frames[i], previous: i > 0 ? frames[i - 1] : nil, options: options)
        }
        #expect(Array(results) == sequential.map { Optional($0) })
        try encodeGIF(frames, to: folder + "/b.gif", options: options)
        let a = FileManager.default.contents(atPath: folder + "/a.gif")
        #expect(a != nil && a == FileManager.default.contents(atPath: folder + "/b.gif"))
    }

    /// libimagequant's output depends on OpenMP's thread count at speeds 6–7 (the dither
    /// map is only used with several threads); the preparer must pin it. Set the calling
    /// thread's OpenMP thread count to 1 and to 4 before preparing: same frames either way.
    @Test func openMPThreadCountDoesNotChangeTheOutput() throws {
        let setThreads = try #require(dlsym(nil, "omp_set_num_threads").map {
            unsafeBitCast($0, to: (@convention(c) (Int32) -> Void).self)
        }, "Debian's libimagequant is built with OpenMP")
        let frames = Synthetic.frames(4).map { frame in
            // Larger than the other tests' frames so libimagequant's contrast maps kick in.
            var big = PixelImage(width: 256, height: 192)
            for y in 0..<192 { for x in 0..<256 {
                let s = frame.rgba(x: x / 4, y: y / 4)
                let n = Double((x * 7 + y * 13) % 17) / 160  // some texture
                Synthetic.put(&big, x, y, r: Double(s.r) / 255 - n, g: Double(s.g) / 255, b: Double(s.b) / 255 + n, a: 1)
            } }
            return big
        }
        func prepareAll(threads: Int32) throws -> [PreparedGIFFrame] {
            try (0..<frames.count).map { i in
                setThreads(threads)
                return try GIFFramePreparer.prepare(frames[i], previous: i > 0 ? frames[i - 1] : nil,
                                                    options: GIFOptions(speed: 7))
            }
        }
        #expect(try prepareAll(threads: 1) == prepareAll(threads: 4))
    }

    @Test func sharedPaletteIsTheGlobalColourTable() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(6)
        let palette = try GIFPalette.make(from: frames, options: GIFOptions())
        #expect(palette.colors.count <= 255)
        let options = GIFOptions(palette: .shared(palette))
        let prepared = try encodeGIF(frames, to: folder + "/s.gif", options: options)
        #expect(prepared.allSatisfy { $0.localPalette == nil })
        let gif = try DecodedGIF(path: folder + "/s.gif")
        #expect(gif.canvases.count == 6)
        for (i, canvas) in gif.canvases.enumerated() {
            let e = Self.error(canvas, frames[i])
            #expect(e.max <= 24 && e.mean <= 3, "frame \(i): \(e)")
        }
        let bytes = try #require(FileManager.default.contents(atPath: folder + "/s.gif")).map { $0 }
        #expect(bytes[10] & 0x87 == 0x87)  // global table present, 256 entries
    }

    @Test func badOptionsAndMismatchedFramesAreRejected() throws {
        let frame = Synthetic.frame(0)
        #expect(throws: EncodeError.invalidOptions(reason: "dithering 1.5 is outside 0…1")) {
            _ = try GIFFramePreparer.prepare(frame, previous: nil, options: GIFOptions(dithering: 1.5))
        }
        #expect(throws: EncodeError.invalidOptions(reason: "loop count 70000 is outside 0…65535")) {
            _ = try GIFWriter(path: "/tmp/never.gif", width: 4, height: 4, options: GIFOptions(loopCount: 70000))
        }
        #expect(throws: EncodeError.invalidImage(reason: "previous frame is 80×48, this one 64×48")) {
            _ = try GIFFramePreparer.prepare(frame, previous: Synthetic.frame(0, width: 80), options: GIFOptions())
        }
        #expect(throws: EncodeError.self) {
            _ = try GIFFramePreparer.prepare(PixelImage(width: 0, height: 3), previous: nil, options: GIFOptions())
        }
    }

    /// The writer checks indices against the table only where an index can miss it: a
    /// shared table of fewer than 255 colours.
    @Test func indicesBeyondTheSharedTableAreRejected() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rect = GIFRect(x: 0, y: 0, width: 2, height: 1)
        let small = try GIFPalette(colors: [GIFColor(red: 255, green: 0, blue: 0), GIFColor(red: 0, green: 0, blue: 255)])
        let writer = try GIFWriter(path: folder + "/small.gif", width: 2, height: 1,
                                   options: GIFOptions(palette: .shared(small)))
        try writer.write(PreparedGIFFrame(rect: rect, indices: [1, PreparedGIFFrame.transparentIndex],
                                          localPalette: nil, disposal: .doNotDispose), delayCentiseconds: 10)
        #expect(throws: EncodeError.invalidImage(reason: "frame uses a colour index beyond its 2-colour palette")) {
            try writer.write(PreparedGIFFrame(rect: rect, indices: [0, 2], localPalette: nil, disposal: .doNotDispose),
                             delayCentiseconds: 10)
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/small.gif"))
        let full = try GIFPalette(colors: (0..<255).map { GIFColor(red: UInt8($0), green: 0, blue: 0) })
        let fullWriter = try GIFWriter(path: folder + "/full.gif", width: 2, height: 1,
                                       options: GIFOptions(palette: .shared(full)))
        try fullWriter.write(PreparedGIFFrame(rect: rect, indices: [254, PreparedGIFFrame.transparentIndex],
                                              localPalette: nil, disposal: .doNotDispose), delayCentiseconds: 10)
        try fullWriter.finish()
        let gif = try DecodedGIF(path: folder + "/full.gif")
        #expect(gif.canvases.count == 1)
    }

    /// With source colours the display check finds the largest index band by band: an
    /// index beyond the table in the last band of four, or in the one pixel a band of
    /// several drew, is rejected as in one pass.
    @Test func indicesBeyondTheSharedTableAreRejectedByBands() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (width, height) = (256, 1024)
        let rect = GIFRect(x: 0, y: 0, width: width, height: height)
        let small = try GIFPalette(colors: [GIFColor(red: 255, green: 0, blue: 0), GIFColor(red: 0, green: 0, blue: 255)])
        for (jobs, bad) in [(4, width * height - 1), (4, 3 * width * height / 4), (1, width * height - 1), (4, 0)] {
            let path = folder + "/bands\(jobs)-\(bad).gif"
            let writer = try GIFWriter(path: path, width: width, height: height,
                                       options: GIFOptions(palette: .shared(small)), jobs: jobs)
            var indices = [UInt8](repeating: PreparedGIFFrame.transparentIndex, count: width * height)
            indices[bad] = 2
            let source = [UInt8](repeating: 255, count: width * height * 4)
            #expect(throws: EncodeError.invalidImage(reason: "frame uses a colour index beyond its 2-colour palette")) {
                try writer.write(PreparedGIFFrame(rect: rect, indices: indices, localPalette: nil, disposal: .doNotDispose,
                                                  sourcePixels: source), delayCentiseconds: 10)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func ffmpegDecodesOurGIF() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try encodeGIF(Synthetic.frames(10), to: folder + "/f.gif")
        let (status, message) = try runFFmpeg(["-v", "error", "-i", folder + "/f.gif", "-f", "null", "-"])
        #expect(status == 0)
        #expect(message.isEmpty, "ffmpeg: \(message)")
    }
}
