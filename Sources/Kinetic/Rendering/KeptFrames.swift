#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KineticEncode
import KineticGeometry
import KineticRender

/// The rasters of one pass over a scene's frames, kept to be replayed by the passes after
/// it, within a byte budget.
///
/// An opaque GIF takes up to three passes over its frames: palette samples, the frames
/// between them, then the encoding. Each simulated the scene from the start and
/// rasterized its frames again; in a scene of few colours the first two rasterize nearly
/// every frame (the palette passes were 20 s of the gallery batch's 62 s CPU, issue 15).
///
/// The first frame is kept whole; every later one as the spans that differ from the frame
/// before it (first to last differing pixel of a row, split at long unchanged stretches),
/// which for most animations is a small part of the canvas. A replay applies them in order.
///
/// Not thread-safe: append and replay from one thread (a ``FrameStream``'s `rasters`).
package final class KeptFrames {
    /// Bytes of pixels and spans held, past which ``append(_:)`` refuses.
    package let budget: Int
    /// How many frames are to be kept, for ``append(_:)``'s projection.
    package let expected: Int
    package private(set) var count = 0
    package private(set) var byteCount = 0

    private var first: PixelImage?
    private var deltas: [Delta] = []
    /// The last appended frame, which the next one is compared with.
    private var last: PixelImage?
    /// The frames ``rasters(_:)`` returned last, by position, oldest first, and how many
    /// it keeps.
    private var pool: [(index: Int, image: PixelImage)] = []
    private var buffers = 0

    /// The changed spans of one frame against the frame before it.
    private struct Delta {
        /// The runs of pixels that differ, rows from the top.
        var spans: [PixelRun] = []
        /// The spans' pixels, one after another.
        var pixels: [UInt32] = []
        var byteCount: Int { spans.count * 12 + pixels.count * 4 }
    }

    /// Thrown by a pass that fills the frames once they refuse one (``append(_:)``).
    package enum Full: Error { case full }

    package init(expected: Int, budget: Int) {
        self.expected = expected
        self.budget = budget
    }

    /// Keeps `image` as the next frame. Returns false, keeping nothing more from then on,
    /// when the frames kept so far, projected to ``expected`` frames, would pass the
    /// budget: the caller then renders its passes as if nothing were kept.
    ///
    /// `damage`: where `image` can differ from the frame appended before it (both
    /// rasterized whole); it is compared with that frame there only.
    package func append(_ image: PixelImage, changedWithin damage: FrameDamage = .everything) -> Bool {
        guard count < expected, byteCount <= budget else { return false }
        guard let last else {
            byteCount = image.bytes.count
            first = image
            self.last = image
            count = 1
            return byteCount <= budget ? true : refuse()
        }
        guard image.width == last.width, image.height == last.height, image.stride == last.stride else { return refuse() }
        let delta = Self.delta(image, from: last, within: damage)
        byteCount += delta.byteCount
        deltas.append(delta)
        self.last = image
        count += 1
        // The first frame is whole; the others are deltas like the ones so far.
        let firstBytes = image.bytes.count
        let projected = firstBytes + (byteCount - firstBytes) / (count - 1) * (expected - 1)
        return projected <= budget ? true : refuse()
    }

    /// Whether every expected frame is held.
    package var isComplete: Bool { count == expected && byteCount <= budget }

    private func refuse() -> Bool {
        first = nil; last = nil; deltas = []; pool = []
        byteCount = budget + 1
        return false
    }

    /// The frames at `positions` (0 = the first appended), ascending; a call that goes
    /// back starts a new pass from the first frame.
    ///
    /// Each frame is made in the oldest of a few buffers earlier calls returned, which
    /// the caller has let go by then (a ``FrameStream`` holds one chunk and the frame
    /// before it), by applying the deltas since the frame it held: no 4 MB copy a frame
    /// — unless those deltas hold more bytes than a frame, when the newest frame is
    /// copied in and only the deltas after it are applied.
    /// A buffer still held is copied when written, so the frames returned stay intact.
    package func rasters(_ positions: [Int]) -> [PixelImage] {
        precondition(isComplete && positions.allSatisfy { (0..<count).contains($0) }, "a frame not kept")
        precondition(zip(positions, positions.dropFirst()).allSatisfy { $0 <= $1 }, "frames in order")
        guard let first else { return [] }
        buffers = max(buffers, positions.count + 2)
        // A new pass: the buffers hold frames past its first.
        if let newest = pool.last, let start = positions.first, start < newest.index { pool = [] }
        return positions.map { position in
            var (at, image) = (0, first)
            if pool.count >= buffers {
                (at, image) = pool.removeFirst()
                // Frames that change nearly everywhere (lock-screen): copying the newest
                // frame in and applying what follows it moves fewer bytes than applying
                // every delta since the buffer's frame.
                if let newest = pool.last, newest.index > at, newest.index <= position,
                   deltas[at..<newest.index].reduce(0, { $0 + $1.pixels.count * 4 }) > image.bytes.count {
                    image.bytes.withUnsafeMutableBytes { target in
                        newest.image.bytes.withUnsafeBytes { target.copyMemory(from: $0) }
                    }
                    at = newest.index
                }
            } else if let newest = pool.last {
                (at, image) = newest  // copied once, when first written
            }
            while at < position {
                at += 1
                apply(deltas[at - 1], to: &image)
            }
            pool.append((position, image))
            return image
        }
    }

    /// Where the frame at `position` differs from the one before it: its spans (each from
    /// a differing pixel to a differing pixel); unknown for the first.
    package func change(at position: Int) -> FrameChange {
        guard isComplete, (1..<count).contains(position) else { return .unknown }
        return .runs(deltas[position - 1].spans)
    }

    /// Walks the frames from the first to the last of `positions` (ascending) without
    /// copying them out: `start` gets the first frame, `change` each changed span as it
    /// is applied (its pixels before, then after), `reached` each of `positions` when
    /// the replay is at it.
    package func walk(to positions: [Int], start: (PixelImage) -> Void,
              change: (_ old: UnsafeBufferPointer<UInt32>, _ new: UnsafeBufferPointer<UInt32>) -> Void,
              reached: (Int, PixelImage) throws -> Void) rethrows {
        precondition(isComplete && positions.allSatisfy { (0..<count).contains($0) }, "a frame not kept")
        precondition(zip(positions, positions.dropFirst()).allSatisfy { $0 <= $1 }, "a walk goes forwards")
        guard let first else { return }
        start(first)
        // Copied from the first frame once, then written in place.
        var (at, image) = (0, first)
        for position in positions {
            while at < position {
                at += 1
                apply(deltas[at - 1], to: &image, change: change)
            }
            try reached(position, image)
        }
    }

    /// Writes `delta`'s spans into `image`, in place when no one else holds its pixels.
    private func apply(_ delta: Delta, to image: inout PixelImage,
                       change: (_ old: UnsafeBufferPointer<UInt32>, _ new: UnsafeBufferPointer<UInt32>) -> Void = { _, _ in }) {
        // A frame like the one before shares its pixels with it: no copy.
        guard !delta.spans.isEmpty else { return }
        let stride = image.stride
        image.bytes.withUnsafeMutableBytes { out in
            delta.pixels.withUnsafeBufferPointer { source in
                var offset = 0
                for span in delta.spans {
                    let n = Int(span.count)
                    let target = (out.baseAddress! + Int(span.y) * stride + Int(span.x) * 4).assumingMemoryBound(to: UInt32.self)
                    let new = UnsafeBufferPointer(rebasing: source[offset..<(offset + n)])
                    change(UnsafeBufferPointer(start: target, count: n), new)
                    target.update(from: new.baseAddress!, count: n)
                    offset += n
                }
            }
        }
    }

    /// Unchanged pixels in a row past which a row's changes are kept as two spans: a
    /// span costs 12 bytes, and each one a call when walked.
    package static let gap = 16

    /// The rows of `image` that differ from `previous`, each from its first to its last
    /// differing pixel, split where at least ``gap`` pixels between are unchanged;
    /// compared inside `damage` only (the rest is the same).
    private static func delta(_ image: PixelImage, from previous: PixelImage, within damage: FrameDamage) -> Delta {
        var delta = Delta()
        let stride = image.stride
        let (left, top, width, height) = switch damage {
        case .none: (0, 0, 0, 0)
        case .rect(let x, let y, let w, let h): (x, y, w, h)
        case .everything: (0, 0, image.width, image.height)
        }
        precondition(left >= 0 && top >= 0 && left + width <= image.width && top + height <= image.height)
        image.bytes.withUnsafeBytes { a in
            previous.bytes.withUnsafeBytes { b in
                // The same pixels (a frame at rest takes the raster before it): no change.
                guard a.baseAddress != b.baseAddress, width > 0 else { return }
                for y in top..<(top + height) {
                    let row = a.baseAddress! + y * stride + left * 4, old = b.baseAddress! + y * stride + left * 4
                    guard memcmp(row, old, width * 4) != 0 else { continue }
                    // Pixels from the rectangle's left edge, spans placed on the canvas.
                    let p = row.assumingMemoryBound(to: UInt32.self), q = old.assumingMemoryBound(to: UInt32.self)
                    var lo = 0, hi = width - 1
                    while p[lo] == q[lo] { lo += 1 }
                    while p[hi] == q[hi] { hi -= 1 }
                    // Split where at least `gap` pixels in a row are unchanged (two bodies
                    // on one row): page-indicator's spans hold 2.4× its changed pixels whole.
                    var start = lo, end = lo, x = lo + 1  // `end`: the last changed pixel so far
                    while x <= hi {
                        // Eight pixels at a time: one vector compare skips them when equal.
                        let block = min(8, hi + 1 - x)
                        if block == 8, all(UnsafeRawPointer(p + x).loadUnaligned(as: SIMD8<UInt32>.self)
                                           .== UnsafeRawPointer(q + x).loadUnaligned(as: SIMD8<UInt32>.self)) {
                            x += 8
                            continue
                        }
                        for i in x..<(x + block) where p[i] != q[i] {
                            if i - end > Self.gap {
                                delta.spans.append(PixelRun(y: Int32(y), x: Int32(left + start), count: Int32(end - start + 1)))
                                start = i
                            }
                            end = i
                        }
                        x += block
                    }
                    delta.spans.append(PixelRun(y: Int32(y), x: Int32(left + start), count: Int32(end - start + 1)))
                }
                // The pixels in one allocation of their final size.
                let total = delta.spans.reduce(0) { $0 + Int($1.count) }
                delta.pixels = [UInt32](unsafeUninitializedCapacity: total) { out, initialized in
                    var offset = 0
                    for span in delta.spans {
                        let source = (a.baseAddress! + Int(span.y) * stride + Int(span.x) * 4).assumingMemoryBound(to: UInt32.self)
                        (out.baseAddress! + offset).initialize(from: source, count: Int(span.count))
                        offset += Int(span.count)
                    }
                    initialized = total
                }
            }
        }
        return delta
    }
}
