@testable import KineticCLI
import Kinetic
import Testing

@Suite struct PlanTests {
    /// Every frame in exactly one shard, shards in order, lengths within one of each other.
    @Test func shardsCoverEveryFrameOnce() {
        for count in 1...60 {
            for shards in 1...count {
                let ranges = FrameShards.ranges(frameCount: count, shards: shards)
                #expect(ranges.count == shards)
                #expect(ranges.flatMap { Array($0) } == Array(0..<count), "\(count) frames, \(shards) shards")
                let lengths = ranges.map(\.count)
                #expect(lengths.max()! - lengths.min()! <= 1)
            }
        }
    }

    @Test func handComputedSplits() {
        // 25 frames in 3: starts ⌊0⌋, ⌊25/3⌋ = 8, ⌊50/3⌋ = 16.
        #expect(FrameShards.ranges(frameCount: 25, shards: 3) == [0...7, 8...15, 16...24])
        #expect(FrameShards.ranges(frameCount: 4, shards: 4) == [0...0, 1...1, 2...2, 3...3])
        #expect(FrameShards.ranges(frameCount: 3, shards: 4).isEmpty)
    }
}
