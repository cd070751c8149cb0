import Foundation

/// A one-line progress bar on stderr (frames done/total, rate, ETA), shown only when
/// stderr is a terminal and not --quiet. Thread-safe: frames finish on several threads.
package final class Progress: @unchecked Sendable {
    private let total: Int
    private let enabled: Bool
    /// What is counted: "frames", or a pass before them ("palette frames").
    package let unit: String
    private let start = Date()
    private let lock = NSLock()
    private var done = 0
    private var lastDraw = Date.distantPast

    package init(total: Int, enabled: Bool, unit: String = "frames") {
        self.total = total; self.enabled = enabled; self.unit = unit
    }

    package func advance(by n: Int = 1) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        done += n
        let now = Date()
        // Redraw at most ten times a second, and always at the end.
        guard done == total || now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 1e-6)
        let rate = Double(done) / elapsed
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = String(format: "\r%@ %d/%d %@  %.1f fps  ETA %.0fs ", bar, done, total, unit, rate, eta)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Clears the bar's line.
    package func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
