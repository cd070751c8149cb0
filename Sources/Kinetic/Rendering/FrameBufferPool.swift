import Synchronization
import KineticGeometry

/// Frames' pixel buffers handed back by the frame stream once their chunk is encoded, for
/// later frames to be drawn into: a render allocates about as many frames as it holds at
/// once instead of one a frame.
///
/// A 4 MB frame allocated a frame faulted in fresh pages: glibc grows a worker thread's
/// arena for it (`mprotect`) and the kernel zeroes the pages first. Snow's GIF at
/// `--jobs 2` made 302 `mprotect` calls against 83 at `--jobs 1`, and its system time
/// was 0.40–0.53 s against 0.03–0.08 s (issue 42). The pool halves `--discard`'s minor
/// faults; a GIF's come mostly from the other per-frame buffers (raster scratch, GIF
/// preparation), still fresh each frame: docs/outputs.md.
///
/// A buffer still referenced elsewhere when it comes back (a kept frame, an encoded value
/// that is the frame itself) is never drawn over: arrays copy on write, so drawing into it
/// copies it first. Such a pipeline gains nothing from a pool and does not get one.
package final class FrameBufferPool: Sendable {
    /// Buffers kept at most; more handed back are freed.
    package let limit: Int
    private let state = Mutex(State())

    private struct State {
        var free: [[UInt8]] = []
        var taken = 0
        var reused = 0
    }

    package init(limit: Int) { self.limit = max(0, limit) }

    /// What a frame stream of `jobs` hands back at most at once: a chunk's rasters and the
    /// one carried from the chunk before (``FrameStream/recycle(_:carried:to:)``).
    package static func limit(jobs: Int) -> Int { FrameStream.chunkSize(jobs: jobs) + 1 }

    /// A buffer handed back (its contents undefined) to draw into, or nil when none is
    /// free; the rasterizer drops one that is not the size it needs.
    package func take() -> [UInt8]? {
        state.withLock { s in
            s.taken += 1
            guard let buffer = s.free.popLast() else { return nil }
            s.reused += 1
            return buffer
        }
    }

    /// Hands `image`'s buffer back for a later frame; beyond ``limit`` it is freed.
    package func recycle(_ image: consuming PixelImage) {
        let bytes = image.bytes
        state.withLock { s in
            if s.free.count < limit { s.free.append(bytes) }
        }
    }

    /// Buffers asked for, and how many of them were handed back ones.
    package var counts: (taken: Int, reused: Int) { state.withLock { ($0.taken, $0.reused) } }
}
