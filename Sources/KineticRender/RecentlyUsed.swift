import Foundation

/// Values kept by key for later frames (flat renderings, shadow silhouettes), bounded in
/// bytes and entries, the least recently used dropped first. A lookup compares keys one
/// by one (they are Equatable, not Hashable: layers), so the entry bound also bounds it.
// @unchecked: every access to the mutable state goes through `lock` (frames may render
// on several threads).
final class RecentlyUsed<Key: Equatable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Most recently used last.
    private var entries: [(key: Key, value: Value, size: Int)] = []
    private var bytes = 0
    let capacityBytes: Int
    let capacityEntries: Int

    init(capacityBytes: Int, capacityEntries: Int) {
        self.capacityBytes = capacityBytes; self.capacityEntries = capacityEntries
    }

    /// How many entries are held.
    var count: Int { lock.withLock { entries.count } }

    /// The value stored for `key`, now the most recently used; nil when there is none.
    func value(for key: Key) -> Value? {
        lock.withLock {
            guard let i = entries.lastIndex(where: { $0.key == key }) else { return nil }
            let found = entries.remove(at: i)
            entries.append(found)
            return found.value
        }
    }

    /// The value stored for `key`, or the one `make` returns (called outside the lock)
    /// stored with the size `size` gives it.
    func value(for key: Key, size: (Value) -> Int, make: () -> Value) -> Value {
        if let hit = value(for: key) { return hit }
        let made = make()
        store(made, size: size(made), for: key)
        return made
    }

    /// Keeps `value` (`size` bytes) for `key`, unless it alone exceeds the byte budget.
    func store(_ value: Value, size: Int, for key: Key) {
        guard size <= capacityBytes else { return }
        lock.withLock {
            // Another thread may have made the same entry meanwhile: keep one.
            guard !entries.contains(where: { $0.key == key }) else { return }
            entries.append((key, value, size))
            bytes += size
            while bytes > capacityBytes || entries.count > capacityEntries {
                bytes -= entries.removeFirst().size
            }
        }
    }
}
