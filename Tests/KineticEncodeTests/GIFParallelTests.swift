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
