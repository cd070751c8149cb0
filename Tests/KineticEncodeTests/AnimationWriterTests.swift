import Foundation
import KineticGeometry
import Testing
@testable import KineticEncode

/// The animation writer's files, read back by parsing their containers here (PNG chunks,
/// RIFF chunks, ISO boxes) — the CLI checks decode them with ffmpeg, ffprobe and Pillow.
@Suite struct AnimationWriterTests {
    /// Writes `frames` through the same prepare-then-write path the command line uses.
    func write(_ frames: [PixelImage], format: AnimationFormat, settings: AnimationSettings,
               to path: String) throws {
        let writer = try AnimationWriter(path: path, format: format, width: frames[0].width, height: frames[0].height,
                                         frameCount: frames.count, settings: settings)
        for (k, frame) in frames.enumerated() {
            try writer.write(writer.preparer.prepare(frame, previous: k > 0 ? frames[k - 1] : nil))
        }
        try writer.finish()
    }

    func bytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }

    func bigEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// PNG chunks as (type, data).
    func pngChunks(_ b: [UInt8]) -> [(type: String, data: [UInt8])] {
        var chunks: [(String, [UInt8])] = []
        var at = 8
        while at + 8 <= b.count {
            let length = bigEndian(b, at, 4)
            let type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self)
            chunks.append((type, Array(b[(at + 8)..<(at + 8 + length)])))
            at += 12 + length
        }
        return chunks
    }

    @Test func apngHasEveryFrameWithExactDelaysAndAlpha() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/a.apng"
        try write(Synthetic.frames(4, transparent: true), format: .apng,
                  settings: AnimationSettings(fps: 25, loopCount: 3, transparent: true), to: path)
        let b = bytes(path)
        #expect(Array(b[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = pngChunks(b)
        let ihdr = try #require(chunks.first { $0.type == "IHDR" }).data
        #expect(bigEndian(ihdr, 0, 4) == 64 && bigEndian(ihdr, 4, 4) == 48)
        #expect(ihdr[9] == 6)  // colour type 6: RGBA, partial alpha kept
        let actl = try #require(chunks.first { $0.type == "acTL" }).data
        #expect(bigEndian(actl, 0, 4) == 4)  // frames
        #expect(bigEndian(actl, 4, 4) == 3)  // plays
        let delays = chunks.filter { $0.type == "fcTL" }.map { (bigEndian($0.data, 20, 2), bigEndian($0.data, 22, 2)) }
        #expect(delays.count == 4)
        // 1/25 s each: 4 frames add up to 0.16 s.
        #expect(delays.allSatisfy { Double($0.0) / Double($0.1) == 0.04 })
    }

    @Test func webpFramesLastTheirRoundedMillisecondsAndAddUp() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/a.webp"
        try write(Synthetic.frames(3), format: .webp, settings: AnimationSettings(fps: 30), to: path)
        let b = bytes(path)
        #expect(String(decoding: b[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: b[8..<12], as: UTF8.self) == "WEBP")
        var at = 12, durations: [Int] = [], loop = -1, lossless = 0
        while at + 8 <= b.count {
            let type = String(decoding: b[at..<(at + 4)], as: UTF8.self), size = littleEndian(b, at + 4, 4)
            if type == "ANIM" { loop = littleEndian(b, at + 12, 2) }
            if type == "ANMF" {
                durations.append(littleEndian(b, at + 8 + 12, 3))
                // The frame's bitstream follows its 16-byte header: VP8L is lossless.
                if String(decoding: b[(at + 24)..<(at + 28)], as: UTF8.self) == "VP8L" { lossless += 1 }
            }
            at += 8 + size + size % 2
        }
        #expect(loop == 0)
        // Starts 0, 33.3, 66.7, 100 ms round to 0, 33, 67, 100.
        #expect(durations == [33, 34, 33])
        #expect(lossless == 3)
    }

    @Test func webpQualityIsLossy() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(Synthetic.frames(2), format: .webp, settings: AnimationSettings(fps: 10, quality: 50), to: folder + "/q.webp")
        let b = bytes(folder + "/q.webp")
        #expect(!b.isEmpty)
        #expect(String(decoding: b, as: UTF8.self).contains("VP8 "))  // the lossy bitstream's chunk
    }

    /// Repeated encodes in one process give the same bytes: H.264 thirty times (x264's
    /// AVX-512 code once made about one in seven differ, see the next test), the others
    /// three times.
    @Test(arguments: [AnimationFormat.mp4, .webm, .mov, .apng, .webp, .gif])
    func sameFramesGiveIdenticalBytes(format: AnimationFormat) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = Synthetic.frames(6)
        let settings = AnimationSettings(fps: 24)
        let repeats = format == .mp4 ? 30 : 3
        var names: [String] = []
        for k in 0..<repeats {
            let name = "\(k).\(format.rawValue)"
            try write(frames, format: format, settings: settings, to: folder + "/" + name)
            names.append(name)
        }
        let first = bytes(folder + "/" + names[0])
        #expect(first.count > 100)
        let differing = names.dropFirst().filter { bytes(folder + "/" + $0) != first }
        #expect(differing.isEmpty, "\(differing.count) of \(repeats - 1) repeats differ from the first")
        #expect(folderContents(folder) == names.sorted())
    }

    /// x264 (core 164) reads memory it never wrote in its AVX-512 code, so on such a CPU
    /// its bytes depended on what the heap held: glibc's M_PERTURB fills every block
    /// malloc returns and free takes back with a pattern; encodes under different
    /// patterns must agree. (Without AVX-512 in the CPU this passes either way.) The
    /// frames' rows are converted into FFmpeg's buffers, whose rows are padded past the
    /// width (which x264 reads too): at 50×34 no row fills its padded line.
    @Test(arguments: [(64, 48), (50, 34)])
    func mp4BytesDoNotDependOnWhatTheHeapHeld(width: Int, height: Int) throws {
        let mallopt = try #require(dlsym(nil, "mallopt").map {
            unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self)
        })
        let perturb: Int32 = -6  // M_PERTURB, <malloc.h>
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = (0..<6).map { Synthetic.frame($0, width: width, height: height) }
        var files: [[UInt8]] = []
        for pattern: Int32 in [0, 0x55, 0xAA, 0] {
            #expect(mallopt(perturb, pattern) == 1)
            defer { _ = mallopt(perturb, 0) }
            try write(frames, format: .mp4, settings: AnimationSettings(fps: 24), to: folder + "/\(files.count).mp4")
            files.append(bytes(folder + "/\(files.count).mp4"))
        }
        #expect(files.allSatisfy { $0 == files[0] && $0.count > 100 })
    }

    @Test func mp4PutsItsIndexFirstAndHasNoEncoderStamp() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(Synthetic.frames(3), format: .mp4, settings: AnimationSettings(fps: 30), to: folder + "/a.mp4")
        let b = bytes(folder + "/a.mp4")
        var boxes: [String] = [], at = 0
        while at + 8 <= b.count {
            boxes.append(String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self))
            at += bigEndian(b, at, 4)
        }
        #expect(boxes.first == "ftyp")
        // faststart: the index (moov) before the media (mdat).
        #expect((boxes.firstIndex(of: "moov") ?? .max) < (boxes.firstIndex(of: "mdat") ?? -1))
        #expect(!String(decoding: b, as: UTF8.self).contains("Lavf"))
    }

    @Test func oddSizesNeedYUV444AndUnknownSettingsAreRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: EncodeError.self) {
            try AnimationWriter(path: folder + "/odd.mp4", format: .mp4, width: 63, height: 48, frameCount: 1,
                                settings: AnimationSettings(fps: 30))
        }
        let odd = [Synthetic.frame(0, width: 63, height: 47)]
        try write(odd, format: .mp4, settings: AnimationSettings(fps: 30, pixelFormat: .yuv444p), to: folder + "/odd444.mp4")
        #expect(bytes(folder + "/odd444.mp4").count > 100)
        let bad: [(AnimationFormat, AnimationSettings)] = [
            (.mov, AnimationSettings(fps: 30, crf: 20)), (.mp4, AnimationSettings(fps: 30, quality: 50)),
            (.mp4, AnimationSettings(fps: 30, crf: 52)), (.webm, AnimationSettings(fps: 30, crf: 64)),
            (.webm, AnimationSettings(fps: 30, pixelFormat: .yuv444p)), (.webp, AnimationSettings(fps: 30, quality: 101)),
            (.gif, AnimationSettings(fps: 0)), (.apng, AnimationSettings(fps: 30, loopCount: 70000)),
        ]
        for (format, settings) in bad {
            #expect(throws: EncodeError.self) { try settings.validate(for: format) }
        }
        #expect(folderContents(folder) == ["odd444.mp4"])
    }

    @Test(arguments: [AnimationFormat.mp4, .webp, .apng])
    func unfinishedOrMismatchedAnimationsLeaveNothing(format: AnimationFormat) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let settings = AnimationSettings(fps: 10)
        let path = folder + "/a.\(format.rawValue)"
        // Fewer frames than announced: the timing would not add up.
        let short = try AnimationWriter(path: path, format: format, width: 64, height: 48, frameCount: 3, settings: settings)
        try short.write(short.preparer.prepare(Synthetic.frame(0), previous: nil))
        #expect(folderContents(folder).count == 1)  // the temporary file
        #expect(throws: EncodeError.self) { try short.finish() }
        #expect(folderContents(folder).isEmpty)
        // A frame of another size: refused when prepared, and when written.
        let mismatched = try AnimationWriter(path: path, format: format, width: 64, height: 48, frameCount: 2, settings: settings)
        let other = Synthetic.frame(0, width: 32, height: 48)
        if format != .webp {
            #expect(throws: EncodeError.self) { try mismatched.preparer.prepare(other, previous: nil) }
        }
        let small = try AnimationWriter(path: folder + "/small.\(format.rawValue)", format: format, width: 32, height: 48,
                                        frameCount: 1, settings: settings)
        let prepared = try small.preparer.prepare(other, previous: nil)
        small.cancel()
        #expect(throws: EncodeError.self) { try mismatched.write(prepared) }
        #expect(folderContents(folder).isEmpty)
    }

    @Test func straightRGBAUnpremultipliesAsCairoDoes() {
        var image = PixelImage(width: 2, height: 1)
        // Premultiplied ARGB32 words: opaque orange; half-covered white (128, 128, 128, 128).
        image.bytes = [0x00, 0x80, 0xFF, 0xFF, 0x80, 0x80, 0x80, 0x80]
        // 128 × 255 / 128 = 255: white stays white at half alpha.
        #expect(image.straightRGBA() == [0xFF, 0x80, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x80])
    }

    @Test func frameRateLimitsFollowBrowsersClamping() {
        #expect(AnimationFormat.gif.maximumFPS == 50)
        // 1000 / 90 = 11.1 ms ≥ the 11 ms browsers still honour.
        #expect(AnimationFormat.webp.maximumFPS.map { 1000 / $0 >= 11 } == true)
        #expect(AnimationFormat.mp4.maximumFPS == nil)
        #expect(AnimationWriter.milliseconds(3, fps: 30) == 100)
    }
    @Test func fractionalRatesAreExactFractions() throws {
        let ntsc = try FFmpegEncoder.rate(29.97), fifty = try FFmpegEncoder.rate(50)
        #expect(ntsc.num == 2997 && ntsc.den == 100)
        #expect(fifty.num == 50 && fifty.den == 1)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(Synthetic.frames(2), format: .apng, settings: AnimationSettings(fps: 29.97), to: folder + "/a.apng")
        let delays = pngChunks(bytes(folder + "/a.apng")).filter { $0.type == "fcTL" }
            .map { [bigEndian($0.data, 20, 2), bigEndian($0.data, 22, 2)] }
        #expect(delays == [[100, 2997], [100, 2997]])
    }
}
