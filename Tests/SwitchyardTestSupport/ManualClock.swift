import Synchronization

/// A clock that moves only when a test says so: policies timed on an injected clock (cooldowns, windows) are tested
/// without waiting for them.
package final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: the time advanced since it was made.
    package struct Instant: InstantProtocol {
        var offset: Duration

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))

    /// A clock at zero.
    package init() {}

    package var now: Instant { current.withLock { $0 } }
    package var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the clock forward.
    package func advance(by duration: Duration) {
        current.withLock { $0 = $0.advanced(by: duration) }
    }

    /// Returns once the clock has been advanced to `deadline`.
    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}
