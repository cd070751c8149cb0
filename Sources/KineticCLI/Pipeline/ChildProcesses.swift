import Foundation
import Synchronization

/// The child processes running now (`batch` renders each scene in one), so that a
/// signal that stops kinetic reaches them too: each gets the same signal, cleans up its
/// own temporary files, and is waited for (a bounded time) before kinetic exits.
enum ChildProcesses {
    private static let running = Mutex<[Int32: Process]>([:])

    /// How long an interrupted child may take to clean up before it is killed.
    static let grace: Double = 10

    static func add(_ process: Process) {
        let pid = process.processIdentifier
        running.withLock { $0[pid] = process }
    }

    static func remove(_ process: Process) {
        let pid = process.processIdentifier
        _ = running.withLock { $0.removeValue(forKey: pid) }
    }

    /// Sends `signal` to every child and waits until each has exited, at most ``grace``
    /// seconds; one still running then is killed.
    static func forward(_ signal: Int32) {
        let pids = running.withLock { Array($0.keys) }
        guard !pids.isEmpty else { return }
        for pid in pids { kill(pid, signal) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline, running.withLock({ $0.values.contains { $0.isRunning } }) {
            usleep(20_000)
        }
        for pid in running.withLock({ $0.filter { $0.value.isRunning }.map(\.key) }) { kill(pid, SIGKILL) }
    }
}
