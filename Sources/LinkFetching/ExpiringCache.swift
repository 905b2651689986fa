/// A small map with a capacity and a time to live, evicting the oldest entries first; not thread-safe on its
/// own, so it lives inside an actor.
package struct ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var expires: ContinuousClock.Instant
    }

    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []
    private let capacity: Int
    private let timeToLive: Duration

    package init(capacity: Int, timeToLive: Duration) {
        self.capacity = max(1, capacity)
        self.timeToLive = timeToLive
    }

    package var count: Int { entries.count }

    /// The value for `key` if present and not expired; an expired entry is removed.
    package mutating func value(for key: Key, now: ContinuousClock.Instant = .now) -> Value? {
        guard let entry = entries[key] else { return nil }
        guard entry.expires > now else {
            remove(key)
            return nil
        }
        return entry.value
    }

    /// Stores `value` for `key`, evicting the oldest entries beyond the capacity.
    package mutating func insert(_ value: Value, for key: Key, now: ContinuousClock.Instant = .now) {
        if entries.updateValue(Entry(value: value, expires: now + timeToLive), forKey: key) != nil {
            order.removeAll { $0 == key }
        }
        order.append(key)
        while entries.count > capacity, let oldest = order.first {
            order.removeFirst()
            entries[oldest] = nil
        }
    }

    private mutating func remove(_ key: Key) {
        entries[key] = nil
        order.removeAll { $0 == key }
    }
}
