import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of our own for `Parallel.map` and the frame stream's writer: unlike a pool's
/// thread, one that cannot be created (an address-space cap refusing its stack) is known
/// at once (`start` returns nil), and the caller does the work itself instead of waiting
/// for a thread that never comes.
///
/// Threads outlive their work: one that finishes waits for the next `start` (see
/// ``ThreadPark``), and a new one is made only when none waits. Pango keeps a font map a
/// thread, so a fresh thread for every chunk of frames rebuilt it (fontconfig's matching,
/// FreeType faces, HarfBuzz's caches) every chunk: 10–15% of an app screen's
/// rasterizing CPU.
package struct WorkerThread {
    private let job: Job

    /// Runs `body` on a waiting or new thread; nil when none waits and the system refuses
    /// a new one. With `parking` false, `body` gets a new thread that ends with it: work
    /// that mostly waits (a file's fsync) stays off the threads that rasterize and encode,
    /// whose malloc arenas keep a frame's buffers (ConcurrentFileWrites).
    package static func start(parking: Bool = true, _ body: @escaping @Sendable () -> Void) -> WorkerThread? {
        let job = Job(body, parks: parking)
        if parking, ThreadPark.shared.hand(job) { return WorkerThread(job: job) }
        let box = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let first = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
            WorkerThread.markCurrent()
            var job: Job? = first
            while let current = job {
                current.run()
                job = current.parks ? ThreadPark.shared.wait() : nil
            }
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(box).release()
            return nil
        }
        // Never joined: it lives, waiting between jobs, until the process ends.
        pthread_detach(thread)
        return WorkerThread(job: job)
    }

    /// Waits for the body to finish.
    package func join() { job.waitUntilDone() }

    /// True on a worker thread (and on a caller while it works as one): a map nested in
    /// a worker's body runs in order there, as the outer map already fills the cores.
    package static var isCurrent: Bool { Thread.current.threadDictionary[key] != nil }

    package static func markCurrent(_ on: Bool = true) { Thread.current.threadDictionary[key] = on ? true : nil }

    private static let key = "kinetic.workerThread"
}

/// One body to run, and whether it has run.
// @unchecked: `body` is taken by the one thread that runs it, before `done` is set;
// `done` is only touched with `condition` locked.
private final class Job: @unchecked Sendable {
    private var body: (@Sendable () -> Void)?
    private var done = false
    private let condition = NSCondition()
    /// Whether its thread waits in the park for the next job once this one is done.
    let parks: Bool

    init(_ body: @escaping @Sendable () -> Void, parks: Bool = true) {
        self.body = body
        self.parks = parks
    }

    /// Runs the body and lets it go: a body may hold what its caller frees once joined
    /// (the frame stream's non-escaping writer), and the job outlives the join.
    func run() {
        do {
            let body = self.body
            self.body = nil
            body?()
        }
        condition.lock(); done = true; condition.broadcast(); condition.unlock()
    }

    func waitUntilDone() {
        condition.lock()
        while !done { condition.wait() }
        condition.unlock()
    }
}

/// Where finished worker threads wait for their next job.
// @unchecked: both fields are only touched with `condition` locked.
private final class ThreadPark: @unchecked Sendable {
    static let shared = ThreadPark()
    /// Threads waiting (or about to) that no job has been handed to yet.
    private var idle = 0
    /// Jobs handed over, not yet taken: never more than the threads that will take them.
    private var queued: [Job] = []
    private let condition = NSCondition()

    /// Gives `job` to a waiting thread; false when none waits.
    func hand(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard idle > 0 else { return false }
        idle -= 1
        queued.append(job)
        condition.signal()
        return true
    }

    /// Waits for the next job handed to any waiting thread.
    func wait() -> Job {
        condition.lock()
        defer { condition.unlock() }
        idle += 1
        while queued.isEmpty { condition.wait() }
        return queued.removeFirst()
    }
}
