#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Memory for the image surfaces a frame draws in and then drops (a particle layer's
/// buffer, its shadow's silhouette), kept for the frames after it: a frame takes a block,
/// draws, and hands it back, so a render holds about one block per worker that draws at
/// once instead of allocating one a frame.
///
/// A 4 MB surface made fresh each frame (snow's particle buffer covers the canvas) is
/// zeroed pages faulted in on first touch, and read before written (Cairo's compositing
/// of untouched rows maps the zero page, then a write copies it): at `--jobs 2` each such
/// fault in a two-threaded process made the kernel flush the other core's TLB, and the
/// same drawing cost twice its one-thread time (issue 42, docs/outputs.md). A block is
/// zero before it is lent again: the same zeroed pixels a fresh surface has, hence the
/// same bytes drawn. It is cleared where its last use wrote: every byte that use lent, or
/// only the boxes it says it wrote (a snowfall's flakes: a fraction of the canvas-wide
/// buffer a `memset` cleared every frame).
///
/// Shared by the frames of one render (one `Renderer`, like its caches) and safe to use
/// from several threads; a block is lent to one taker at a time.
package final class ScratchImages: Sendable {
    /// Free blocks kept at most; more handed back are freed (the smallest first).
    package let limit: Int
    private let state = Mutex(State())

    private struct State {
        var free: [Block] = []
        var lent = 0
        var reused = 0
    }

    /// `limit`: the blocks drawn in at once, about one per worker (a frame uses one at a time).
    package init(limit: Int) { self.limit = max(0, limit) }

    /// Runs `body` with a cleared image surface of `format`, `width` × `height` pixels,
    /// drawn in the memory of a block handed back earlier when one is large enough. The
    /// surface is finished when `body` returns (nothing reads or draws its pixels after),
    /// and its block goes back to the pool. Without memory for a block, a surface of
    /// Cairo's own is lent instead.
    package func withImage<R>(_ format: SurfaceFormat, width: Int, height: Int,
                              _ body: (CairoSurface) throws -> R) rethrows -> R {
        try lend(format, width: width, height: height) { surface, _ in try body(surface) }
    }

    /// ``withImage(_:width:height:_:)`` for a `body` that writes the surface's pixels
    /// itself and returns boxes holding every pixel it wrote (nil: any): the block is then
    /// cleared only there before it is lent again. Cairo only reads a surface it draws
    /// from, so a body that draws it elsewhere writes nothing more.
    package func withWrittenImage(_ format: SurfaceFormat, width: Int, height: Int, _ body: (CairoSurface) -> [PixelBox]?) {
        lend(format, width: width, height: height) { surface, block in
            guard let boxes = body(surface), let block else { return }
            let bounds = PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height)
            block.written = .boxes(boxes.map { $0.intersection(bounds) }, stride: surface.stride,
                                   bytesPerPixel: format.bytesPerPixel)
        }
    }

    /// Runs `body` with a cleared surface and the block it draws in (nil: a surface of
    /// Cairo's own), whose ``Block/written`` it may narrow.
    private func lend<R>(_ format: SurfaceFormat, width: Int, height: Int,
                         _ body: (CairoSurface, Block?) throws -> R) rethrows -> R {
        let stride = CairoSurface.stride(format, width: width)
        let (count, overflow) = stride.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, stride > 0, !overflow, let block = take(atLeast: count) else {
            return try body(CairoSurface.image(format, width: width, height: height), nil)
        }
        defer { handBack(block) }
        block.clear()
        // Set before drawing, so a body that throws leaves it right.
        block.written = .bytes(count)
        return try CairoSurface.image(format, width: width, height: height, stride: stride, over: block.memory) {
            try body($0, block)
        }
    }

    /// The smallest free block of at least `count` bytes, or a new one (nil when none can
    /// be allocated).
    private func take(atLeast count: Int) -> Block? {
        let found: Block? = state.withLock { s in
            s.lent += 1
            guard let k = s.free.indices.filter({ s.free[$0].capacity >= count })
                .min(by: { s.free[$0].capacity < s.free[$1].capacity }) else { return nil }
            s.reused += 1
            return s.free.remove(at: k)
        }
        // A new block is lent cleared like the others: all of it was written (by malloc).
        return found ?? Block(capacity: Self.rounded(count))
    }

    /// Sizes a new block up to whole 64 KiB: a particle buffer's extent moves by a few
    /// rows from frame to frame, and a block cut to one frame's would fit no later one.
    static func rounded(_ count: Int) -> Int {
        let unit = 1 << 16
        return count > Int.max - unit ? count : (count + unit - 1) / unit * unit
    }

    private func handBack(_ block: Block) {
        state.withLock { s in
            s.free.append(block)
            if s.free.count > limit, let k = s.free.indices.min(by: { s.free[$0].capacity < s.free[$1].capacity }) {
                s.free.remove(at: k)
            }
        }
    }

    /// Surfaces lent, and how many of them were drawn in a block handed back.
    package var counts: (lent: Int, reused: Int) { state.withLock { ($0.lent, $0.reused) } }

    /// Free blocks now, and their bytes.
    package var held: (blocks: Int, bytes: Int) {
        state.withLock { s in (s.free.count, s.free.reduce(0) { $0 + $1.capacity }) }
    }

    /// Raw memory for one surface at a time, zero outside what its last use wrote.
    // @unchecked: its memory and `written` are only touched by the one taker it is lent to
    // (the pool's lock hands it over).
    private final class Block: @unchecked Sendable {
        let memory: UnsafeMutableRawPointer
        let capacity: Int
        /// Where the last use may have written.
        var written: Written

        enum Written {
            /// The first `count` bytes.
            case bytes(Int)
            /// The pixels of `boxes`, on rows `stride` bytes apart.
            case boxes([PixelBox], stride: Int, bytesPerPixel: Int)
        }

        init?(capacity: Int) {
            guard capacity > 0, let memory = malloc(capacity) else { return nil }
            self.memory = memory
            self.capacity = capacity
            written = .bytes(capacity)
        }

        deinit { free(memory) }

        /// Zeroes what the last use wrote: the whole block is zero after.
        func clear() {
            switch written {
            case .bytes(let count):
                memset(memory, 0, count)
            case .boxes(let boxes, let stride, let bytesPerPixel):
                for box in boxes where !box.isEmpty {
                    let width = (box.x1 - box.x0) * bytesPerPixel
                    for y in box.y0..<box.y1 { memset(memory + y * stride + box.x0 * bytesPerPixel, 0, width) }
                }
            }
            written = .bytes(0)
        }
    }
}
