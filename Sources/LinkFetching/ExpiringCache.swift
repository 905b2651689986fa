import WebLinks

/// A small map with a capacity and a time to live, evicting the least recently used entries first (an
/// `LRUStore` costing one per entry); not thread-safe on its own, so it lives inside an actor.
package struct ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var expires: ContinuousClock.Instant
    }

    private var entries: LRUStore<Key, Entry>
    private let timeToLive: Duration

    package init(capacity: Int, timeToLive: Duration) {
        self.entries = LRUStore(capacity: max(1, capacity))
        self.timeToLive = timeToLive
    }

    package var count: Int { entries.count }

    /// The value for `key` if present and not expired; an expired entry is removed.
    package mutating func value(for key: Key, now: ContinuousClock.Instant = .now) -> Value? {
        guard let entry = entries.value(for: key) else { return nil }
        guard entry.expires > now else {
            entries.remove(key)
            return nil
        }
        return entry.value
    }

    /// The value for `key` and when it expires, if present and not expired; an expired entry is removed.
    package mutating func entry(
        for key: Key,
        now: ContinuousClock.Instant = .now
    ) -> (value: Value, expires: ContinuousClock.Instant)? {
        guard let entry = entries.value(for: key) else { return nil }
        guard entry.expires > now else {
            entries.remove(key)
            return nil
        }
        return (entry.value, entry.expires)
    }

    /// Stores `value` for `key`, evicting the least recently used entries beyond the capacity.
    package mutating func insert(_ value: Value, for key: Key, now: ContinuousClock.Instant = .now) {
        entries.insert(Entry(value: value, expires: now + timeToLive), for: key, cost: 1)
    }
}
