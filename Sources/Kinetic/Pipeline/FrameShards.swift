/// A scene's frames split for a job runner (`kinetic plan`): each shard renders one range
/// with `render --frames A-B`, and together they cover every frame once.
package enum FrameShards {
    /// `shards` consecutive ranges covering 0..<frameCount, shard i starting at
    /// ⌊i × frameCount / shards⌋: lengths differ by at most one. Empty when there are
    /// fewer frames than shards.
    package static func ranges(frameCount: Int, shards: Int) -> [ClosedRange<Int>] {
        guard frameCount > 0, shards > 0, shards <= frameCount else { return [] }
        return (0..<shards).map { i in (i * frameCount / shards)...((i + 1) * frameCount / shards - 1) }
    }
}
