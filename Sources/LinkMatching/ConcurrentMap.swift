import Dispatch

extension Array where Element: Sendable {
    /// `map` spread over the machine's cores, results in order. Used at compile time, where each rule's regex
    /// compilation and literal analysis are independent (it halves the v5 manifest's compile time on two cores).
    func concurrentMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        let results = ResultSlots<T>(count: count)
        self.withUnsafeBufferPointer { elements in
            nonisolated(unsafe) let elements = elements
            DispatchQueue.concurrentPerform(iterations: elements.count) { index in
                results.store(transform(elements[index]), at: index)
            }
        }
        return results.values()
    }
}

/// Slots written once each, by index, from concurrent iterations; read only after all of them finished.
///
/// The slots are one buffer allocated up front and written through its pointer. (They were an array written with
/// `withUnsafeMutableBufferPointer` from each iteration: that is a mutating access of the array, which may check its
/// uniqueness and copy it, and so raced with the other iterations' writes: ThreadSanitizer reports the race on a
/// standalone copy, and it is the likely cause of the rare heap corruption that aborted the test process,
/// `malloc(): unsorted double linked list corrupted`.)
private final class ResultSlots<T>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<T?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    func store(_ value: T, at index: Int) {
        // Distinct indexes only: no two iterations touch the same slot.
        precondition(slots.indices.contains(index))
        slots[index] = value
    }

    func values() -> [T] {
        slots.compactMap { $0 }
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }
}
