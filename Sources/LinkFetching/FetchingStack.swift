import WebLinks

/// The fetching layers in their one right order, as one fetcher: what the resolver, the CLI and the server share.
///
/// ```
/// ResolutionScope        per resolution (scope()): each distinct request once, its answer shared, even no-store
///   FailureMemory        a failure that says something about the destination, remembered for a minute
///   CachingFetcher       RFC 9111 shared cache: hits answer here; revalidation; stale-if-error
///     CoalescingFetcher  identical requests in flight sent once
///       PoliteFetcher    per host: slots, rate, Retry-After back-off, metrics of what is sent
///         upstream       LiveFetcher (NetworkPolicy, every hop), or a RecordingFetcher / ReplayingFetcher
/// ```
///
/// Why this order: the cache is outermost, so a hit takes no slot, no rate token and no lock of the layers below,
/// and its misses and revalidations are what gets coalesced (N callers with the same stale entry send one
/// conditional request). Coalescing sits above politeness, so callers who join a request in flight neither wait
/// for a slot of their own nor spend a token: one request sent is counted once. Politeness sits right above the
/// upstream, so it paces and counts exactly what leaves, and its back-off error reaches the cache, which may then
/// answer stale. A failure that gets through the cache (nothing stale to give) is remembered above it, so an unreachable
/// host is not asked by every resolution that meets it. The network policy is innermost, in `LiveFetcher`, so every
/// request and redirect hop is checked.
///
/// ```swift
/// let stack = FetchingStack(upstream: LiveFetcher(policy: .standard), metrics: FetchMetrics(factory: prometheus))
/// let resolutionFetcher = stack.scope()  // one per resolution
/// ```
public struct FetchingStack: LinkFetching {
    /// The HTTP cache, when the stack has one.
    public let cache: HTTPCache?
    /// Where every layer counts.
    public let metrics: FetchMetrics
    /// The clock every layer reads.
    public let clock: FetchClock
    private let top: any LinkFetching
    private let polite: PoliteFetcher?

    /// Builds the stack over `upstream`: an ``HTTPCache`` with `cache` (nil: no cache), coalescing unless
    /// `coalescing` is false, a ``PoliteFetcher`` with `limits` (nil: no limits, for example over a replay), and a
    /// ``FailureMemory`` remembering failures for `failureMemory` (nil: none).
    public init(
        upstream: any LinkFetching,
        cache: HTTPCache.Configuration? = HTTPCache.Configuration(),
        coalescing: Bool = true,
        limits: HostLimits? = HostLimits(),
        failureMemory: Duration? = .seconds(60),
        clock: FetchClock = .system,
        metrics: FetchMetrics = FetchMetrics()
    ) {
        var fetcher = upstream
        polite = limits.map { PoliteFetcher(wrapping: upstream, limits: $0, clock: clock, metrics: metrics) }
        if let polite { fetcher = polite }
        if coalescing { fetcher = CoalescingFetcher(wrapping: fetcher, clock: clock, metrics: metrics) }
        self.cache = cache.map { HTTPCache(configuration: $0, clock: clock, metrics: metrics) }
        if let stored = self.cache { fetcher = CachingFetcher(wrapping: fetcher, cache: stored) }
        if let failureMemory { fetcher = FailureMemory(wrapping: fetcher, timeToLive: failureMemory) }
        self.top = fetcher
        self.clock = clock
        self.metrics = metrics
    }

    /// Fetches through every layer.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        try await top.fetch(request)
    }

    /// A fetcher for one resolution over this stack: identical requests of the resolution are made once.
    public func scope() -> ResolutionScope {
        ResolutionScope(wrapping: self, clock: clock, metrics: metrics)
    }

    /// The requests to the host of `request` holding a slot, and those waiting for one (zero without limits).
    package func load(for request: FetchRequest) -> (active: Int, waiting: Int) {
        polite?.load(for: request) ?? (0, 0)
    }
}
