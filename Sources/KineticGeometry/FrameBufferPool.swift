import Synchronization

/// Frame-sized byte buffers handed back once their frame is done with, for later frames
/// to be drawn or prepared into: a render allocates about as many as it holds at once
/// instead of one a frame. The frame stream hands back the rasters of encoded frames
/// (`FrameStream`); a GIF writer hands back the straight pixels of frames it has written,
/// for the preparation of later ones (`AnimationWriter`).
///
/// A 4 MB frame allocated a frame faulted in fresh pages: glibc grows a worker thread's
/// arena for it (`mprotect`) and the kernel zeroes the pages first. Snow's GIF at
/// `--jobs 2` made 302 `mprotect` calls against 83 at `--jobs 1`, and its system time
/// was 0.40–0.53 s against 0.03–0.08 s (issue 42); in a process with threads on two cores
/// each such fault can make the kernel flush the other core's TLB: docs/outputs.md.
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

    /// `count` bytes, every one of them written by `body`: a buffer handed back, cut or
    /// lengthened to `count` within its capacity, else a new one with room for
    /// `capacity`; a new one is not cleared first (a snowfall's 4 MB a frame: issue 42).
    /// Every caller asking for at most `capacity` (a frame's changed rectangle, at most
    /// the canvas), no buffer lent is ever grown: growing one copied its old bytes to
    /// fresh pages.
    package func take(count: Int, capacity: Int, writing body: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        if var buffer = take(), buffer.capacity >= count {
            if buffer.count > count {
                buffer.removeLast(buffer.count - count)
            } else if buffer.count < count {
                // Arrays grow only by initialized elements: the few bytes past the last ask.
                buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
            }
            buffer.withUnsafeMutableBytes(body)
            return buffer
        }
        return [UInt8](unsafeUninitializedCapacity: max(count, capacity)) { out, initialized in
            body(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[..<count])))
            initialized = count
        }
    }

    /// Hands `image`'s buffer back for a later frame; beyond ``limit`` it is freed.
    package func recycle(_ image: consuming PixelImage) {
        recycle(bytes: image.bytes)
    }

    /// Hands `bytes` back for a later frame; beyond ``limit`` they are freed.
    package func recycle(bytes: consuming [UInt8]) {
        let bytes = bytes
        state.withLock { s in
            if s.free.count < limit { s.free.append(bytes) }
        }
    }

    /// Buffers asked for, and how many of them were handed back ones.
    package var counts: (taken: Int, reused: Int) { state.withLock { ($0.taken, $0.reused) } }
}
