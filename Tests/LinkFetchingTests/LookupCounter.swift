import Synchronization

/// Counts resolver calls from concurrent code.
final class LookupCounter: Sendable {
    private let value = Mutex(0)

    /// Increments and returns the new count (1 for the first call).
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    /// The number of calls so far.
    var count: Int { value.withLock { $0 } }
}
