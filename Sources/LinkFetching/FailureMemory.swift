import Synchronization
import WebLinks

/// Remembers a request's failure for a while and gives it again instead of asking, so a host that cannot be reached
/// (no such host, a refused connection, a refused address) is not asked again by every resolution that meets it, and
/// an answer made from the failure may be kept as long as the failure is (``FetchError/freshness``).
///
/// Only failures that say something about the destination are remembered: not a time-out (the next caller may have
/// more time), a back-off (``PoliteFetcher`` keeps that), an offline run or a missing fixture. HTTP error statuses are
/// responses, which the HTTP cache keeps as the server allows.
public final class FailureMemory: LinkFetching {
    /// The fetcher asked when no failure is remembered.
    public let wrapped: any LinkFetching
    /// How long a failure is remembered.
    public let timeToLive: Duration
    private let failures: Mutex<ExpiringCache<RequestKey, FetchError>>

    /// Remembers up to `capacity` failures of `wrapped` for `timeToLive` each (one minute by default).
    public init(
        wrapping wrapped: any LinkFetching,
        timeToLive: Duration = .seconds(60),
        capacity: Int = 1024
    ) {
        self.wrapped = wrapped
        self.timeToLive = timeToLive
        failures = Mutex(ExpiringCache(capacity: capacity, timeToLive: timeToLive))
    }

    /// The remembered failure of an identical request, with how long it still stands, or the wrapped fetcher's answer.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let key = RequestKey(request)
        let now = ContinuousClock.now
        if var remembered = failures.withLock({ $0.entry(for: key, now: now) }) {
            remembered.value.freshness = max(.zero, remembered.expires - now)
            throw remembered.value
        }
        do {
            return try await wrapped.fetch(request)
        } catch {
            guard Self.isRemembered(error.code) else { throw error }
            var remembered = error
            remembered.freshness = timeToLive
            failures.withLock { $0.insert(remembered, for: key, now: now) }
            throw remembered
        }
    }

    /// Whether a failure with `code` says something about the destination for a while.
    static func isRemembered(_ code: FetchError.Code) -> Bool {
        switch code {
        case .invalidURL, .forbiddenScheme, .forbiddenPort, .blockedAddress, .unresolvableHost, .tooManyRedirects,
            .redirectLoop, .badLocation, .responseTooLarge, .transport, .invalidContent:
            true
        case .timeout, .offline, .notRecorded, .storage, .httpStatus, .backedOff:
            false
        }
    }
}
