import WebLinks

/// The fetching layers in their one right order, as one fetcher: what the resolver, the CLI and the server share.
///
/// ```
/// ResolutionScope        per resolution (scope()): each distinct request once, its answer shared, even no-store
///   RedirectFollower     the one redirect layer: every hop sent through the layers below again
///     CachingFetcher     RFC 9111 shared cache (memory, and a folder for requests that persist): hits answer here;
///                        revalidation; stale-if-error
///       CoalescingFetcher  identical requests in flight sent once
///         PoliteFetcher  per host: slots, rate, Retry-After back-off, down hosts and their probes, metrics
///           upstream     LiveFetcher (NetworkPolicy, one exchange per request; resolver cache), or a
///                        RecordingFetcher / ReplayingFetcher
/// ```
///
/// Why this order: redirects are followed on top, so each hop is a request like any other, cached, coalesced, paced
/// and counted against its own host. The cache is next, so a hit takes no slot, no rate token and no lock of the
/// layers below, and its misses and revalidations are what gets coalesced (N callers with the same stale entry send
/// one conditional request). Coalescing sits above politeness, so callers who join a request in flight neither wait
/// for a slot of their own nor spend a token: one request sent is counted once. Politeness sits right above the
/// upstream, so it paces and counts exactly what leaves, and it keeps each host's state: a host that asked for a
/// pause, or failed in a way that says it is down, is not asked until then, and every request to it fails at once
/// (the cache may then answer stale). That state is kept per host, not per request, so links that never repeat
/// benefit from it too. The network policy is innermost, in `LiveFetcher`, so every request, every hop included,
/// is checked.
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
    /// The redirect layer on top, for callers that walk a chain one hop at a time (the resolver's unwrapping).
    public let follower: RedirectFollower
    private let polite: PoliteFetcher?

    /// Builds the stack over `upstream`: an ``HTTPCache`` with `cache` (nil: no cache), coalescing unless
    /// `coalescing` is false, a ``PoliteFetcher`` with `limits` (nil: no limits and no host state, for example over a
    /// replay), and the redirect layer taking at most `maxRedirects` per request.
    public init(
        upstream: any LinkFetching,
        cache: HTTPCache.Configuration? = HTTPCache.Configuration(),
        coalescing: Bool = true,
        limits: HostLimits? = HostLimits(),
        maxRedirects: Int = 5,
        clock: FetchClock = .system,
        metrics: FetchMetrics = FetchMetrics()
    ) {
        var fetcher = upstream
        polite = limits.map { PoliteFetcher(wrapping: upstream, limits: $0, clock: clock, metrics: metrics) }
        if let polite { fetcher = polite }
        if coalescing { fetcher = CoalescingFetcher(wrapping: fetcher, clock: clock, metrics: metrics) }
        self.cache = cache.map { HTTPCache(configuration: $0, clock: clock, metrics: metrics) }
        if let stored = self.cache { fetcher = CachingFetcher(wrapping: fetcher, cache: stored) }
        self.follower = RedirectFollower(wrapping: fetcher, maxHops: maxRedirects)
        self.clock = clock
        self.metrics = metrics
    }

    /// Fetches through every layer.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        try await follower.fetch(request)
    }

    /// A fetcher for one resolution over this stack: identical requests of the resolution are made once.
    public func scope() -> ResolutionScope {
        ResolutionScope(wrapping: self, clock: clock, metrics: metrics)
    }

    /// The requests to the host of `request` holding a slot, and those waiting for one (zero without limits).
    package func load(for request: FetchRequest) -> (active: Int, waiting: Int) {
        polite?.load(for: request) ?? (0, 0)
    }

    /// Whether the host of `request` is taken for down now (false without limits).
    package func isDown(for request: FetchRequest) -> Bool {
        polite?.isDown(for: request) ?? false
    }
}
