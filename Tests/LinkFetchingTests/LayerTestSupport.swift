import Foundation
import HTTPTypes
import LinkFetching
import SwitchyardTestSupport
import Synchronization
import Testing
import WebLinks

/// A manual clock as the fetching layer reads it: dates start at 2027-01-15T08:00:00Z and move only when told.
struct TestTime {
    let manual: ManualClock
    let origin: ManualClock.Instant
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let clock: FetchClock

    init() {
        manual = ManualClock()
        origin = manual.now
        clock = FetchClock(manual, startingAt: start)
    }

    /// The date now.
    var now: Date { start.addingTimeInterval(origin.duration(to: manual.now).timeInterval) }

    /// The date now, as an HTTP date.
    var httpDate: String { HTTPDate.format(now) }

    /// The HTTP date `seconds` from now.
    func httpDate(in seconds: TimeInterval) -> String { HTTPDate.format(now.addingTimeInterval(seconds)) }

    /// Moves the clock forward by `seconds`.
    func advance(_ seconds: Int) { manual.advance(by: .seconds(seconds)) }
}

/// Holds a loopback server's handlers until opened, counting those that arrived and the most at once.
final class Gate: Sendable {
    private struct State {
        var open = false
        var held: [CheckedContinuation<Void, Never>] = []
        var arrived = 0
        var active = 0
        var mostActive = 0
    }

    private let state = Mutex(State())

    /// The handlers that have arrived so far.
    var arrived: Int { state.withLock { $0.arrived } }
    /// The most handlers that were between arriving and leaving at once.
    var mostActive: Int { state.withLock { $0.mostActive } }

    /// Arrives, and waits while the gate is closed.
    func pass() async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state in
                state.arrived += 1
                state.active += 1
                state.mostActive = max(state.mostActive, state.active)
                if state.open { return true }
                state.held.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    /// Leaves (the answer is being sent).
    func leave() { state.withLock { $0.active -= 1 } }

    /// Opens the gate for everyone held and everyone to come.
    func open() {
        let held = state.withLock { state in
            state.open = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}

/// Waits until `condition` holds (polling), recording an issue if it still does not after a generous while: a wait
/// for an event, never a measurement of time.
func eventually(
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    for _ in 0..<20_000 {
        if condition() { return }
        try? await Task.sleep(for: .milliseconds(1))
    }
    Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
}

/// A request for `path` on `server`.
func request(
    _ server: LoopbackHTTPServer,
    _ path: String,
    method: FetchRequest.Method = .get,
    headers: [(String, String)] = [],
    followRedirects: Bool = true,
    timeout: Duration? = nil
) -> FetchRequest {
    var request = FetchRequest(
        url: Link(test: server.url(path)),
        method: method,
        followRedirects: followRedirects,
        timeout: timeout
    )
    for (name, value) in headers {
        if let name = HTTPField.Name(name) { request.headers.append(HTTPField(name: name, value: value)) }
    }
    return request
}

/// The code of the ``FetchError`` a task ended with, or nil when it succeeded.
func failureCode<T>(_ result: Result<T, any Error>) -> FetchError.Code? {
    guard case .failure(let error) = result else { return nil }
    return (error as? FetchError)?.code
}
