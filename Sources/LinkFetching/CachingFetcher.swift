import Foundation
import HTTPTypes
import WebLinks

/// A fetcher that answers from an ``HTTPCache`` when RFC 9111 allows it, and asks the wrapped fetcher otherwise.
///
/// - A fresh stored response answers without a request (``CacheStatus/hit``).
/// - A stale one, or one marked `no-cache`, is revalidated with `If-None-Match` (its `ETag`) and
///   `If-Modified-Since` (its `Last-Modified`); a `304` refreshes its fields and it answers
///   (``CacheStatus/revalidated``). Without validators it is fetched again.
/// - When that fails (the host cannot be reached or does not answer in time, it is backed off or down, or it answers
///   `500`, `502`, `503` or `504`) and stale-if-error allows it, the stored response answers, marked ``CacheStatus/stale``.
/// - Everything else goes to the wrapped fetcher (``CacheStatus/miss``), and what RFC 9111 lets a shared cache keep
///   is kept.
///
/// Every answer says how long it may be reused (``FetchResponse/freshness``). Requests that carry their own
/// conditions (`If-None-Match`, `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`, `If-Range`, `Range`) or
/// `Cache-Control: no-store` pass through untouched and are not kept. A request's `Cache-Control: no-cache`,
/// `max-age=N` and `min-fresh=N` are honoured; its `max-stale` and `only-if-cached` are not supported.
///
/// It sits above the fixtures (``RecordingFetcher``, ``ReplayingFetcher``) and `LiveFetcher`: a replay is cached
/// like the network.
public struct CachingFetcher: LinkFetching {
    /// The fetcher asked when the cache cannot answer.
    public let wrapped: any LinkFetching
    /// Where responses are kept.
    public let cache: HTTPCache

    /// Creates a caching fetcher over `wrapped`, keeping responses in `cache`.
    public init(wrapping wrapped: any LinkFetching, cache: HTTPCache) {
        self.wrapped = wrapped
        self.cache = cache
    }

    private static let conditionalFields: [HTTPField.Name] = [
        .ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange, .range,
    ]

    /// Answers `request` from the cache, by revalidating, or through the wrapped fetcher.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let directives = CacheControl(request.headers)
        if directives.has("no-store") || Self.conditionalFields.contains(where: { request.headers[$0] != nil }) {
            cache.metrics.cache(.miss, for: request.url)
            var response = try await wrapped.fetch(request)
            response.cacheStatus = .miss
            response.freshness = nil
            return response
        }
        guard let stored = cache.lookup(request) else { return try await miss(request) }
        let now = cache.clock.now
        if !directives.has("no-cache"), acceptable(stored, at: now, for: directives) {
            cache.metrics.cache(.hit, for: request.url)
            return stored.answer(to: request, status: .hit, at: now, configuration: cache.configuration)
        }
        return try await revalidate(stored, request)
    }

    /// Whether `stored` is fresh enough at `now` for a request with `directives`.
    private func acceptable(_ stored: StoredResponse, at now: Date, for directives: CacheControl) -> Bool {
        guard !stored.needsRevalidation else { return false }
        let age = stored.age(at: now)
        let remaining = stored.lifetime(cache.configuration) - age
        guard remaining > 0 else { return false }
        if case .valid(let maxAge) = directives.seconds("max-age"), age > TimeInterval(maxAge) { return false }
        if case .valid(let minFresh) = directives.seconds("min-fresh"), remaining < TimeInterval(minFresh) {
            return false
        }
        return true
    }

    /// Asks the wrapped fetcher and keeps what may be kept.
    private func miss(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        cache.metrics.cache(.miss, for: request.url)
        let requestTime = cache.clock.now
        var response = try await wrapped.fetch(request)
        response.cacheStatus = .miss
        response.freshness = keep(response, for: request, requestTime: requestTime)
        return response
    }

    /// Stores `response` when a shared cache may, and returns its freshness (nil when it was not stored).
    private func keep(_ response: FetchResponse, for request: FetchRequest, requestTime: Date) -> Duration? {
        guard response.status != 304,
            StoredResponse.refusal(of: response, to: request, configuration: cache.configuration) == nil
        else { return nil }
        let now = cache.clock.now
        let entry = StoredResponse(request: request, response: response, requestTime: requestTime, responseTime: now)
        guard cache.store(entry) else { return nil }
        return entry.remainingFreshness(at: now, configuration: cache.configuration)
    }

    /// Confirms or replaces `stored` with the server; falls back on it when the server fails and that is allowed.
    private func revalidate(_ stored: StoredResponse, _ request: FetchRequest) async throws(FetchError) -> FetchResponse
    {
        var conditional = request
        let etag = stored.response.headers[.eTag]
        conditional.headers[.ifNoneMatch] = etag
        conditional.headers[.ifModifiedSince] = stored.response.headers[.lastModified]
        let hasValidators = conditional.headers[.ifNoneMatch] != nil || conditional.headers[.ifModifiedSince] != nil
        let requestTime = cache.clock.now
        let response: FetchResponse
        do {
            response = try await wrapped.fetch(conditional)
        } catch {
            guard Self.serverCannotAnswer.contains(error.code),
                let stale = staleAnswer(stored, to: request)
            else { throw error }
            return stale
        }
        if response.status == 304 && hasValidators {
            // A 304 naming another entity tag confirms a response this cache does not have: ask plainly.
            if let confirmed = response.headers[.eTag].flatMap(EntityTag.init(field:)),
                let sent = etag.flatMap(EntityTag.init(field:)), !confirmed.matchesWeakly(sent)
            {
                return try await miss(request)
            }
            let now = cache.clock.now
            let freshened = stored.freshened(with: response, requestTime: requestTime, responseTime: now)
            cache.store(freshened)
            cache.metrics.cache(.revalidated, for: request.url)
            return freshened.answer(to: request, status: .revalidated, at: now, configuration: cache.configuration)
        }
        let serverFailed = [500, 502, 503, 504].contains(response.status)
        if serverFailed, let stale = staleAnswer(stored, to: request) { return stale }
        cache.metrics.cache(.miss, for: request.url)
        var fresh = response
        fresh.cacheStatus = .miss
        fresh.freshness = keep(response, for: request, requestTime: requestTime)
        // A new answer that may not be kept replaces the old one all the same: it must not be served again, not even
        // as a fallback. A failing server has no new answer, so the old one stays for the next attempt.
        if fresh.freshness == nil && !serverFailed { cache.remove(stored) }
        return fresh
    }

    /// The failures after which a stored response may answer in the server's place (stale-if-error): the server could
    /// not be reached, did not answer in time, or is held (backed off or down).
    private static let serverCannotAnswer: Set<FetchError.Code> = [
        .transport, .timeout, .unresolvableHost, .connectionRefused, .connectTimeout, .tlsFailure, .backedOff,
        .hostDown,
    ]

    /// `stored` as a stale answer, when it is within its stale-if-error allowance.
    private func staleAnswer(_ stored: StoredResponse, to request: FetchRequest) -> FetchResponse? {
        let now = cache.clock.now
        let staleness = stored.age(at: now) - stored.lifetime(cache.configuration)
        guard staleness <= stored.staleIfErrorAllowance(cache.configuration) else { return nil }
        cache.metrics.cache(.stale, for: request.url)
        return stored.answer(to: request, status: .stale, at: now, configuration: cache.configuration)
    }
}
