/// A map bounded by a total cost, evicting the least recently used entries first: the project's one bounded map, behind
/// the HTTP cache (cost in bytes), LinkFetching's `ExpiringCache` and host-name cache, the script results kept and the
/// request forecasts (cost one per entry), the resolver's canonical request encodings, the politeness layer's hosts
/// and the live fetcher's kept clients (whose entries in use are pinned: ``trim(keeping:)``, ``evictOldest(_:)``). It
/// lives here, at the bottom of the module graph, so that every layer bounds its memory the same way.
///
/// Every operation is O(1): the entries form a doubly linked list threaded through the dictionary by key. Not
/// thread-safe on its own, so it lives inside an actor or a mutex.
package struct LRUStore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node: Sendable {
        var value: Value
        var cost: Int
        var older: Key?
        var newer: Key?
    }

    private var nodes: [Key: Node] = [:]
    private var newest: Key?
    private var oldest: Key?
    /// The most total cost kept.
    package let capacity: Int
    /// The total cost of the entries kept.
    package private(set) var totalCost = 0

    /// A store keeping entries up to `capacity` in total cost.
    package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The number of entries.
    package var count: Int { nodes.count }

    /// The value for `key`, which becomes the most recently used.
    package mutating func value(for key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        // Already the newest (a front end sending one request again and again): one lookup, nothing to move.
        if newest == key { return node.value }
        unlink(key)
        link(key, node)
        return node.value
    }

    /// The value for `key`, without counting as a use.
    package func peek(_ key: Key) -> Value? { nodes[key]?.value }

    /// Stores `value` for `key` as the most recently used, then evicts the least recently used entries until the
    /// total cost fits; returns the keys evicted. An entry costing more than the whole capacity is not kept.
    @discardableResult
    package mutating func insert(_ value: Value, for key: Key, cost: Int) -> [Key] {
        insert(value, for: key, cost: cost) { _ in false }.map(\.key)
    }

    /// Stores `value` for `key` as the most recently used, then evicts the least recently used entries that `pinned`
    /// does not hold until the total cost fits (``trim(keeping:)``); returns the entries evicted, oldest first.
    @discardableResult
    package mutating func insert(
        _ value: Value,
        for key: Key,
        cost: Int,
        keeping pinned: (Value) -> Bool
    ) -> [(key: Key, value: Value)] {
        remove(key)
        guard cost <= capacity else { return [] }
        link(key, Node(value: value, cost: max(0, cost)))
        totalCost += max(0, cost)
        return trim(keeping: pinned)
    }

    /// Removes the entry for `key` and returns its value.
    @discardableResult
    package mutating func remove(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(key)
        totalCost -= node.cost
        return node.value
    }

    /// What ``evictOldest(_:)`` does with an entry.
    package enum Eviction {
        /// Remove it, and look at the next newer one.
        case remove
        /// Keep it (it is pinned: in use), and look at the next newer one.
        case keep
        /// Keep it and every newer entry.
        case stop
    }

    /// Walks the entries from the least recently used on, removing those `step` says to, until it says stop or the
    /// newest was looked at; returns the entries removed, oldest first. A map whose entries expire with time since
    /// their last use stops at the first one still in time.
    @discardableResult
    package mutating func evictOldest(_ step: (Key, Value) -> Eviction) -> [(key: Key, value: Value)] {
        var removed: [(key: Key, value: Value)] = []
        var next = oldest
        while let key = next, let node = nodes[key] {
            next = node.newer
            switch step(key, node.value) {
            case .remove:
                remove(key)
                removed.append((key, node.value))
            case .keep: continue
            case .stop: return removed
            }
        }
        return removed
    }

    /// Evicts the least recently used entries that `pinned` does not hold until the total cost fits the capacity;
    /// returns them, oldest first. Pinned entries stay even when the capacity is exceeded (a host with requests under
    /// way, a client in use), so the capacity bounds what is kept idle.
    @discardableResult
    package mutating func trim(keeping pinned: (Value) -> Bool) -> [(key: Key, value: Value)] {
        var removed: [(key: Key, value: Value)] = []
        var next = oldest
        while totalCost > capacity, let key = next, let node = nodes[key] {
            next = node.newer
            guard !pinned(node.value) else { continue }
            remove(key)
            removed.append((key, node.value))
        }
        return removed
    }

    /// Replaces the value for `key` in place, keeping its place in the order of use and its cost; nothing when there
    /// is no entry for `key`.
    package mutating func update(_ key: Key, _ change: (inout Value) -> Void) {
        guard nodes[key] != nil else { return }
        change(&nodes[key]!.value)
    }

    /// Removes every entry.
    package mutating func removeAll() {
        nodes = [:]
        newest = nil
        oldest = nil
        totalCost = 0
    }

    /// Puts `node` at the newest end.
    private mutating func link(_ key: Key, _ node: Node) {
        var node = node
        node.older = newest
        node.newer = nil
        if let newest { nodes[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        nodes[key] = node
    }

    /// Takes the node of `key` out of the list and the dictionary.
    private mutating func unlink(_ key: Key) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
    }
}
