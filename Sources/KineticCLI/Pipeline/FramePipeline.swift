import Foundation
import Synchronization
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
struct FramePipeline {
    var timeline: Timeline
    var renderer: Renderer
    var fps: Double
    var frames: [Int]
    var jobs: Int
    var progress: Progress
    /// The particle limit (section 9).
    var maxParticles = SceneLimits().maxParticles

    /// Runs `encode(frame, previous)` on worker threads and `consume(index, encoded)` on the
    /// calling thread in frame order.
    func run<Encoded: Sendable>(encode: @escaping @Sendable (PixelImage, PixelImage?) throws -> Encoded,
                      consume: (Int, Encoded) throws -> Void) throws {
        // Physics and emitters are stateful: they advance with the frames, in order.
        let clock = FrameClock(timeline: timeline, maxParticles: maxParticles)
        let renderer = self.renderer, fps = self.fps, jobs = self.jobs
        try FrameStream(frames: frames, jobs: jobs, progress: progress).run(rasters: { chunk in
            // Sequential: the scene's state advances frame by frame.
            let trees = try chunk.map { try clock.commandFrame($0, fps: fps) }
            return try Parallel.map(trees, jobs: jobs) { try renderer.rasterize($0) }
        }, encode: encode, consume: consume)
    }
}

/// Frames streamed in chunks of `2 × jobs`: a chunk's rasters are made (`rasters`),
/// encoded in parallel, then consumed in order — the loop of `render` (rasters from the
/// scene) and `encode` (rasters from PNG files).
///
/// Consuming runs on its own thread while the next chunk is rasterized and encoded, so
/// a sequential writer (libwebp, x264's input, giflib) overlaps with the parallel work
/// instead of leaving the cores idle. Memory holds at most one chunk of rasters and two
/// of encoded frames (plus the last raster of the previous chunk, which frame
/// differencing needs), whatever the frame count.
struct FrameStream {
    var frames: [Int]
    var jobs: Int
    var progress: Progress

    func run<Encoded: Sendable>(rasters: ([Int]) throws -> [PixelImage],
                      encode: @escaping @Sendable (PixelImage, PixelImage?) throws -> Encoded,
                      consume: (Int, Encoded) throws -> Void) throws {
        try withoutActuallyEscaping(consume) { consume in
            let chunkSize = max(2, jobs * 2)
            let writer = DispatchQueue(label: "kinetic.frame-stream.consume")
            let consuming = DispatchGroup()
            let failure = FirstError()
            // Whatever happens, the consumer is done before `consume` goes out of scope.
            defer { consuming.wait() }
            var previous: PixelImage?
            var start = 0
            while start < frames.count {
                let chunk = Array(frames[start..<min(start + chunkSize, frames.count)])
                let rasters = try rasters(chunk)
                let carried = previous
                let encoded = try Parallel.map(Array(rasters.indices), jobs: jobs) { k in
                    try encode(rasters[k], k == 0 ? carried : rasters[k - 1])
                }
                // One chunk is consumed at a time, in order.
                consuming.wait()
                try failure.rethrow()
                let progress = self.progress
                let consumer = SerialCall(consume)
                writer.async(group: consuming) {
                    do {
                        for (k, e) in encoded.enumerated() {
                            try consumer.call(chunk[k], e)
                            progress.advance()
                        }
                    } catch {
                        failure.record(error)
                    }
                }
                previous = rasters.last
                start += chunk.count
            }
            consuming.wait()
            try failure.rethrow()
        }
    }
}

/// The first error a background consumer met, read by the thread that waits for it.
// @unchecked: `error` is only touched with `lock` held.
private final class FirstError: @unchecked Sendable {
    private var error: Error?
    private let lock = NSLock()
    func record(_ e: Error) { lock.lock(); if error == nil { error = e }; lock.unlock() }
    func rethrow() throws {
        lock.lock(); let e = error; lock.unlock()
        if let e { throw e }
    }
}

/// A parallel map on structured concurrency: a task group with at most `jobs` child tasks
/// running at once (one more is added as one finishes), results kept in input order, the
/// first error rethrown (the rest are cancelled).
///
/// The commands are synchronous: the caller waits for the group. A call made from inside
/// a task (a map nested in another's body) runs in order on that task instead: the outer
/// map already fills the cores, and blocking a pool thread on more tasks could starve it.
enum Parallel {
    static func map<T: Sendable, R: Sendable>(_ items: [T], jobs: Int,
                                              _ body: @escaping @Sendable (T) throws -> R) throws -> [R] {
        let width = max(1, min(jobs, items.count))
        if width == 1 || withUnsafeCurrentTask(body: { $0 != nil }) { return try items.map(body) }
        let outcome = Outcome<[R]>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            guard outcome.claim() else { return }
            do {
                let values = try await withThrowingTaskGroup(of: (Int, R).self) { group in
                    var results = [R?](repeating: nil, count: items.count)
                    var next = 0
                    func add() {
                        let i = next
                        group.addTask { (i, try body(items[i])) }
                        next += 1
                    }
                    while next < width { add() }
                    while let (i, r) = try await group.next() {
                        results[i] = r
                        if next < items.count { add() }
                    }
                    return results.compactMap { $0 }
                }
                outcome.set(.success(values))
            } catch {
                outcome.set(.failure(error))
            }
            done.signal()
        }
        // The pool may have no thread to give (an address-space cap refusing new threads):
        // when the group has not started after a second, the caller runs the map itself.
        while done.wait(timeout: .now() + 1) == .timedOut {
            if outcome.claim() { return try items.map(body) }
        }
        return try outcome.get()
    }
}

/// The result of the detached group, handed to the waiting caller, and who runs the map
/// (the group, or the caller when the group never started).
private final class Outcome<R: Sendable>: Sendable {
    private let result = Mutex<Result<R, Error>?>(nil)
    private let claimed = Atomic<Bool>(false)
    /// True for the first caller only.
    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
    func set(_ r: Result<R, Error>) { result.withLock { $0 = r } }
    func get() throws -> R {
        guard let r = result.withLock({ $0 }) else { throw CancellationError() }
        return try r.get()
    }
}

/// A closure handed to the writer queue. Unchecked because the frame stream runs it on
/// that one serial queue and waits for it (`consuming.wait()`) before the next chunk and
/// before returning, so it never runs on two threads at once or after its scope ends.
private struct SerialCall<Value>: @unchecked Sendable {
    let call: (Int, Value) throws -> Void
    init(_ call: @escaping (Int, Value) throws -> Void) { self.call = call }
}
