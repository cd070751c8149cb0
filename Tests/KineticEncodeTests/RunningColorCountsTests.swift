import KineticGeometry
import Testing
@testable import KineticEncode

/// `RunningColorCounts`: a frame's colours kept up to date from the spans that change
/// are the colours `ColorCounts.counted` finds in the changed frame (the contract the
/// palette of a replayed render relies on to give the same bytes).
@Suite struct RunningColorCountsTests {
    /// Premultiplied words, two of them the same straight colour (half-alpha red at two
    /// roundings), one transparent.
    static let words: [UInt32] = [0xFF20_4060, 0xFFFF_0000, 0x8080_0000, 0x807F_0000, 0x0000_0000, 0xFF00_FF00, 0x4010_2030]

    static func sorted(_ colors: [(word: UInt32, count: Int)]) -> [[Int]] {
        colors.map { [Int($0.word), $0.count] }.sorted { $0[0] < $1[0] }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func followsTheFrameSpanBySpan(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let width = 41, height = 17, stride = width * 4 + 4
        var bytes = [UInt8](repeating: 0x5A, count: stride * height)
        func set(_ x: Int, _ y: Int, _ word: UInt32) {
            bytes.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self) }
        }
        func word(_ x: Int, _ y: Int) -> UInt32 { bytes.withUnsafeBytes { $0.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) } }
        for y in 0..<height { for x in 0..<width { set(x, y, Self.words[Int(random.next() % 2)]) } }
        var frame: PixelImage { PixelImage(width: width, height: height, stride: stride, bytes: bytes) }
        var running = RunningColorCounts(frame)
        #expect(Self.sorted(running.colors) == Self.sorted(ColorCounts.counted(frame)))
        for _ in 0..<200 {
            let y = Int(random.next() % UInt64(height)), x = Int(random.next() % UInt64(width))
            let count = 1 + Int(random.next() % UInt64(width - x))
            let old = (x..<(x + count)).map { word($0, y) }
            // Runs of a new colour, with stretches left as they were.
            var new = old
            var i = 0
            while i < count {
                let run = 1 + Int(random.next() % 6)
                if random.next() % 3 != 0 {
                    let w = Self.words[Int(random.next() % UInt64(Self.words.count))]
                    for k in i..<min(count, i + run) { new[k] = w }
                }
                i += run
            }
            let kept = old.withUnsafeBufferPointer { o in new.withUnsafeBufferPointer { n in running.replace(o, with: n) } }
            #expect(kept)
            for k in 0..<count { set(x + k, y, new[k]) }
            #expect(Self.sorted(running.colors) == Self.sorted(ColorCounts.counted(frame)))
        }
    }

    /// Past the counts' capacity of colours the counts say they are not exact (the frame
    /// is then counted whole) and refuse to follow changes.
    @Test func pastTheCapacityItSaysSo() {
        let width = 300, height = 300
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBytes { p in
            for i in 0..<(width * height) { p.storeBytes(of: 0xFF00_0000 | UInt32(i), toByteOffset: i * 4, as: UInt32.self) }
        }
        var running = RunningColorCounts(PixelImage(width: width, height: height, stride: width * 4, bytes: bytes))
        #expect(!running.isExact)
        let pixel: [UInt32] = [0xFF00_0001]
        let changed = pixel.withUnsafeBufferPointer { running.replace($0, with: $0) }
        #expect(!changed)
    }

    /// A small frame stays exact.
    @Test func aSmallFrameIsExact() {
        let running = RunningColorCounts(PixelImage(width: 8, height: 8))
        #expect(running.isExact)
        #expect(running.colors.map(\.count) == [64])
    }
}
