/// Encoded frames kept within a byte budget, the least recently used dropped first.
///
/// A value type: the preview's session keeps one behind its lock. Lookups and inserts
/// are O(n) in the number of entries, which stays small (a bound of 64 MB holds a few
/// hundred PNG frames) and costs nothing next to rendering one frame.
public struct FrameCache<Key: Hashable>: Sendable where Key: Sendable {
    /// The most bytes the entries may hold together.
    public let capacity: Int
    /// Bytes held now (at most `capacity`).
    public private(set) var bytes = 0
    private var entries: [Key: [UInt8]] = [:]
    /// Keys from least to most recently used.
    private var order: [Key] = []

    public init(capacity: Int) { self.capacity = max(0, capacity) }

    public var count: Int { entries.count }

    /// The value for `key`, now the most recently used.
    public mutating func value(for key: Key) -> [UInt8]? {
        guard let value = entries[key] else { return nil }
        touch(key)
        return value
    }

    /// Stores `value`, dropping the least recently used entries until it fits. A value
    /// larger than the whole budget is not kept.
    public mutating func insert(_ value: [UInt8], for key: Key) {
        remove(key)
        guard value.count <= capacity else { return }
        while bytes + value.count > capacity, let oldest = order.first { remove(oldest) }
        entries[key] = value
        order.append(key)
        bytes += value.count
    }

    public mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        bytes = 0
    }

    private mutating func remove(_ key: Key) {
        guard let old = entries.removeValue(forKey: key) else { return }
        bytes -= old.count
        order.removeAll { $0 == key }
    }

    private mutating func touch(_ key: Key) {
        order.removeAll { $0 == key }
        order.append(key)
    }
}
