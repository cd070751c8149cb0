@testable import KineticEncode
@testable import KineticCLI
import Kinetic
import KineticGeometry
import KineticRender
import Testing

/// `KeptFrames`: frames kept as a first frame and changed spans replay as the frames
/// themselves, whatever changed, and a cache that would pass its budget keeps nothing.
@Suite struct KeptFramesTests {
    /// `count` frames of `width` × `height` (rows padded past their pixels): each one the
    /// frame before with a few random rectangles repainted, some of them with the colour
    /// already there, so that a span holds unchanged pixels and whole frames can repeat.
    static func frames(count: Int, width: Int = 37, height: Int = 23, seed: UInt64 = 7) -> [PixelImage] {
        var random = SplitMix64(seed: seed)
        let stride = width * 4 + 8
        var bytes = [UInt8](repeating: 0xAB, count: stride * height)
        for y in 0..<height { for x in 0..<width { bytes.withUnsafeMutableBytes { $0.storeBytes(of: 0xFF20_4060 as UInt32, toByteOffset: y * stride + x * 4, as: UInt32.self) } } }
        var frames: [PixelImage] = []
        let palette: [UInt32] = [0xFF20_4060, 0xFFFF_0000, 0x8040_0000, 0x0000_0000, 0xFF00_FF00]
        for _ in 0..<count {
            for _ in 0..<Int(random.next() % 4) {
                let x0 = Int(random.next() % UInt64(width)), y0 = Int(random.next() % UInt64(height))
                let w = 1 + Int(random.next() % UInt64(width - x0)), h = 1 + Int(random.next() % UInt64(height - y0))
                let word = palette[Int(random.next() % UInt64(palette.count))]
                for y in y0..<(y0 + h) {
                    for x in x0..<(x0 + w) {
                        bytes.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self) }
                    }
                }
            }
            frames.append(PixelImage(width: width, height: height, stride: stride, bytes: bytes))
        }
        return frames
    }

    /// The pixels of `image`, without the rows' padding.
    static func pixels(_ image: PixelImage) -> [UInt8] {
        (0..<image.height).flatMap { y in image.bytes[(y * image.stride)..<(y * image.stride + image.width * 4)] }
    }

    static func filled(_ frames: [PixelImage], budget: Int = 1 << 30) -> KeptFrames {
        let cache = KeptFrames(expected: frames.count, budget: budget)
        for frame in frames { _ = cache.append(frame) }
        return cache
    }

    @Test(arguments: [[0, 1, 2, 59], [5, 17, 18, 40], Array(0..<60), [59], [3, 3, 9]])
    func replaysTheFramesAppended(positions: [Int]) {
        let frames = Self.frames(count: 60)
        let cache = Self.filled(frames)
        #expect(cache.isComplete)
        let replayed = cache.rasters(positions)
        #expect(replayed.map(Self.pixels) == positions.map { Self.pixels(frames[$0]) })
    }

    /// Told where each frame can differ from the one before (its damage), the cache
    /// compares the frames there only and keeps the same spans: the same bytes, the same
    /// changes, the same frames replayed. A frame said to be unchanged keeps none.
    @Test func comparesOnlyWhereTheFrameCanDiffer() {
        let frames = Self.frames(count: 40)
        // Each frame's changed pixels, bounded, as the trees would bound them.
        let damages: [FrameDamage] = zip(frames.dropLast(), frames.dropFirst()).map { a, b in
            var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
            for y in 0..<a.height {
                for x in 0..<a.width where a.bytes[(y * a.stride + x * 4)..<(y * a.stride + x * 4 + 4)]
                    != b.bytes[(y * b.stride + x * 4)..<(y * b.stride + x * 4 + 4)] {
                    x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
                }
            }
            // Grown by a pixel where there is room: the damage holds unchanged pixels too.
            guard x1 >= 0 else { return .none }
            let left = max(x0 - 1, 0), top = max(y0 - 1, 0)
            return .rect(x: left, y: top, width: min(x1 + 2, a.width) - left, height: min(y1 + 2, a.height) - top)
        }
        #expect(damages.contains(.none) && damages.contains { if case .rect = $0 { true } else { false } })
        let told = KeptFrames(expected: frames.count, budget: 1 << 30)
        #expect(told.append(frames[0]))
        for (frame, damage) in zip(frames.dropFirst(), damages) { #expect(told.append(frame, changedWithin: damage)) }
        let compared = Self.filled(frames)
        #expect(told.byteCount == compared.byteCount)
        for k in 1..<frames.count { #expect(told.change(at: k) == compared.change(at: k), "frame \(k)") }
        #expect(told.rasters(Array(0..<40)).map(Self.pixels) == frames.map(Self.pixels))
    }

    /// Frames that change everywhere: a buffer takes the newest frame whole rather than
    /// every delta since its own, and the frames replayed are still the ones appended,
    /// in a pass of single frames and one of chunks.
    @Test func replaysFramesThatChangeEverywhere() {
        let (width, height, rowBytes) = (19, 7, 19 * 4 + 4)
        let frames = (0..<24).map { k in
            PixelImage(width: width, height: height, stride: rowBytes,
                       bytes: (0..<(rowBytes * height)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ k &* 13) })
        }
        let cache = Self.filled(frames)
        #expect(cache.isComplete && cache.byteCount > frames.count * width * height * 4)
        for k in 0..<24 { #expect(Self.pixels(cache.rasters([k])[0]) == Self.pixels(frames[k]), "frame \(k)") }
        for start in stride(from: 0, to: 24, by: 3) {
            let positions = [start, start + 1, start + 2]
            #expect(cache.rasters(positions).map(Self.pixels) == positions.map { Self.pixels(frames[$0]) })
        }
    }

    /// A call may go back: a new pass starts from the first frame.
    @Test func aCallGoingBackStartsAPass() {
        let frames = Self.frames(count: 30)
        let cache = Self.filled(frames)
        for positions in [[10, 20], [4, 29], [0], [28, 29]] {
            #expect(cache.rasters(positions).map(Self.pixels) == positions.map { Self.pixels(frames[$0]) })
        }
    }

    /// Frames asked for a chunk at a time, as a frame stream does, come right whether the
    /// caller lets each chunk go (its buffers are then reused) or keeps every frame (a
    /// buffer still held is copied, never overwritten).
    @Test(arguments: [1, 2, 3, 5])
    func chunkedPassesReuseOnlyBuffersLetGo(chunk: Int) {
        let frames = Self.frames(count: 45)
        let cache = Self.filled(frames)
        for pass in 0..<2 {
            for start in stride(from: pass, to: 45, by: chunk) {
                let positions = Array(start..<min(start + chunk, 45))
                #expect(cache.rasters(positions).map(Self.pixels) == positions.map { Self.pixels(frames[$0]) })
            }
        }
        var held: [(Int, PixelImage)] = []
        for start in stride(from: 0, to: 45, by: chunk) {
            let positions = Array(start..<min(start + chunk, 45))
            held += zip(positions, cache.rasters(positions))
        }
        #expect(held.map { Self.pixels($0.1) } == held.map { Self.pixels(frames[$0.0]) })
    }

    /// A walk hands over each span before and after it changes, and reaches each position
    /// with the frame itself: a tally of pixel values kept from the first frame and the
    /// spans alone equals the tally of every frame reached.
    @Test func aWalkReportsEveryChangedPixel() {
        let frames = Self.frames(count: 40)
        let cache = Self.filled(frames)
        func tally(_ image: PixelImage) -> [UInt32: Int] {
            Self.pixels(image).withUnsafeBytes { $0.bindMemory(to: UInt32.self).reduce(into: [:]) { $0[$1, default: 0] += 1 } }
        }
        var running: [UInt32: Int] = [:]
        var reached: [Int] = []
        cache.walk(to: [3, 17, 39], start: { running = tally($0) }, change: { old, new in
            #expect(old.count == new.count && old.count > 0)
            #expect(old.first != new.first && old.last != new.last, "a span starts and ends at a changed pixel")
            for word in old { running[word, default: 0] -= 1 }
            for word in new { running[word, default: 0] += 1 }
        }, reached: { position, frame in
            reached.append(position)
            #expect(Self.pixels(frame) == Self.pixels(frames[position]))
            #expect(running.filter { $0.value != 0 } == tally(frames[position]))
        })
        #expect(reached == [3, 17, 39])
    }

    /// Frames that change everywhere, projected past the budget, are refused early: the
    /// cache keeps nothing and says it is incomplete.
    @Test func framesPastTheBudgetAreRefusedEarly() {
        var frames: [PixelImage] = []
        for k in 0..<50 {
            frames.append(PixelImage(width: 64, height: 64, stride: 256, bytes: [UInt8](repeating: UInt8(k), count: 256 * 64)))
        }
        // The first frame whole (16 kB) and one changed frame fit; 50 do not (800 kB).
        let cache = KeptFrames(expected: 50, budget: 100_000)
        var accepted = 0
        for frame in frames {
            guard cache.append(frame) else { break }
            accepted += 1
        }
        #expect(accepted < 6)
        #expect(!cache.isComplete)
        #expect(!cache.append(frames[0]))
    }

    /// Frames that change little fit a budget a few whole frames would pass.
    @Test func smallChangesFitWhereWholeFramesWouldNot() {
        let frames = Self.frames(count: 60, width: 200, height: 100)
        let whole = 200 * 100 * 4
        let cache = Self.filled(frames, budget: whole * 30)
        #expect(cache.isComplete)
        #expect(cache.byteCount < whole * 30)
    }

    /// Two changes far apart on one row are kept as two spans of their own pixels, not
    /// the row between them; changes closer than the gap stay one span.
    @Test func farApartChangesOnARowAreTwoSpans() {
        let first = PixelImage(width: 1000, height: 2)
        func changed(_ xs: [Int]) -> PixelImage {
            var image = first
            for x in xs { image.bytes[4000 + x * 4] = 9 }
            return image
        }
        let apart = KeptFrames(expected: 2, budget: 1 << 20)
        #expect(apart.append(first) && apart.append(changed([10, 900])))
        #expect(apart.byteCount == first.bytes.count + 2 * (12 + 4))
        let near = KeptFrames(expected: 2, budget: 1 << 20)
        #expect(near.append(first) && near.append(changed([10, 10 + KeptFrames.gap])))
        #expect(near.byteCount == first.bytes.count + 12 + (KeptFrames.gap + 1) * 4)
        #expect(apart.rasters([1]).map(Self.pixels) == [Self.pixels(changed([10, 900]))])
    }

    /// A kept frame's change is runs whose bounds are the rectangle the GIF's differencing
    /// would find by comparing it with the frame before it (none for a repeat), and a
    /// GIF frame prepared with it (reading only the runs' pixels) is the one prepared
    /// without; the first frame's is unknown.
    @Test func aFramesChangeIsWhatComparingFinds() throws {
        let frames = Self.frames(count: 60, width: 61)
        let cache = Self.filled(frames)
        #expect(cache.change(at: 0) == .unknown)
        var repeats = 0
        for i in 1..<frames.count {
            let compared = GIFFramePreparer.changedRect(frames[i], frames[i - 1])
            guard case let .runs(runs) = cache.change(at: i) else {
                Issue.record("frame \(i): no runs")
                continue
            }
            #expect(GIFRect(bounding: runs) == compared, "frame \(i)")
            if compared == nil { repeats += 1 }
            let options = GIFOptions(palette: .perFrame)
            #expect(try GIFFramePreparer.prepare(frames[i], previous: frames[i - 1], change: cache.change(at: i), options: options)
                    == GIFFramePreparer.prepare(frames[i], previous: frames[i - 1], options: options))
        }
        #expect(repeats > 0 && repeats < 50)
        #expect(KeptFrames(expected: 2, budget: 1 << 20).change(at: 1) == .unknown)
    }

    /// A frame of another size is refused, not misread.
    @Test func aFrameOfAnotherSizeIsRefused() {
        let cache = KeptFrames(expected: 2, budget: 1 << 20)
        #expect(cache.append(PixelImage(width: 4, height: 4)))
        #expect(!cache.append(PixelImage(width: 5, height: 4)))
        #expect(!cache.isComplete)
    }
}
