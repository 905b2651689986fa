import Foundation
import HTTPTypes
import WebLinks

/// A fetcher that treats every upstream host politely (``HostLimits``): a bounded number of requests in progress and
/// a bounded rate per host, and a host that answered `429` or `503` with `Retry-After` left alone until then.
///
/// Waiting for a slot or a turn never blocks a thread, stops when the caller is cancelled, and ends at the request's
/// time limit (``HostLimits/maxWait`` when it has none) with ``FetchError/Code/timeout``; the time spent waiting is
/// taken off the limit the wrapped fetcher gets. While a host is backed off, requests to it fail at once with
/// ``FetchError/Code/backedOff``, whose message says until when. Every request sent and every response or failure is
/// counted per host (``FetchMetrics``).
///
/// The host is the request's: redirects the wrapped fetcher follows on its own are not counted against their hosts
/// (``RedirectFollower`` asks hop by hop, so its hops are).
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

    /// Sends `request` when its host's limits allow, or fails fast while the host is backed off.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let host = FetchMetrics.host(of: request.url)
        let patience = request.timeout ?? limits.maxWait
        let deadline = clock.now.addingTimeInterval(patience.timeInterval)
        try checkBackOff(host, request)
        try await claimSlot(host, request, until: deadline, patience: patience)
        defer { metrics.inFlight(hosts.releaseSlot(host), host: host) }
        let now = clock.now
        guard let turn = hosts.reserveTurn(host, at: now, latest: deadline) else {
            throw waitedTooLong(request, patience, "for its turn (at most \(limits.requestsPerSecond) per second)")
        }
        do { try await clock.sleep(until: turn) } catch { throw FetchError.cancelled(request.url.text) }
        try checkBackOff(host, request)
        var sent = request
        if request.timeout != nil {
            sent.timeout = .clamped(seconds: deadline.timeIntervalSince(clock.now))
            guard let left = sent.timeout, left > .zero else { throw FetchError.timeout(request.url.text, patience) }
        }
        metrics.requestSent(to: request.url)
        let response: FetchResponse
        do {
            response = try await wrapped.fetch(sent)
        } catch {
            metrics.failed(error, for: request.url)
            throw error
        }
        metrics.received(response.status, from: request.url)
        let received = clock.now
        if let pause = limits.backOff(for: response, receivedAt: received) {
            let until = received.addingTimeInterval(pause.timeInterval)
            let reason = "it answered \(response.status) with Retry-After: \(response.headers[.retryAfter] ?? "")"
            hosts.backOff(host, until: until, reason: reason)
            metrics.backedOff(request.url)
        }
        return response
    }

    /// The requests to the host of `request` holding a slot, and those waiting for one.
    package func load(for request: FetchRequest) -> (active: Int, waiting: Int) {
        hosts.load(of: FetchMetrics.host(of: request.url))
    }

    private func checkBackOff(_ host: String, _ request: FetchRequest) throws(FetchError) {
        guard let backOff = hosts.backOff(of: host, at: clock.now) else { return }
        metrics.refusedWhileBackedOff(request.url)
        throw FetchError(
            .backedOff,
            url: request.url.text,
            message:
                "'\(request.url)' was not fetched: its host '\(host)' asked to be left alone until \(backOff.until.formatted(.iso8601)) (\(backOff.reason))."
        )
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
            case .value: return
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
