import Foundation
import Synchronization
import WebLinks

/// Requests in flight, joined by identical ones (``RequestKey``): the one coalescing engine behind
/// ``CoalescingFetcher`` (which forgets a flight once it lands) and ``ResolutionScope`` (which keeps what landed).
///
/// A flight runs in a task of its own, so the caller that started it can be cancelled, or stop waiting at its time
/// limit, without failing the others; the flight is cancelled only when no caller waits for it any more. Its
/// outcome, an error included, goes to every caller waiting at that moment.
package final class Flights: Sendable {
    private typealias Outcome = Result<FetchResponse, FetchError>

    private struct Flight {
        var id: Int
        var waiters: Waiters<Outcome>
        /// When the time limit of the caller that started it ends (nil: no limit of its own).
        var deadline: Date?
        var task: Task<Void, Never>?
    }

    private struct State {
        var nextID = 0
        var flying: [RequestKey: Flight] = [:]
        var landed: [RequestKey: Outcome] = [:]
    }

    private let state = Mutex(State())
    /// Whether outcomes are kept after landing (a resolution's scope) or forgotten (coalescing only).
    private let keepsOutcomes: Bool
    private let clock: FetchClock
    private let metrics: FetchMetrics

    package init(keepsOutcomes: Bool, clock: FetchClock, metrics: FetchMetrics) {
        self.keepsOutcomes = keepsOutcomes
        self.clock = clock
        self.metrics = metrics
    }

    /// The number of callers waiting for the flight of `request` (zero when none flies).
    package func waiting(for request: FetchRequest) -> Int {
        state.withLock { $0.flying[RequestKey(request)]?.waiters.count ?? 0 }
    }

    /// The outcome kept for a request identical to `request` (a scope's; nil when none landed, or nothing is kept).
    package func landed(_ request: FetchRequest) -> Result<FetchResponse, FetchError>? {
        state.withLock { $0.landed[RequestKey(request)] }
    }

    /// Answers `request` from a landed outcome, by joining its flight, or by starting one through `fetcher`.
    package func fetch(
        _ request: FetchRequest,
        through fetcher: any LinkFetching
    ) async throws(FetchError) -> FetchResponse {
        try await fetch(request, through: fetcher, mayRetry: true)
    }

    private func fetch(
        _ request: FetchRequest,
        through fetcher: any LinkFetching,
        mayRetry: Bool
    ) async throws(FetchError) -> FetchResponse {
        let key = RequestKey(request)
        let deadline = request.timeout.map { clock.now.addingTimeInterval($0.timeInterval) }
        enum Step {
            case landed(Outcome)
            case join(Flight, Waiters<Outcome>.Ticket, starts: Bool)
        }
        let step = state.withLock { state -> Step in
            if let outcome = state.landed[key] { return .landed(outcome) }
            if let flight = state.flying[key] { return .join(flight, flight.waiters.enqueue(), starts: false) }
            let flight = Flight(id: state.nextID, waiters: Waiters(), deadline: deadline)
            state.nextID += 1
            state.flying[key] = flight
            return .join(flight, flight.waiters.enqueue(), starts: true)
        }
        switch step {
        case .landed(let outcome):
            metrics.coalesced(request.url)
            return try outcome.get()
        case .join(let flight, let ticket, let starts):
            if starts {
                start(flight.id, key: key, request: request, through: fetcher)
            } else {
                metrics.coalesced(request.url)
            }
            switch await flight.waiters.wait(ticket, until: deadline, clock: clock) {
            case .value(.failure(let error)) where mayRetry && !starts && error.code == .timeout:
                // The flight ran out of the time of the caller that started it; a caller with more asks again.
                guard let ended = flight.deadline, deadline.map({ $0 > ended }) ?? true else { throw error }
                var again = request
                again.timeout = deadline.map { .clamped(seconds: $0.timeIntervalSince(clock.now)) }
                return try await fetch(again, through: fetcher, mayRetry: false)
            case .value(let outcome):
                return try outcome.get()
            case .cancelled:
                leave(flight.id, key: key)
                throw FetchError.cancelled(request.url.text)
            case .timedOut:
                leave(flight.id, key: key)
                throw FetchError.timeout(request.url.text, request.timeout ?? .zero)
            }
        }
    }

    private func start(_ id: Int, key: RequestKey, request: FetchRequest, through fetcher: any LinkFetching) {
        let task = Task { [self] in
            let outcome: Outcome
            do throws(FetchError) { outcome = .success(try await fetcher.fetch(request)) } catch {
                outcome = .failure(error)
            }
            land(id, key: key, outcome: outcome)
        }
        // Every caller may have left before the task was noted (or it landed already): then nobody waits for it.
        let abandoned = state.withLock { state in
            guard state.flying[key]?.id == id else { return true }
            state.flying[key]?.task = task
            return false
        }
        if abandoned { task.cancel() }
    }

    /// Hands the outcome of flight `id` to its callers, and keeps it when this is a scope.
    private func land(_ id: Int, key: RequestKey, outcome: Outcome) {
        let waiters = state.withLock { state -> Waiters<Outcome>? in
            guard let flight = state.flying[key], flight.id == id else { return nil }  // abandoned meanwhile
            state.flying[key] = nil
            if keepsOutcomes { state.landed[key] = outcome }
            return flight.waiters
        }
        waiters?.handOffAll(outcome)
    }

    /// A caller of flight `id` stopped waiting: when it was the last, the flight is abandoned and cancelled.
    private func leave(_ id: Int, key: RequestKey) {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard let flight = state.flying[key], flight.id == id, flight.waiters.count == 0 else { return nil }
            state.flying[key] = nil
            return flight.task
        }
        task?.cancel()
    }
}
