/// A map bounded by a total cost, evicting the least recently used entries first: the project's one bounded map, behind
/// the HTTP cache (cost in bytes), LinkFetching's `ExpiringCache` and host-name cache, the script results kept and the
/// request forecasts (cost one per entry), and the resolver's canonical request encodings. It lives here, at the
/// bottom of the module graph, so that every layer bounds its memory the same way.
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
        remove(key)
        guard cost <= capacity else { return [] }
        link(key, Node(value: value, cost: max(0, cost)))
        totalCost += max(0, cost)
        var evicted: [Key] = []
        while totalCost > capacity, let victim = oldest {
            remove(victim)
            evicted.append(victim)
        }
        return evicted
    }

    /// Removes the entry for `key` and returns its value.
    @discardableResult
    package mutating func remove(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(key)
        totalCost -= node.cost
        return node.value
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
