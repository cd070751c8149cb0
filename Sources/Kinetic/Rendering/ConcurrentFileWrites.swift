import KineticEncode

/// Files written whole on threads of their own, up to `limit` at a time, each through an
/// ``AtomicFile`` (complete or absent).
///
/// An atomic file waits in `fsync` for the disk, and the file system commits concurrent
/// ones together: snow's frames folder spent 1.9 s of its render in 200 fsyncs, 9.5 ms
/// each, one after another on the frame stream's writer thread, while four threads
/// fsyncing at once took 1–6 ms a file on the same loaded disk (issue 42).
///
/// One thread (the frame stream's consumer) calls ``write(_:to:)`` and ``finish()``.
final class ConcurrentFileWrites {
    private let limit: Int
    private var inFlight: [WorkerThread] = []
    private let failure = FirstError()

    init(limit: Int = 8) { self.limit = max(1, limit) }

    /// Starts writing `bytes` to `path`, after the writes in flight when `limit` are;
    /// throws the first write that failed so far.
    func write(_ bytes: [UInt8], to path: String) throws {
        if inFlight.count >= limit { try finish() }
        let failure = self.failure
        // A thread of its own, ended with the write: the parked threads that encode keep
        // a frame's buffers in their malloc arenas, and spreading the encoding over more
        // of them raised snow's peak RSS from 113 to 164 MB. No thread to be had: the
        // file is written here.
        guard let thread = WorkerThread.start(parking: false, {
            do { try AtomicFile.write(bytes, to: path) } catch { failure.record(error) }
        }) else {
            return try AtomicFile.write(bytes, to: path)
        }
        inFlight.append(thread)
    }

    /// Waits for every write started; throws the first that failed.
    func finish() throws {
        for thread in inFlight { thread.join() }
        inFlight.removeAll()
        try failure.rethrow()
    }
}
