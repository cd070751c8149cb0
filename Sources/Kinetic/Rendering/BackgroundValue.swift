import Foundation

/// A value made on a thread of its own while the caller goes on, for work that only
/// a later step needs: an animation's palette, chosen while the frames it will be
/// applied to are drawn (issue 42). ``value()`` waits for it. Made at once on the
/// caller's thread instead when asked to, or when the system refuses a thread.
///
/// `make` runs exactly once, on one thread; until ``value()`` (or ``wait()``) returns,
/// the caller must not touch what `make` uses.
// @unchecked: `result` is only touched with `condition` locked, and the value it holds
// is handed from the thread that made it to the callers of `value()`.
package final class BackgroundValue<Value>: @unchecked Sendable {
    private var result: Result<Value, any Error>?
    private let condition = NSCondition()

    /// `make`, handed to the thread that runs it; no other thread touches it.
    private struct Handed: @unchecked Sendable {
        let make: () throws -> Value
    }

    package init(inBackground: Bool, _ make: @escaping () throws -> Value) {
        let handed = Handed(make: make)
        if inBackground, WorkerThread.start({ [self] in finish(Result { try handed.make() }) }) != nil { return }
        result = Result { try make() }
    }

    private func finish(_ made: Result<Value, any Error>) {
        condition.lock(); result = made; condition.broadcast(); condition.unlock()
    }

    /// The value, once made; what making it threw, rethrown (to every caller).
    package func value() throws -> Value {
        try wait().get()
    }

    /// The value or the error that stopped it, once either is there.
    @discardableResult
    package func wait() -> Result<Value, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        guard let result else { preconditionFailure("set before the wait ends") }
        return result
    }
}
