import Dispatch
import Synchronization

/// LZW compression of a GIF's frames on worker threads, handed back in the order the
/// frames came, with at most ``limit`` frames in flight.
///
/// Once ``GIFWriter`` has decided a frame's indices (what is on screen decides them, so
/// that part runs in frame order), its compression depends on nothing else: each frame's
/// image data starts with a clear code and an empty dictionary. Compressing was a third
/// of the writer's sequential time on snow, and that sequential part capped `--jobs 16`
/// at 2.4× `--jobs 1` (issue 42). The bytes are the same whatever the thread count:
/// ``GIFLZW`` is a pure function of the indices, and frames leave in order.
final class GIFCompressionQueue<Payload> {
    /// One frame's compressed image data, filled by a worker.
    // @unchecked: `blocks` is written once by the worker before `ready` is signalled, and
    // read only by the queue's owner after waiting for `ready`.
    final class Job: @unchecked Sendable {
        fileprivate let ready = DispatchSemaphore(value: 0)
        fileprivate var blocks: [UInt8] = []
    }

    /// The frames compressed at once; a frame waits for the oldest when they are all busy,
    /// so memory holds at most this many frames' indices and image data.
    let limit: Int
    /// Compressors not in use: a dictionary table is 4 MiB, made once per worker rather
    /// than once per frame.
    private let idle = Compressors()
    private var inFlight: [(job: Job, payload: Payload)] = []

    init(limit: Int) {
        precondition(limit >= 1, "at least one frame in flight")
        self.limit = limit
    }

    /// Whether any frame is still in flight.
    var isEmpty: Bool { inFlight.isEmpty }

    /// Starts compressing `indices` (with `alternatives`, see ``GIFLZW``) for a colour table
    /// of `1 << bitsPerPixel` entries. When ``limit`` frames are already in flight, first
    /// waits for the oldest and returns it with its `payload` (what its owner needs to
    /// write it); else nil.
    func submit(_ indices: [UInt8], alternatives: [UInt8]?, bitsPerPixel: Int,
                payload: Payload) -> (blocks: [UInt8], payload: Payload)? {
        let done = inFlight.count >= limit ? next() : nil
        let job = Job(), idle = self.idle
        DispatchQueue.global().async {
            var lzw = idle.take()
            job.blocks = lzw.encode(indices, alternatives: alternatives, bitsPerPixel: bitsPerPixel)
            idle.give(lzw)
            job.ready.signal()
        }
        inFlight.append((job, payload))
        return done
    }

    /// Waits for the oldest frame in flight and returns it; nil when none is.
    func next() -> (blocks: [UInt8], payload: Payload)? {
        guard !inFlight.isEmpty else { return nil }
        let (job, payload) = inFlight.removeFirst()
        job.ready.wait()
        return (job.blocks, payload)
    }

    /// Waits for every frame in flight and drops them (the writer was cancelled).
    func discard() {
        for (job, _) in inFlight { job.ready.wait() }
        inFlight.removeAll()
    }

    deinit { discard() }
}

/// The idle ``GIFLZW`` compressors of one queue, shared with its workers.
private final class Compressors: Sendable {
    private let list = Mutex<[GIFLZW]>([])

    /// An idle compressor, or a new one.
    func take() -> GIFLZW { list.withLock { $0.popLast() } ?? GIFLZW() }

    func give(_ lzw: GIFLZW) {
        list.withLock { $0.append(lzw) }
    }
}
