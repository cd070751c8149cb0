import Foundation
import Synchronization
import KineticEncode
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// The render loop: presentation trees are computed in order (simulation is sequential),
/// then rasterized and encoded in parallel, then handed to a sink in frame order.
///
/// Frames go through in chunks of `2 × jobs`, so memory holds at most one chunk of
/// rasters (plus the last frame of the previous chunk, which frame differencing needs)
/// whatever the frame count.
package struct FramePipeline {
    package var timeline: Timeline
    package var renderer: Renderer
    package var fps: Double
    package var frames: [Int]
    package var jobs: Int
    package var progress: Progress
    /// The particle limit (section 9).
    package var maxParticles = SceneLimits().maxParticles
    /// Where the rasters are also kept, in order, for later passes; the run stops with
    /// ``KeptFrames/Full/full`` once they refuse one.
    package var keep: KeptFrames?
    /// Where encoded frames' buffers go for later frames to be drawn into: for encoders
    /// that keep no raster (their result is not the frame itself); a pass that keeps
    /// frames (``keep``) uses none.
    package var buffers: FrameBufferPool?

    /// Runs `encode(frame, previous)` on worker threads and `consume(index, encoded)` on the
    /// calling thread in frame order.
    package func run<Encoded: Sendable>(encode: @escaping @Sendable (PixelImage, PixelImage?) throws -> Encoded,
                      consume: (Int, Encoded) throws -> Void) throws {
        // Physics and emitters are stateful: they advance with the frames, in order.
        let clock = FrameClock(timeline: timeline, maxParticles: maxParticles)
        let renderer = self.renderer, fps = self.fps, jobs = self.jobs
        let trace = StageTrace.shared
        let buffers = keep == nil ? self.buffers : nil
        // A frame drawn like the one before it (a scene at rest: 1,580 of the gallery's
        // 9,530 frames show no change) takes that frame's raster.
        var lastTree: SceneFrame?
        // The last chunk's last raster, which a kept pass's first repeat takes.
        var lastRaster: PixelImage?
        let stream = FrameStream(frames: frames, jobs: jobs, progress: progress, buffers: buffers)
        try stream.run(sources: { chunk in
            // Sequential: the scene's state advances frame by frame.
            let trees = try chunk.map { frame in
                try trace.measure(.tree, frame: frame) { try clock.renderingFrame(frame, fps: fps) }
            }
            let earlier = lastTree
            lastTree = trees.last
            var before = earlier
            let repeats = trees.map { tree in
                defer { before = tree }
                return before.map { tree.drawsLike($0) } ?? false
            }
            guard let keep else {
                // Drawn on the workers, each frame just before it is encoded.
                return trees.indices.map { k -> FrameStream.Source in
                    repeats[k] ? .previous : .draw {
                        try trace.measure(.raster, frame: chunk[k]) { try renderer.rasterize(trees[k], reusing: buffers?.take()) }
                    }
                }
            }
            let drawn = try Parallel.map(trees.indices.filter { !repeats[$0] }, jobs: jobs) { k in
                try trace.measure(.raster, frame: chunk[k]) { try renderer.rasterize(trees[k]) }
            }
            var rasters: [PixelImage] = []
            var fresh = drawn.makeIterator()
            for k in trees.indices {
                // A repeat always has a frame before it: this chunk's, or the last chunk's.
                if repeats[k], let previous = rasters.last ?? lastRaster {
                    rasters.append(previous)
                } else if let raster = fresh.next() {
                    rasters.append(raster)
                }
            }
            // Kept frames compare each raster with the one before it only where the
            // trees say pixels can differ.
            var treeBefore = earlier
            for (tree, raster) in zip(trees, rasters) {
                let damage = treeBefore.map { renderer.damage(from: $0, to: tree) } ?? .everything
                treeBefore = tree
                guard keep.append(raster, changedWithin: damage) else { throw KeptFrames.Full.full }
            }
            lastRaster = rasters.last
            return rasters.map { .drawn($0) }
        }, encode: { frame, previous, _ in try encode(frame, previous) }, consume: consume)
    }
}

/// Frames streamed in chunks of `2 × jobs`: a chunk's rasters are made (`rasters`),
/// encoded in parallel, then consumed in order — the loop of `render` (rasters from the
/// scene) and `encode` (rasters from PNG files).
///
/// With `jobs` above 1, consuming runs on its own thread while the next chunk is
/// rasterized and encoded, so a sequential writer (libwebp, x264's input, the GIF
/// writer) overlaps with the parallel work instead of leaving the cores idle. With
/// `jobs` 1 everything runs on the calling thread, one chunk after the other: `--jobs 1`
/// is one thread in all, as `make -j1` is one job (a writer thread beside one worker
/// made `--jobs 1` use two cores, and `--jobs 2` could then gain little over it;
/// issue 42). Memory holds at most one chunk of rasters and two of encoded frames (plus
/// the last raster of the previous chunk, which frame differencing needs), whatever the
/// frame count.
package struct FrameStream {
    package var frames: [Int]
    package var jobs: Int
    package var progress: Progress
    /// Where frame `i` differs from frame `i - 1`, when the rasters' source knows
    /// (``KeptFrames/change(at:)``); `encode` is told it for a frame that follows its
    /// previous one directly.
    package var changes: ((Int) -> FrameChange)?
    /// Where a chunk's rasters go once encoded (but the last, which the next chunk's first
    /// frame is differenced against), for the rasters' source to draw later frames into.
    package var buffers: FrameBufferPool?

    package init(frames: [Int], jobs: Int, progress: Progress, changes: ((Int) -> FrameChange)? = nil,
                 buffers: FrameBufferPool? = nil) {
        self.frames = frames
        self.jobs = jobs
        self.progress = progress
        self.changes = changes
        self.buffers = buffers
    }

    /// Frames a chunk holds: two a worker.
    package static func chunkSize(jobs: Int) -> Int { max(2, jobs * 2) }

    /// Runs `rasters` on each chunk of ``frames``, `encode(frame, previous, change)` on
    /// worker threads and `consume(frame number, encoded)` in order.
    package func run<Encoded: Sendable>(rasters: ([Int]) throws -> [PixelImage],
                      encode: @escaping @Sendable (PixelImage, PixelImage?, FrameChange) throws -> Encoded,
                      consume: (Int, Encoded) throws -> Void) throws {
        try run(sources: { try rasters($0).map { Source.drawn($0) } }, encode: encode, consume: consume)
    }

    /// Where a frame's raster comes from (``run(sources:encode:consume:)``).
    package enum Source: Sendable {
        /// Already made.
        case drawn(PixelImage)
        /// Drawn by the worker that encodes the frame, just before: a frame is then
        /// encoded as soon as it and the frame before it are drawn, not once the whole
        /// chunk is (a wait for the chunk's slowest frame on every chunk).
        case draw(@Sendable () throws -> PixelImage)
        /// The raster of the frame before it in the stream (never the first frame's).
        case previous
    }

    /// ``run(rasters:encode:consume:)`` with each chunk's rasters made on the workers.
    package func run<Encoded: Sendable>(sources: ([Int]) throws -> [Source],
                      encode: @escaping @Sendable (PixelImage, PixelImage?, FrameChange) throws -> Encoded,
                      consume: (Int, Encoded) throws -> Void) throws {
        try withoutActuallyEscaping(consume) { consume in
            let chunkSize = Self.chunkSize(jobs: jobs)
            let trace = StageTrace.shared
            defer { trace.report(pass: progress.unit.replacingOccurrences(of: " ", with: "-")) }
            var writer: WorkerThread?
            let failure = FirstError()
            // Whatever happens, the consumer is done before `consume` goes out of scope.
            defer { writer?.join() }
            var previous: PixelImage?
            var start = 0
            while start < frames.count {
                let chunk = Array(frames[start..<min(start + chunkSize, frames.count)])
                let sources = try sources(chunk)
                let carried = previous
                let known = (start..<(start + chunk.count)).map { i in
                    if let changes, i > 0, frames[i - 1] == frames[i] - 1 { changes(frames[i]) } else { FrameChange.unknown }
                }
                // Workers take frames in order, and each draws its frame before waiting for
                // the one before it, so every wait ends.
                let made = ChunkRasters(count: sources.count)
                let encoded = try Parallel.map(Array(sources.indices), jobs: jobs) { k in
                    let raster: PixelImage
                    do {
                        switch sources[k] {
                        case .drawn(let image): raster = image
                        case .draw(let draw): raster = try draw()
                        case .previous:
                            guard let before = try (k == 0 ? carried : made.raster(k - 1)) else {
                                preconditionFailure("the first frame streamed repeats no frame")
                            }
                            raster = before
                        }
                    } catch {
                        made.fail(k, error)
                        throw error
                    }
                    made.set(k, raster)
                    let before = try (k == 0 ? carried : made.raster(k - 1))
                    return try trace.measure(.encode, frame: chunk[k]) { try encode(raster, before, known[k]) }
                }
                let rasters = made.all()
                if let buffers { Self.recycle(rasters, carried: carried, to: buffers) }
                // One chunk is consumed at a time, in order.
                trace.measure(.waitWriter, frame: chunk[0]) { writer?.join() }
                writer = nil
                try failure.rethrow()
                let progress = self.progress
                let consumer = SerialCall(consume)
                let results = EncodedChunk(consume encoded)
                let consumeChunk: @Sendable () -> Void = {
                    do {
                        for k in chunk.indices {
                            guard let e = results.take(k) else { preconditionFailure("each frame is consumed once") }
                            try trace.measure(.consume, frame: chunk[k]) { try consumer.call(chunk[k], e) }
                            progress.advance()
                        }
                    } catch {
                        failure.record(error)
                    }
                }
                // One job, or no thread (the system refuses one): the chunk is consumed here.
                writer = jobs > 1 ? WorkerThread.start(consumeChunk) : nil
                if writer == nil {
                    consumeChunk()
                    try failure.rethrow()
                }
                previous = rasters.last
                start += chunk.count
            }
            writer?.join()
            writer = nil
            try failure.rethrow()
        }
    }
}

extension FrameBufferPool {
    /// What a frame stream of `jobs` hands back at most at once: a chunk's rasters and the
    /// one carried from the chunk before (``FrameStream/recycle(_:carried:to:)``).
    package static func limit(jobs: Int) -> Int { FrameStream.chunkSize(jobs: jobs) + 1 }
}

extension FrameStream {
    /// Hands `buffers` a chunk's encoded rasters but its last (the next chunk's first frame
    /// is differenced against it), and the raster carried from the chunk before, each
    /// buffer once: a frame at rest shares the raster before it.
    static func recycle(_ rasters: [PixelImage], carried: PixelImage?, to buffers: FrameBufferPool) {
        func address(_ image: PixelImage) -> UnsafeRawPointer? { image.bytes.withUnsafeBytes { $0.baseAddress } }
        var held = Set(rasters.last.flatMap(address).map { [$0] } ?? [])
        for image in (carried.map { [$0] } ?? []) + rasters.dropLast() {
            guard let base = address(image), held.insert(base).inserted else { continue }
            buffers.recycle(image)
        }
    }
}

/// One chunk's rasters as its workers make them: a worker encoding a frame waits here for
/// the frame before it.
// @unchecked: `rasters` and `failures` are only touched with `condition` locked.
private final class ChunkRasters: @unchecked Sendable {
    private var rasters: [PixelImage?]
    private var failures: [(any Error)?]
    private let condition = NSCondition()

    init(count: Int) {
        rasters = Array(repeating: nil, count: count)
        failures = Array(repeating: nil, count: count)
    }

    func set(_ k: Int, _ raster: PixelImage) {
        condition.lock(); rasters[k] = raster; condition.broadcast(); condition.unlock()
    }

    /// Raster `k` will never come: `error` is what its drawing threw.
    func fail(_ k: Int, _ error: any Error) {
        condition.lock(); failures[k] = error; condition.broadcast(); condition.unlock()
    }

    /// Raster `k`, once drawn; the error that stopped it, rethrown (so the stream reports
    /// that error whichever worker gets there first).
    func raster(_ k: Int) throws -> PixelImage {
        condition.lock()
        defer { condition.unlock() }
        while rasters[k] == nil, failures[k] == nil { condition.wait() }
        if let raster = rasters[k] { return raster }
        throw failures[k] ?? CancellationError()
    }

    /// Every raster, once all are drawn (after the workers are done).
    func all() -> [PixelImage] {
        condition.lock()
        defer { condition.unlock() }
        return rasters.compactMap { $0 }
    }
}

/// A chunk's encoded frames, each handed to the consumer once and dropped: a frame
/// written is then held nowhere, so what its encoder handed back for later frames (a
/// GIF frame's source colours, ``AnimationWriter``) is reused in place, not copied, while
/// the rest of its chunk is written.
// @unchecked: used by one thread at a time (the writer's, joined before the next chunk).
private final class EncodedChunk<Encoded>: @unchecked Sendable {
    private var slots: [Encoded?]

    init(_ encoded: consuming [Encoded]) { slots = encoded.map { $0 } }

    /// Frame `k`, the first time it is asked for.
    func take(_ k: Int) -> Encoded? {
        defer { slots[k] = nil }
        return slots[k]
    }
}

/// The first error a background consumer (or file write) met, read by the thread that
/// waits for it.
// @unchecked: `error` is only touched with `lock` held.
final class FirstError: @unchecked Sendable {
    private var error: Error?
    private let lock = NSLock()
    func record(_ e: Error) { lock.lock(); if error == nil { error = e }; lock.unlock() }
    func rethrow() throws {
        lock.lock(); let e = error; lock.unlock()
        if let e { throw e }
    }
}

/// A parallel map on threads: `jobs` workers (the caller and up to `jobs - 1` threads)
/// take the items in turn, results kept in input order, the first error rethrown (the
/// workers then take no more items).
///
/// The caller always works too, so a thread the system refuses (an address-space cap)
/// means fewer workers, never a wait for one that never starts. A call made from inside
/// a worker (a map nested in another's body), or from inside a task, runs in order: the
/// outer map already fills the cores.
package enum Parallel {
    package static func map<T: Sendable, R: Sendable>(_ items: [T], jobs: Int,
                                              _ body: @escaping @Sendable (T) throws -> R) throws -> [R] {
        let width = max(1, min(jobs, items.count))
        if width == 1 || WorkerThread.isCurrent || withUnsafeCurrentTask(body: { $0 != nil }) { return try items.map(body) }
        let work = SharedWork(items: items, body: body)
        var helpers: [WorkerThread] = []
        for _ in 1..<width {
            guard let helper = WorkerThread.start({ work.run() }) else { break }
            helpers.append(helper)
        }
        WorkerThread.markCurrent()
        work.run()
        WorkerThread.markCurrent(false)
        for helper in helpers { helper.join() }
        return try work.results()
    }
}

/// The items of one `Parallel.map`, handed out one at a time to whichever worker asks.
private final class SharedWork<T: Sendable, R: Sendable>: Sendable {
    private struct State {
        var next = 0
        var results: [R?]
        var error: (any Error)?
    }
    private let items: [T]
    private let body: @Sendable (T) throws -> R
    private let state: Mutex<State>

    init(items: [T], body: @escaping @Sendable (T) throws -> R) {
        self.items = items
        self.body = body
        state = Mutex(State(results: Array(repeating: nil, count: items.count)))
    }

    /// Takes items until none are left or one failed.
    func run() {
        while true {
            let i: Int? = state.withLock { s in
                guard s.error == nil, s.next < items.count else { return nil }
                defer { s.next += 1 }
                return s.next
            }
            guard let i else { return }
            do {
                let r = try body(items[i])
                state.withLock { $0.results[i] = r }
            } catch {
                state.withLock { if $0.error == nil { $0.error = error } }
            }
        }
    }

    func results() throws -> [R] {
        try state.withLock { s in
            if let e = s.error { throw e }
            return s.results.compactMap { $0 }
        }
    }
}

/// A closure handed to the writer thread. Unchecked because the frame stream runs it on
/// one thread at a time and joins that thread before the next chunk and before
/// returning, so it never runs on two threads at once or after its scope ends.
private struct SerialCall<Value>: @unchecked Sendable {
    let call: (Int, Value) throws -> Void
    init(_ call: @escaping (Int, Value) throws -> Void) { self.call = call }
}
