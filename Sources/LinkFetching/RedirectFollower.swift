import HTTPTypes

/// Unwraps short links: follows HTTP redirects with HEAD, one checked hop at a time, and caches the answer.
///
/// Each hop is a separate `followRedirects: false` request through the fetcher, so a `LiveFetcher` applies
/// its policy (scheme, port, resolved addresses) to every hop. Servers that refuse HEAD (405, 501) are asked
/// again with GET, whose body the fetcher caps. Results are kept for the life of the process in a bounded
/// cache with a time to live, because the same short links recur across many resolutions.
public actor RedirectFollower {
    /// Where a link ends up.
    public struct Resolution: Sendable, Hashable {
        /// Every URL visited, the start first and the final URL last.
        public var chain: [String]
        /// The status of the last answer (not a redirect).
        public var status: Int

        /// The URL the link finally points to.
        public var finalURL: String { chain.last ?? "" }
        /// The redirects taken (the chain without the final URL).
        public var hops: [String] { Array(chain.dropLast()) }
    }

    private let fetcher: any LinkFetching
    private let maxHops: Int
    private let locationRules: NetworkPolicy
    private var cache: ExpiringCache<String, Resolution>
    /// Recent failures (an unreachable host, a refused address), so a server does not retry them on every
    /// request for the same link; kept shorter than answers.
    private var failures: ExpiringCache<String, FetchError>

    /// Creates a follower over `fetcher` with at most `maxHops` redirects per link, caching up to `cacheCapacity`
    /// results for `timeToLive`.
    public init(
        fetcher: any LinkFetching,
        maxHops: Int = 5,
        cacheCapacity: Int = 1024,
        timeToLive: Duration = .seconds(600),
        failureTimeToLive: Duration = .seconds(60)
    ) {
        self.failures = ExpiringCache(capacity: cacheCapacity, timeToLive: failureTimeToLive)
        self.fetcher = fetcher
        self.maxHops = max(0, maxHops)
        // Only the scheme rules matter for Location values here; addresses are the fetcher's business.
        self.locationRules = NetworkPolicy()
        self.cache = ExpiringCache(capacity: cacheCapacity, timeToLive: timeToLive)
    }

    /// Follows `url`'s redirects and returns the chain and the final URL (from the cache when still fresh; a
    /// recent failure is reported again without a request). Every hop must end before `deadline`.
    public func resolve(
        _ url: String,
        deadline: ContinuousClock.Instant = .now + .seconds(30)
    ) async throws(FetchError) -> Resolution {
        if let cached = cache.value(for: url) { return cached }
        if let failure = failures.value(for: url) { throw failure }
        do {
            return try await follow(url, deadline: deadline)
        } catch {
            // Running out of the caller's time says nothing about the link: the next caller may have more.
            if error.code != .timeout { failures.insert(error, for: url) }
            throw error
        }
    }

    private func follow(_ url: String, deadline: ContinuousClock.Instant) async throws(FetchError) -> Resolution {
        var chain = [url]
        var current = url
        while true {
            let timeLeft = deadline - .now
            guard timeLeft > .zero else {
                throw FetchError(
                    .timeout,
                    url: current,
                    message: "The time for unwrapping '\(url)' ran out before '\(current)' was fetched."
                )
            }
            let response = try await hop(current, timeout: timeLeft)
            guard [301, 302, 303, 307, 308].contains(response.status) else {
                let resolution = Resolution(chain: chain, status: response.status)
                cache.insert(resolution, for: url)
                return resolution
            }
            guard chain.count <= maxHops else {
                throw FetchError(
                    .tooManyRedirects,
                    url: current,
                    message: "'\(url)' still redirects after \(maxHops) hops (last: '\(current)')."
                )
            }
            current = try locationRules.resolve(location: response.headers[.location], from: current)
            chain.append(current)
        }
    }

    /// The number of cached results (expired ones included until they are next touched).
    public var cachedCount: Int { cache.count }

    private func hop(_ url: String, timeout: Duration) async throws(FetchError) -> FetchResponse {
        let head = try await fetcher.fetch(
            FetchRequest(url: url, method: .head, followRedirects: false, timeout: timeout)
        )
        guard head.status == 405 || head.status == 501 else { return head }
        return try await fetcher.fetch(FetchRequest(url: url, method: .get, followRedirects: false, timeout: timeout))
    }
}
