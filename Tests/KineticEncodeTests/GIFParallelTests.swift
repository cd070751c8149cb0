import Foundation
import KineticGeometry
import Testing
@testable import KineticEncode

/// Frames compressed on worker threads (``GIFWriter``'s `jobs`, ``GIFCompressionQueue``)
/// leave in order and make the very bytes of the one-thread writer.
struct GIFParallelTests {
    /// Writes `frames` with `jobs` compression threads; the file's bytes.
    private func bytes(_ frames: [PixelImage], options: GIFOptions, jobs: Int, folder: String) throws -> Data {
        let path = folder + "/jobs-\(jobs).gif"
        let writer = try GIFWriter(path: path, width: frames[0].width, height: frames[0].height,
                                   options: options, jobs: jobs)
        for (i, frame) in frames.enumerated() {
            let prepared = try GIFFramePreparer.prepare(frame, previous: i > 0 ? frames[i - 1] : nil, options: options)
            try writer.write(prepared, delayCentiseconds: 2 + i % 3)
        }
        try writer.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A shared palette (global table, alternatives offered to LZW) and a palette a frame
    /// (local tables, the first frame's becoming the global one): 1, 2, 3 and 8 threads,
    /// more frames than fit in flight, give byte-identical files that decode to the frames.
    @Test(arguments: [false, true])
    func parallelCompressionWritesTheSerialBytes(sharedPalette: Bool) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(11)
        var options = GIFOptions()
        if sharedPalette { options.palette = .shared(try GIFPalette.make(from: frames, options: options)) }
        let serial = try bytes(frames, options: options, jobs: 1, folder: folder)
        for jobs in [2, 3, 8] {
            #expect(try bytes(frames, options: options, jobs: jobs, folder: folder) == serial, "\(jobs) jobs")
        }
        let decoded = try DecodedGIF(path: folder + "/jobs-8.gif")
        #expect(decoded.canvases.count == frames.count)
        #expect(decoded.delays == frames.indices.map { 2 + $0 % 3 })
    }

    /// Frames large enough for the writer to decide their rows in bands (``RowBands``):
    /// changes strewn over every row, some a level off what is shown (the near-unchanged
    /// skip and its isolation test), so band edges cut through drawn runs and through the
    /// alternatives' reach. 2, 3 and 16 threads give the one-thread writer's bytes.
    @Test(arguments: [false, true])
    func bandedRowsWriteTheSerialBytes(sharedPalette: Bool) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (width, height) = (300, 700)
        #expect(RowBands(rows: height, width: width, jobs: 16).count == 3)
        let frames = (0..<6).map { k -> PixelImage in
            var image = PixelImage(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x) / Double(width), v = Double(y) / Double(height)
                    switch (x &* 7 &+ y &* 13 &+ k &* 5) % 11 {
                    case 0: Synthetic.put(&image, x, y, r: 1, g: 0.55, b: 0.1, a: 1)
                    // A level brighter in every other frame: near what is shown.
                    case 3 where k % 2 == 1: Synthetic.put(&image, x, y, r: 0.2 + 0.5 * u + 1 / 255, g: 0.3 + 0.5 * v, b: 0.5, a: 1)
                    default: Synthetic.put(&image, x, y, r: 0.2 + 0.5 * u, g: 0.3 + 0.5 * v, b: 0.5, a: 1)
                    }
                }
            }
            return image
        }
        var options = GIFOptions()
        if sharedPalette { options.palette = .shared(try GIFPalette.make(from: frames, options: options)) }
        let serial = try bytes(frames, options: options, jobs: 1, folder: folder)
        for jobs in [2, 3, 16] {
            #expect(try bytes(frames, options: options, jobs: jobs, folder: folder) == serial, "\(jobs) jobs")
        }
    }

    /// Bands cover the rows in order, at most `jobs` of them and one for each
    /// ``RowBands/minimumPixels`` of the frame; a small frame or one job is one band.
    @Test func rowBandsCoverTheRows() {
        for (rows, width, jobs) in [(1334, 750, 16), (1334, 750, 2), (700, 300, 16), (5, 100_000, 16), (100, 10, 8), (3, 1, 1)] {
            let bands = RowBands(rows: rows, width: width, jobs: jobs).bands
            #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == rows)
            #expect(zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && !$0.isEmpty })
            #expect(bands.count <= jobs && (bands.count == 1 || bands.count <= rows * width / RowBands.minimumPixels))
        }
        #expect(RowBands(rows: 1334, width: 750, jobs: 16).count == 15)
        #expect(RowBands(rows: 1334, width: 750, jobs: 1).count == 1)
        #expect(RowBands(rows: 100, width: 10, jobs: 8).count == 1)
    }

    /// The alternatives offered to LZW by bands of rows are those offered in one pass,
    /// across band edges (drawn runs just before and after an edge, `reach` 32).
    @Test func bandedOfferedIndicesAreTheOnePassOnes() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let transparent: UInt8 = 200, colors = 150, width = 301, height = 900
        let shown = (0..<(width * height)).map { _ in UInt8(next(4) == 0 ? 255 : next(180)) }
        var indices: [UInt8] = []
        while indices.count < width * height {
            let drawn = next(3) == 0, length = drawn ? 1 + next(6) : 1 + next(300)
            for _ in 0..<length where indices.count < width * height {
                indices.append(drawn ? UInt8(next(colors)) : transparent)
            }
        }
        let rect = GIFRect(x: 0, y: 0, width: width, height: height)
        #expect(RowBands(rows: height, width: width, jobs: 5).count == 4)
        shown.withUnsafeBufferPointer { shown in
            let one = GIFWriter.offeredIndices(indices, rect: rect, shown: shown, canvasWidth: width,
                                               transparent: transparent, colors: colors, reach: 32)
            #expect(one != nil)
            for jobs in [2, 3, 5] {
                #expect(GIFWriter.offeredIndices(indices, rect: rect, shown: shown, canvasWidth: width, transparent: transparent,
                                                 colors: colors, reach: 32, jobs: jobs) == one, "\(jobs) jobs")
            }
        }
    }

    /// A cancelled parallel writer waits for its frames in flight and leaves no file.
    @Test func cancellingWithFramesInFlightLeavesNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(4)
        let writer = try GIFWriter(path: folder + "/x.gif", width: frames[0].width, height: frames[0].height,
                                   options: GIFOptions(), jobs: 4)
        for (i, frame) in frames.enumerated() {
            try writer.write(GIFFramePreparer.prepare(frame, previous: i > 0 ? frames[i - 1] : nil, options: GIFOptions()),
                             delayCentiseconds: 2)
        }
        writer.cancel()
        #expect(folderContents(folder).isEmpty)
    }

    /// The queue holds at most `limit` frames: the submit past it hands back the oldest
    /// frame, then the rest come out in order, each with ``GIFLZW``'s bytes for its indices.
    @Test func queueIsBoundedAndKeepsOrder() {
        let queue = GIFCompressionQueue<Int>(limit: 2)
        let images: [[UInt8]] = (0..<4).map { k in (0..<5000).map { UInt8(truncatingIfNeeded: ($0 / (k + 3)) % 7) } }
        func expected(_ k: Int) -> [UInt8] {
            var lzw = GIFLZW()
            return lzw.encode(images[k], bitsPerPixel: 3)
        }
        #expect(queue.submit(images[0], alternatives: nil, bitsPerPixel: 3, payload: 0) == nil)
        #expect(queue.submit(images[1], alternatives: nil, bitsPerPixel: 3, payload: 1) == nil)
        let first = queue.submit(images[2], alternatives: nil, bitsPerPixel: 3, payload: 2)
        #expect(first?.payload == 0)
        #expect(first?.blocks == expected(0))
        var rest: [Int] = []
        while let done = queue.next() {
            #expect(done.blocks == expected(done.payload))
            rest.append(done.payload)
        }
        #expect(rest == [1, 2])
        #expect(queue.isEmpty)
    }

    /// The vectorized check agrees with a byte loop, across the 16-byte blocks and the tail.
    @Test func largestColorIndexMatchesAByteLoop() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 15, 16, 17, 33, 100, 1000] {
            for transparentShare in [0, 50, 95, 100] {
                let indices = (0..<count).map { _ -> UInt8 in
                    Int.random(in: 0..<100, using: &generator) < transparentShare
                        ? PreparedGIFFrame.transparentIndex : UInt8.random(in: 0...254, using: &generator)
                }
                let loop = indices.filter { $0 != PreparedGIFFrame.transparentIndex }.max().map(Int.init) ?? -1
                #expect(GIFWriter.largestColorIndex(indices) == loop, "\(count) indices, \(transparentShare) % transparent")
            }
        }
        #expect(GIFWriter.largestColorIndex([UInt8](repeating: 0, count: 40)) == 0)
    }
}
