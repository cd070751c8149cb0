import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A thread of our own for `Parallel.map` and the frame stream's writer: unlike a pool's
/// thread, one that cannot be created (an address-space cap refusing its stack) is known
/// at once (`start` returns nil), and the caller does the work itself instead of waiting
/// for a thread that never comes.
struct WorkerThread {
    private let thread: pthread_t

    /// Runs `body` on a new thread; nil when the system refuses one.
    static func start(_ body: @escaping @Sendable () -> Void) -> WorkerThread? {
        let box = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
            WorkerThread.markCurrent()
            job.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(box).release()
            return nil
        }
        return WorkerThread(thread: thread)
    }

    /// Waits for the thread to finish.
    func join() { pthread_join(thread, nil) }

    /// True on a worker thread (and on a caller while it works as one): a map nested in
    /// a worker's body runs in order there, as the outer map already fills the cores.
    static var isCurrent: Bool { Thread.current.threadDictionary[key] != nil }

    static func markCurrent(_ on: Bool = true) { Thread.current.threadDictionary[key] = on ? true : nil }

    private static let key = "kinetic.workerThread"

    private final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
