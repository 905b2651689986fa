import Foundation
import HTTPTypes
import WebLinks

/// How politely a ``PoliteFetcher`` treats each upstream host (a host name, with its port when not the default), and
/// when it takes one for down (``health``).
///
/// The defaults are a browser's manners: at most 6 requests to one host at a time (what browsers open per host), at
/// most 10 requests per second with bursts of 10, a `Retry-After` honoured for at most an hour, and at most 10 seconds
/// of waiting for a turn when the request sets no time limit of its own.
public struct HostLimits: Sendable, Hashable {
    /// The most requests to one host in progress at once. Default 6.
    public var maxConcurrentRequests: Int
    /// The most requests per second to one host, on average. Default 10.
    public var requestsPerSecond: Double
    /// The most requests sent at once after a quiet time (the token bucket's size). Default 10.
    public var burst: Int
    /// The longest back-off a `Retry-After` can impose; a larger one is cut to this. Default one hour.
    public var maxBackOff: Duration
    /// The longest a request without a time limit of its own waits for its turn (a free slot, a rate token).
    /// Default 10 seconds, the network policy's default time limit.
    public var maxWait: Duration
    /// The most hosts whose state is kept; idle hosts beyond it are forgotten. Default 1024.
    public var maxHosts: Int
    /// When a host is taken for down and how it is probed (``HostHealthLimits``'s defaults).
    public var health: HostHealthLimits

    /// Creates limits; every argument defaults to the documented value.
    public init(
        maxConcurrentRequests: Int = 6,
        requestsPerSecond: Double = 10,
        burst: Int = 10,
        maxBackOff: Duration = .seconds(3600),
        maxWait: Duration = .seconds(10),
        maxHosts: Int = 1024,
        health: HostHealthLimits = HostHealthLimits()
    ) {
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.requestsPerSecond = requestsPerSecond.isFinite && requestsPerSecond > 0 ? requestsPerSecond : 10
        self.burst = max(1, burst)
        self.maxBackOff = max(.zero, maxBackOff)
        self.maxWait = max(.zero, maxWait)
        self.maxHosts = max(1, maxHosts)
        self.health = health
    }

    /// How long `response` asks its host to be left alone: a `429` or `503` with `Retry-After` as seconds or as an
    /// HTTP date (measured from the response's own `Date` when it has one, so clock skew does not matter), at most
    /// ``maxBackOff``; nil for any other response, a missing or unreadable `Retry-After`, or a time already past.
    func backOff(for response: FetchResponse, receivedAt now: Date) -> Duration? {
        guard response.status == 429 || response.status == 503,
            let value = response.headers[.retryAfter]?.trimmingOWS, !value.isEmpty
        else { return nil }
        let seconds: TimeInterval
        if value.utf8.allSatisfy({ (48...57).contains($0) }) {
            seconds = value.utf8.count > 10 ? .infinity : TimeInterval(Int(value) ?? 0)
        } else if let date = HTTPDate.parse(String(value)) {
            let reference = response.headers[.date].flatMap(HTTPDate.parse) ?? now
            seconds = date.timeIntervalSince(reference)
        } else {
            return nil
        }
        guard seconds > 0 else { return nil }
        return min(.clamped(seconds: seconds), maxBackOff)
    }
}
