import Foundation
import HTTPTypes
import WebLinks

/// One protocol for every HTTP request Switchyard makes: scripts' `httpRequest`, short-link unwrapping,
/// `headers` lookups, manifest and catalog downloads.
///
/// Implementations: `LiveFetcher` in LinkFetchingHTTP (the network, behind a ``NetworkPolicy``),
/// ``RecordingFetcher`` and ``ReplayingFetcher`` (fixtures on disk), ``OfflineFetcher`` (refuses everything). Tests
/// run against loopback servers or fixtures, so nothing in the project needs the internet.
public protocol LinkFetching: Sendable {
    /// Performs `request` and returns the final response (after any redirects the request allows).
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse
}

/// A request for ``LinkFetching``.
public struct FetchRequest: Sendable, Hashable {
    /// The HTTP methods Switchyard uses.
    public enum Method: String, Sendable, Hashable, Codable {
        /// GET: the status, headers and body.
        case get = "GET"
        /// HEAD: the status and headers only (short-link unwrapping, `headers` lookups).
        case head = "HEAD"
    }

    /// The link to fetch: parsed once by the one parser matching uses too (the wire gets its `requestText`).
    public var url: Link
    /// GET or HEAD.
    public var method: Method
    /// Extra request headers (for example `If-None-Match`).
    public var headers: HTTPFields
    /// Whether redirects are followed (each hop is checked by the policy); `false` returns the 3xx itself.
    public var followRedirects: Bool
    /// A time limit for the whole request, overriding the policy's when shorter.
    public var timeout: Duration?
    /// The most body bytes this request reads (after decompression), overriding the policy's
    /// (``NetworkPolicy/maxBodyBytes``) when smaller: a larger body fails with ``FetchError/Code/responseTooLarge``
    /// without being read to the end (a domain's claims file is at most 128 KiB). Nil: the policy's.
    public var maximumBodyBytes: Int?
    /// How long an HTTP cache on the way (``CachingFetcher``) may keep the answer when the server says nothing about
    /// its freshness (no `Cache-Control` lifetime, no `Expires`, no `Last-Modified`), whatever its status, as nginx's
    /// `proxy_cache_valid` does for a location. What the server does say (`no-store`, `private`, `no-cache`,
    /// `max-age`) still decides. Nil: only what RFC 9111 lets a shared cache infer.
    public var fallbackFreshness: Duration?
    /// When set, only the first this many body bytes are read (after decompression) and the rest is not asked for: the
    /// answer's body is that prefix, and ``FetchResponse/isTruncated`` says when there was more. For a page whose
    /// start is all a caller reads (a bounce page's refresh); a truncated answer is never kept by a cache. Nil: the
    /// whole body.
    public var bodyPrefix: Int?

    /// Creates a request.
    public init(
        url: Link,
        method: Method = .get,
        headers: HTTPFields = [:],
        followRedirects: Bool = true,
        timeout: Duration? = nil,
        maximumBodyBytes: Int? = nil,
        fallbackFreshness: Duration? = nil,
        bodyPrefix: Int? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.followRedirects = followRedirects
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes.map { max(0, $0) }
        self.fallbackFreshness = fallbackFreshness.map { max(.zero, $0) }
        self.bodyPrefix = bodyPrefix.map { max(0, $0) }
    }
}

/// A response from ``LinkFetching``.
public struct FetchResponse: Sendable, Hashable {
    /// The link that answered (the last hop when redirects were followed).
    public var url: Link
    /// The HTTP status code.
    public var status: Int
    /// The response headers, in server order and with the names as sent.
    public var headers: HTTPFields
    /// The (decoded) body; empty for HEAD.
    public var body: [UInt8]
    /// The links visited before `url`, oldest first; empty when there was no redirect.
    public var redirects: [Link]
    /// What an HTTP cache on the way did (``CachingFetcher``); nil when no cache answered or stored it.
    public var cacheStatus: CacheStatus? = nil
    /// How much longer this answer may be reused without asking the server again: nil or zero when it must not be
    /// reused (uncacheable, `no-cache`, stale, or no cache on the way). An answer made from several responses may be
    /// reused for the shortest of their freshnesses, and not at all when one of them has none.
    public var freshness: Duration? = nil
    /// Whether the body is only the prefix the request asked for (``FetchRequest/bodyPrefix``) and there was more.
    public var isTruncated = false

    /// Creates a response that no cache has seen (``cacheStatus`` and ``freshness`` nil).
    public init(url: Link, status: Int, headers: HTTPFields = [:], body: [UInt8] = [], redirects: [Link] = []) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.redirects = redirects
    }

    /// Whether this answer may be reused for a while (``freshness`` is more than zero).
    public var isReusable: Bool { (freshness ?? .zero) > .zero }

    /// The body as text (UTF-8, invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
}
