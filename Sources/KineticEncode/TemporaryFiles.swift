import Foundation

/// The temporary files of unfinished outputs, so an interrupted run (Ctrl-C, SIGTERM)
/// can remove them before it exits: the destination is never truncated, and nothing
/// hidden is left behind either.
public enum TemporaryFiles {
    private static let lock = NSLock()
    // Every access holds `lock`.
    nonisolated(unsafe) private static var paths = Set<String>()

    static func register(_ path: String) {
        lock.lock(); paths.insert(path); lock.unlock()
    }

    static func unregister(_ path: String) {
        lock.lock(); paths.remove(path); lock.unlock()
    }

    /// Removes every registered temporary file (called from a signal handler's queue).
    public static func removeAll() {
        lock.lock(); defer { lock.unlock() }
        for path in paths { unlink(path) }
        paths.removeAll()
    }
}
