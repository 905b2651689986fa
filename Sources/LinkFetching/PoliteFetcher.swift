import Foundation
import HTTPTypes
import WebLinks

/// A fetcher that treats every upstream host politely (``HostLimits``) and keeps each host's state: a bounded number
/// of requests in progress and a bounded rate per host, a host that answered `429` or `503` with `Retry-After` left
/// alone until then, and a host that failed in a way that says it is down (``HostHealthLimits``) not asked again
/// until it has been down for a while, then probed by one request at a time.
///
/// Waiting for a slot or a turn never blocks a thread, stops when the caller is cancelled, and ends at the request's
/// time limit (``HostLimits/maxWait`` when it has none) with ``FetchError/Code/timeout``; the time spent waiting is
/// taken off the limit the wrapped fetcher gets. While a host is held, requests to it fail at once without being
/// sent: with ``FetchError/Code/backedOff`` after a `Retry-After`, with ``FetchError/Code/hostDown`` while it is
/// down; the message says until when, and the error's ``FetchError/freshness`` is the time left, so an answer made
/// from it is kept no longer than the failure stands. Every request sent, every response or failure, and every
/// change of a host's state is counted per host (``FetchMetrics``).
///
/// The host is the request's. Redirects are followed above (``RedirectFollower``), one request per hop, so every hop
/// is counted against its own host.
public struct PoliteFetcher: LinkFetching {
    /// The fetcher that sends the requests.
    public let wrapped: any LinkFetching
    /// The limits applied to each host.
    public var limits: HostLimits { hosts.limits }
    private let hosts: HostTable
    private let clock: FetchClock
    private let metrics: FetchMetrics

    /// Creates a polite fetcher over `wrapped`.
    public init(
        wrapping wrapped: any LinkFetching,
        limits: HostLimits = HostLimits(),
        clock: FetchClock = .system,
        metrics: FetchMetrics = FetchMetrics()
    ) {
        self.wrapped = wrapped
        self.hosts = HostTable(limits: limits)
        self.clock = clock
        self.metrics = metrics
    }

    /// Sends `request` when its host's limits allow, or fails fast while the host is backed off or down.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let host = FetchMetrics.host(of: request.url)
        let patience = request.timeout ?? limits.maxWait
        let deadline = clock.now.addingTimeInterval(patience.timeInterval)
        let probe = try admit(host, request)
        // A probe that ends before it is sent says nothing: the next request may probe instead.
        var verdict = HostVerdict.neutral
        defer { if probe && verdict == .neutral { record(.neutral, host, request, probe: true) } }
        try await claimSlot(host, request, until: deadline, patience: patience)
        defer { metrics.inFlight(hosts.releaseSlot(host), host: host) }
        let now = clock.now
        guard let turn = hosts.reserveTurn(host, at: now, latest: deadline) else {
            throw waitedTooLong(request, patience, "for its turn (at most \(limits.requestsPerSecond) per second)")
        }
        do { try await clock.sleep(until: turn) } catch { throw FetchError.cancelled(request.url.text) }
        // The host may have been held meanwhile (other requests failed, or it asked for a pause).
        if !probe, case .refused(let hold) = hosts.admit(host, at: clock.now) { throw refusal(hold, host, request) }
        var sent = request
        if request.timeout != nil {
            sent.timeout = .clamped(seconds: deadline.timeIntervalSince(clock.now))
            guard let left = sent.timeout, left > .zero else { throw FetchError.timeout(request.url.text, patience) }
        }
        // A host that has answered gets what its answers say it needs (a probe, more each time, to tell a host that
        // came back slower from one that is gone); one that has not gets the request's whole time.
        let hostPatience = hosts.patience(of: host, probe: probe)
        if let hostPatience {
            sent.timeout = min(sent.timeout ?? hostPatience, hostPatience)
        }
        if probe { metrics.probed(request.url) }
        metrics.requestSent(to: request.url)
        let sentAt = clock.now
        let response: FetchResponse
        do {
            response = try await wrapped.fetch(sent)
        } catch {
            metrics.failed(error, for: request.url)
            let waited = Duration.clamped(seconds: clock.now.timeIntervalSince(sentAt))
            // A caller that stopped waiting after giving the host a fair time (its time limit came) says the host did
            // not answer in time, as does one that gave it the whole patience its answers taught; one that gave it
            // less says nothing (``HostHealthLimits/minimumWait``).
            let given = hostPatience.flatMap { sent.timeout == $0 ? $0 : nil }  // not cut short by the caller
            verdict = HostVerdict.of(error, waited: waited, patience: given, limits: limits.health)
            guard verdict != .neutral else { throw error }
            var failure = error
            if case .down(let until, _) = record(verdict, host, request, probe: probe) {
                // The failure that took the host down stands as long as the host is not asked again.
                failure.freshness = .clamped(seconds: until.timeIntervalSince(clock.now))
            }
            throw failure
        }
        metrics.received(response.status, from: request.url)
        verdict = HostVerdict.of(response)
        let answerTime = Duration.clamped(seconds: clock.now.timeIntervalSince(sentAt))
        record(verdict, host, request, probe: probe, answeredAfter: answerTime)
        let received = clock.now
        if let pause = limits.backOff(for: response, receivedAt: received) {
            let until = received.addingTimeInterval(pause.timeInterval)
            let reason = "it answered \(response.status) with Retry-After: \(response.headers[.retryAfter] ?? "")"
            hosts.backOff(host, until: until, reason: reason, at: received)
            metrics.backedOff(request.url)
        }
        return response
    }

    /// The requests to the host of `request` holding a slot, and those waiting for one.
    package func load(for request: FetchRequest) -> (active: Int, waiting: Int) {
        hosts.load(of: FetchMetrics.host(of: request.url))
    }

    /// Whether the host of `request` is taken for down now.
    package func isDown(for request: FetchRequest) -> Bool {
        hosts.isDown(FetchMetrics.host(of: request.url))
    }

    /// Whether `request` may go to `host` now: true when it goes as the host's probe; throws when the host is held.
    private func admit(_ host: String, _ request: FetchRequest) throws(FetchError) -> Bool {
        switch hosts.admit(host, at: clock.now) {
        case .send: return false
        case .probe: return true
        case .refused(let hold): throw refusal(hold, host, request)
        }
    }

    /// The error of a request not sent because its host is held, counted.
    private func refusal(_ hold: HostTable.Hold, _ host: String, _ request: FetchRequest) -> FetchError {
        let now = clock.now
        var error: FetchError
        switch hold.kind {
        case .backedOff:
            metrics.refusedWhileBackedOff(request.url)
            error = FetchError(
                .backedOff,
                url: request.url.text,
                message:
                    "'\(request.url)' was not fetched: its host '\(host)' asked to be left alone until \(hold.until.formatted(.iso8601)) (\(hold.reason))."
            )
        case .down:
            metrics.refusedWhileDown(request.url)
            let retry =
                hold.until > now
                ? "it will be tried again at \(hold.until.formatted(.iso8601))" : "it is being tried again"
            error = FetchError(
                .hostDown,
                url: request.url.text,
                message: "'\(request.url)' was not fetched: its host '\(host)' is down (\(hold.reason)); \(retry)."
            )
        }
        // The failure stands as the answer until the host may be asked again.
        let left = Duration.clamped(seconds: hold.until.timeIntervalSince(now))
        error.freshness = left > .zero ? left : nil
        return error
    }

    /// Counts `verdict` against `host`, counts a change of its state in the metrics, and returns the change.
    @discardableResult
    private func record(
        _ verdict: HostVerdict,
        _ host: String,
        _ request: FetchRequest,
        probe: Bool,
        answeredAfter answerTime: Duration? = nil
    ) -> HostTable.Change {
        let change = hosts.record(verdict, for: host, probe: probe, answeredAfter: answerTime, at: clock.now)
        switch change {
        case .none: break
        case .down: metrics.hostDown(request.url, host: host)
        case .up: metrics.hostUp(host: host)
        }
        return change
    }

    private func claimSlot(
        _ host: String,
        _ request: FetchRequest,
        until deadline: Date,
        patience: Duration
    )
        async throws(FetchError)
    {
        switch hosts.claimSlot(host, at: clock.now) {
        case .granted(let active):
            metrics.inFlight(active, host: host)
        case .queued(let waiters, let ticket):
            switch await waiters.wait(ticket, until: deadline, clock: clock) {
            case .value(.slot): return
            case .value(.down):
                // The host went down while this request waited: it is refused now rather than at its turn.
                if case .refused(let hold) = hosts.admit(host, at: clock.now) { throw refusal(hold, host, request) }
                try await claimSlot(host, request, until: deadline, patience: patience)
            case .cancelled: throw FetchError.cancelled(request.url.text)
            case .timedOut:
                throw waitedTooLong(
                    request,
                    patience,
                    "for a free slot (at most \(limits.maxConcurrentRequests) at once)"
                )
            }
        }
    }

    private func waitedTooLong(_ request: FetchRequest, _ patience: Duration, _ what: String) -> FetchError {
        FetchError(
            .timeout,
            url: request.url.text,
            message:
                "Fetching '\(request.url)' would wait longer than its limit of \(patience) \(what) at '\(FetchMetrics.host(of: request.url))'."
        )
    }
}
