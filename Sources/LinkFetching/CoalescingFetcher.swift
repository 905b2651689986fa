import WebLinks

/// A fetcher that sends an identical request only once while it is in flight: concurrent callers asking the same
/// thing (method, URL, redirect mode and request headers: ``FetchRequest`` minus its time limit) join the request
/// already sent and get its answer, or its error.
///
/// Nothing is kept once the answer lands (that is the ``CachingFetcher``'s job, above it in a ``FetchingStack``).
/// A caller that is cancelled or reaches its own time limit stops waiting without disturbing the others; the
/// request itself is cancelled only when nobody waits for it any more. The request is sent with the time limit of the
/// caller that started it; when it runs out of that time, a joiner with a later limit asks again (once).
public struct CoalescingFetcher: LinkFetching {
    /// The fetcher that sends the requests.
    public let wrapped: any LinkFetching
    private let flights: Flights

    /// Creates a coalescing fetcher over `wrapped`; `clock` times the callers' limits, `metrics` counts joiners.
    public init(wrapping wrapped: any LinkFetching, clock: FetchClock = .system, metrics: FetchMetrics = FetchMetrics())
    {
        self.wrapped = wrapped
        self.flights = Flights(keepsOutcomes: false, clock: clock, metrics: metrics)
    }

    /// Joins an identical request in flight, or sends `request`.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        try await flights.fetch(request, through: wrapped)
    }

    /// The number of callers waiting for the request in flight identical to `request`.
    package func waiting(for request: FetchRequest) -> Int { flights.waiting(for: request) }
}
