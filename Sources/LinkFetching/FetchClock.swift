import Foundation

/// The time the fetching layer reads and waits on: the HTTP cache's ages, the politeness's rate tokens and back-offs,
/// and the time limits of waiting callers.
///
/// HTTP speaks in dates (`Date`, `Expires`, `Last-Modified`, `Retry-After`), so the clock reads as a `Date`; it is
/// built on a monotonic `Clock` anchored at a date, so a step of the system's wall clock (NTP, a user changing the
/// time) never makes an entry younger or a rate window longer. Tests build one on a manual clock and move it.
public struct FetchClock: Sendable {
    private let read: @Sendable () -> Date
    private let pause: @Sendable (Duration) async throws -> Void

    /// A clock reading `start` now and moving as `clock` moves.
    public init<C: Clock>(_ clock: C, startingAt start: Date = Date()) where C.Duration == Duration {
        let origin = clock.now
        read = { start.addingTimeInterval(origin.duration(to: clock.now).timeInterval) }
        pause = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
    }

    /// The process's clock: `ContinuousClock`, anchored at the wall-clock date when it is first used.
    public static let system = FetchClock(ContinuousClock())

    /// The current date.
    public var now: Date { read() }

    /// Waits for `duration` (returns at once for zero or less); throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return try Task.checkCancellation() }
        try await pause(duration)
    }

    /// Waits until `date`.
    public func sleep(until date: Date) async throws {
        try await sleep(for: .clamped(seconds: date.timeIntervalSince(now)))
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    package var timeInterval: TimeInterval { self / .seconds(1) }

    /// A duration of `interval` seconds, clamped to ±100 years so a hostile value cannot overflow.
    package static func clamped(seconds interval: TimeInterval) -> Duration {
        guard interval.isFinite else { return interval < 0 ? .zero : .seconds(3_153_600_000) }
        return .seconds(min(max(interval, -3_153_600_000), 3_153_600_000))
    }
}
