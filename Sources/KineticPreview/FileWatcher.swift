import Foundation

/// Notices when any of a set of files changes, by comparing modification times and sizes
/// between polls (portable, and a scene's few files are cheap to stat every 250 ms).
/// A file that appears or disappears counts as a change.
public struct FileWatcher: Sendable {
    public struct Stamp: Equatable, Sendable {
        var modified: Double
        var size: Int
    }
    public private(set) var paths: [String]
    private var stamps: [String: Stamp?]

    public init(paths: [String]) {
        self.paths = paths
        stamps = Dictionary(paths.map { ($0, Self.stamp($0)) }, uniquingKeysWith: { a, _ in a })
    }

    /// Watches `paths` from now on, keeping the stamps of those already watched (so a
    /// change between the last poll and this call is still reported by the next poll).
    public mutating func watch(_ paths: [String]) {
        var next: [String: Stamp?] = [:]
        for p in paths { next[p] = stamps[p] ?? Self.stamp(p) }
        self.paths = paths
        stamps = next
    }

    /// Whether any watched file changed since the last poll.
    public mutating func poll() -> Bool {
        var changed = false
        for p in paths {
            let now = Self.stamp(p)
            if stamps[p] != .some(now) { changed = true }
            stamps[p] = now
        }
        return changed
    }

    static func stamp(_ path: String) -> Stamp? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        return Stamp(modified: Double(s.st_mtim.tv_sec) + Double(s.st_mtim.tv_nsec) / 1e9, size: Int(s.st_size))
    }
}
