import WebLinks

/// The fetcher of one resolution: each distinct request (as ``CoalescingFetcher`` tells them apart) is made once,
/// and every later or concurrent identical request of the same resolution gets the same answer, even one that no
/// cache may keep (`no-store`), and even an error.
///
/// Make one per resolution over the shared stack (``FetchingStack/scope()``) and drop it with the resolution: a
/// script stopped to wait for a response and run again finds the response at hand, and eight scripts asking for the
/// same URL cause one request. The answers live as long as the scope, so it must not outlive its resolution.
///
/// It is also where a resolution learns what its answers were (``answer(to:)``): how long each may be reused
/// (``FetchResponse/freshness``, ``FetchError/freshness``) and whether it was a stale copy, so that what the resolution
/// made of them is kept no longer.
public struct ResolutionScope: LinkFetching {
    /// The fetcher asked for each distinct request.
    public let wrapped: any LinkFetching
    private let flights: Flights

    /// Creates a scope over `wrapped`; `clock` times the callers' limits, `metrics` counts the requests shared.
    public init(wrapping wrapped: any LinkFetching, clock: FetchClock = .system, metrics: FetchMetrics = FetchMetrics())
    {
        self.wrapped = wrapped
        self.flights = Flights(keepsOutcomes: true, clock: clock, metrics: metrics)
    }

    /// The answer this scope gave a request identical to `request`, an error included; nil when it was not asked (or
    /// has not answered yet).
    public func answer(to request: FetchRequest) -> Result<FetchResponse, FetchError>? {
        flights.landed(request)
    }

    /// The answer already given to an identical request of this scope, or a new one.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        try await flights.fetch(request, through: wrapped)
    }
}
