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
/// Frames go through a ``FrameStream``, so memory holds at most its frames in flight
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

/// Frames streamed in chunks of `2 × jobs`: a chunk's rasters or the closures that draw
/// them are made in order (`sources`), each frame is drawn and encoded by one of `jobs`
/// workers, and frames are consumed in order — the loop of `render` (rasters from the
/// scene) and `encode` (rasters from PNG files).
///
/// The `jobs` workers are threads of their own, fed by the calling thread (which does
/// little else: the trees are cheap); the frame next in order is consumed by whichever
/// worker finishes it, so a sequential writer (libwebp,
/// x264's input, the GIF writer) overlaps with the parallel work on no thread of its
/// own. With `jobs` 1 everything runs on the calling thread: `--jobs 1` is one thread in
/// all, as `make -j1` is one job (issue 42). Memory holds at most
/// ``framesInFlight(jobs:)`` frames between their sources and their consumer, whatever
/// the frame count.
package struct FrameStream {
    package var frames: [Int]
    package var jobs: Int
    package var progress: Progress
    /// Where frame `i` differs from frame `i - 1`, when the rasters' source knows
    /// (``KeptFrames/change(at:)``); `encode` is told it for a frame that follows its
    /// previous one directly.
    package var changes: ((Int) -> FrameChange)?
    /// Where rasters go once no frame needs them (the frame after each is encoded: it is
    /// differenced against it), for the rasters' source to draw later frames into.
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

    /// Frames in flight at most: published to the workers and not yet consumed — a chunk
    /// and a frame a worker, so the next chunk is published while each worker still has a
    /// frame to take. Two chunks (what a chunk drawn beside a chunk written held before)
    /// took more memory at `--jobs 4` for no gain in time.
    package static func framesInFlight(jobs: Int) -> Int { chunkSize(jobs: jobs) + max(1, jobs) }

    /// ``run(rasters:encode:consume:)`` with each chunk's rasters made on the workers.
    ///
    /// The calling thread makes each chunk's sources in order while there is room for it
    /// (``framesInFlight(jobs:)``), and `jobs` workers take the frames one at a time
    /// (``FrameSchedule``): no thread waits for a whole chunk, and the frame next in order
    /// is written by the worker that finishes it, on no thread of its own. With
    /// one chunk drawn at a time and the writer on a thread beside them, each chunk's
    /// slowest frame left a core idle and three threads took turns on two cores: snow's
    /// GIF at `--jobs 2` took 0.79× the wall time of `--jobs 1` (issue 42).
    package func run<Encoded: Sendable>(sources: ([Int]) throws -> [Source],
                      encode: @escaping @Sendable (PixelImage, PixelImage?, FrameChange) throws -> Encoded,
                      consume: (Int, Encoded) throws -> Void) throws {
        try withoutActuallyEscaping(consume) { consume in
            let chunkSize = Self.chunkSize(jobs: jobs)
            let trace = StageTrace.shared
            defer { trace.report(pass: progress.unit.replacingOccurrences(of: " ", with: "-")) }
            let schedule = FrameSchedule(limit: Self.framesInFlight(jobs: jobs), buffers: buffers, progress: progress,
                                         encode: encode, consume: consume)
            // Inside a worker (a stream nested in another's work) the frames go in order on
            // the calling thread, as `Parallel.map` does: the outer work already fills the
            // cores. In a task they do not: the workers are threads of their own, as the
            // writer's was, never the task pool's.
            let nested = WorkerThread.isCurrent
            var workers: [WorkerThread] = []
            if jobs > 1, !nested {
                for _ in 0..<jobs {
                    guard let worker = WorkerThread.start({ schedule.work() }) else { break }
                    workers.append(worker)
                }
            }
            // The calling thread feeds the workers, and works too only where they are fewer
            // than `jobs` (one job, or threads refused): a feeder busy with a frame left
            // the workers without frames once they had taken every one published.
            let works = workers.count < jobs
            // Whatever happens, the workers are done before `consume` goes out of scope.
            defer {
                schedule.finishPublishing()
                for worker in workers { worker.join() }
            }
            var start = 0
            feeding: while true {
                let count = min(chunkSize, frames.count - start)
                if count > 0, schedule.hasRoom(for: count) {
                    let chunk = Array(frames[start..<(start + count)])
                    do {
                        let made = try sources(chunk)
                        schedule.publish(made.indices.map { k in
                            let i = start + k
                            let follows = i > 0 && frames[i - 1] == frames[i] - 1
                            let change = if let changes, follows { changes(frames[i]) } else { FrameChange.unknown }
                            return FrameSchedule.Item(frame: chunk[k], source: made[k], change: change)
                        })
                    } catch {
                        schedule.stop(error)
                        break
                    }
                    start += count
                    continue
                }
                if count <= 0 {
                    schedule.finishPublishing()
                    if !works { break }
                }
                let turn = trace.measure(.waitWriter, frame: count > 0 ? frames[start] : frames.last ?? 0) {
                    schedule.next(roomFor: count > 0 ? count : nil, takes: works)
                }
                switch turn {
                case .room: continue
                case .over: break feeding
                case let .frame(position, item):
                    WorkerThread.markCurrent()
                    schedule.handle(position, item)
                    WorkerThread.markCurrent(nested)
                }
            }
            schedule.finishPublishing()
            for worker in workers { worker.join() }
            workers = []
            try schedule.rethrow()
            precondition(schedule.wroteEverything, "every frame published is written")
        }
    }
}

extension FrameBufferPool {
    /// Buffers kept for a frame stream of `jobs`: its frames in flight and the raster the
    /// next frame is differenced against, the most it draws before one comes back
    /// (``FrameStream/recycle(_:holding:to:)``).
    package static func limit(jobs: Int) -> Int { FrameStream.framesInFlight(jobs: jobs) + 1 }
}

extension FrameStream {
    /// Hands `buffers` the rasters of frames no later frame needs, each buffer once (a
    /// frame at rest shares the raster before it), but not `held`'s: the frame after the
    /// last of them is differenced against it.
    static func recycle(_ rasters: [PixelImage], holding held: PixelImage?, to buffers: FrameBufferPool) {
        func address(_ image: PixelImage) -> UnsafeRawPointer? { image.bytes.withUnsafeBytes { $0.baseAddress } }
        var seen = Set(held.flatMap(address).map { [$0] } ?? [])
        for image in rasters {
            guard let base = address(image), seen.insert(base).inserted else { continue }
            buffers.recycle(image)
        }
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
