import HTTPTypes
import LinkWrappers
import WebLinks

/// The one redirect layer: it follows redirects by sending every hop through the fetching stack below it again, so
/// each hop is checked by the network policy, answered by the HTTP cache when it may be, coalesced with identical
/// requests in flight, paced by its own host's limits and counted against that host's state, like any request.
///
/// It sits at the top of a ``FetchingStack``. A request that follows redirects (``FetchRequest/followRedirects``) is
/// sent as single hops that do not (the layers below, and `LiveFetcher`, make exactly one exchange per request): on a
/// `301`, `302`, `303`, `307` or `308` its `Location` is resolved against the hop with the one link parser, the
/// ``RedirectRoute`` refuses a loop and hops beyond ``maxHops``, credentials meant for one host (`Authorization`,
/// `Cookie`) are dropped when the next hop goes to another, and a `303` is asked with GET. The answer says every link
/// on the way (``FetchResponse/redirects``) and may be reused for the shortest freshness of its hops.
///
/// The resolver's unwrapping asks one hop at a time instead (``hop(_:deadline:pages:)``), as Opener unwraps short
/// links: a HEAD that does not follow the redirect (GET when a server refuses HEAD), so that it can look at every
/// link on the way and stop as soon as it knows what opens it, without asking the next server. Such a hop also takes
/// the redirects a page makes itself, as a browser does (the HTML Standard's declarative refresh,
/// `../shared/spec/client-redirects.md`): a `Refresh` header, which comes with the HEAD's answer, and, when the
/// caller has the page read (``PageReading``: a GET of a bounded prefix, for bounce hosts or when a request asks), the
/// first `<meta http-equiv="refresh">` of an HTML answer; each only when it goes to another link within the delay
/// allowed. Such a hop is a redirect like a 3xx (``Hop/kind``), with the same hop limit, loop check, policy and
/// deadline.
public struct RedirectFollower: LinkFetching {
    /// How the redirects a page makes itself are taken.
    public struct PageReading: Sendable, Hashable {
        /// Whether the page is read (a GET of its first ``maximumBytes``) for a `<meta http-equiv="refresh">`; a
        /// `Refresh` header is taken either way.
        public var readsPage: Bool
        /// The longest delay of a refresh that is followed, in seconds: a page that waits longer is a page that
        /// refreshes itself, not a bounce. Default 5.
        public var maximumDelay: Int
        /// How much of a page is read. Default 64 KiB (LinkWrappers' `MetaRefreshScanner.maximumBytes`).
        public var maximumBytes: Int

        /// Creates the settings; by default no page is read, and a `Refresh` header within 5 s is followed.
        public init(
            readsPage: Bool = false,
            maximumDelay: Int = 5,
            maximumBytes: Int = MetaRefreshScanner.maximumBytes
        ) {
            self.readsPage = readsPage
            self.maximumDelay = max(0, maximumDelay)
            self.maximumBytes = max(1, maximumBytes)
        }
    }

    /// What one link answered.
    public struct Hop: Sendable, Hashable {
        /// How an answer redirects.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// A `301`, `302`, `303`, `307` or `308` with its `Location`.
            case http
            /// A `Refresh` header.
            case refreshHeader = "refresh-header"
            /// The first `<meta http-equiv="refresh">` of the page.
            case metaRefresh = "meta-refresh"
        }

        /// The method that got the answer: HEAD, or GET when the server refused HEAD.
        public var method: FetchRequest.Method
        /// The HTTP status.
        public var status: Int
        /// Where a redirect points (nil when the answer is not a redirect).
        public var location: Link?
        /// The answer's headers, in server order (what `headers` rules match).
        public var headers: HTTPFields
        /// How long the answer may still be reused (``FetchResponse/freshness``; nil: not at all).
        public var freshness: Duration? = nil
        /// What the HTTP cache did for it (nil: there is none).
        public var cacheStatus: CacheStatus? = nil
        /// How it redirects (nil: it does not).
        public var kind: Kind? = nil
        /// The delay of a refresh that redirects, in seconds.
        public var refreshDelay: Int? = nil

        /// Whether the answer is a redirect to ``location``.
        public var isRedirect: Bool { location != nil }
    }

    /// Where a link ends up (``follow(_:deadline:pages:)``).
    public struct Chain: Sendable, Hashable {
        /// Every link visited, the start first and the final one last.
        public var links: [Link]
        /// The final answer.
        public var last: Hop

        /// The link the chain ends at.
        public var final: Link { links[links.count - 1] }
    }

    /// The stack below, which every hop goes through.
    public let wrapped: any LinkFetching
    /// The most redirects one request or chain takes.
    public let maxHops: Int

    /// Creates the redirect layer over `wrapped`, taking at most `maxHops` redirects per request.
    public init(wrapping wrapped: any LinkFetching, maxHops: Int = 5) {
        self.wrapped = wrapped
        self.maxHops = max(0, maxHops)
    }

    /// Sends `request` below as it is when it does not follow redirects; otherwise hop by hop, each hop through the
    /// stack below.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        guard request.followRedirects else { return try await wrapped.fetch(request) }
        let deadline = request.timeout.map { ContinuousClock.now + $0 }
        var route = RedirectRoute(start: request.url, maxHops: maxHops)
        var hop = request
        hop.followRedirects = false
        var freshness = Freshness()
        while true {
            if let deadline {
                hop.timeout = deadline - .now
                guard let left = hop.timeout, left > .zero else {
                    throw FetchError.timeout(hop.url.text, request.timeout ?? .zero)
                }
            }
            var response = try await wrapped.fetch(hop)
            freshness.add(response.freshness)
            guard Self.isRedirect(response.status) else {
                response.redirects = Array(route.links.dropLast())
                response.freshness = freshness.value
                return response
            }
            let next = try Self.location(response.headers[.location], from: hop.url)
            try route.advance(to: next)
            if next.hostName != hop.url.hostName || next.effectivePort != hop.url.effectivePort {
                // Credentials meant for one host must not follow a redirect to another.
                hop.headers[.authorization] = nil
                hop.headers[.cookie] = nil
            }
            if response.status == 303 && hop.method != .head { hop.method = .get }
            hop.url = next
        }
    }

    /// Asks `link` once, without following a redirect; the answer must come before `deadline`. A HEAD (GET when the
    /// server refuses HEAD), or a GET of the page's start when `pages` has it read; a 3xx, a `Refresh` header or
    /// (read) a meta refresh to another link within `pages`' delay is a redirect.
    public func hop(
        _ link: Link,
        deadline: ContinuousClock.Instant,
        pages: PageReading = PageReading()
    ) async throws(FetchError) -> Hop {
        var method = pages.readsPage ? FetchRequest.Method.get : .head
        let prefix = pages.readsPage ? pages.maximumBytes : nil
        var response = try await exchange(link, method: method, prefix: prefix, deadline: deadline)
        if method == .head && (response.status == 405 || response.status == 501) {
            method = .get
            response = try await exchange(link, method: method, prefix: nil, deadline: deadline)
        }
        var hop = Hop(
            method: method,
            status: response.status,
            location: nil,
            headers: response.headers,
            freshness: response.freshness,
            cacheStatus: response.cacheStatus
        )
        if Self.isRedirect(response.status) {
            hop.location = try Self.location(response.headers[.location], from: link)
            hop.kind = .http
        } else if let refresh = Self.refresh(of: response, page: link, readsPage: pages.readsPage),
            let next = refresh.refresh.redirect(from: link, maximumDelay: pages.maximumDelay)
        {
            hop.location = next
            hop.kind = refresh.kind
            hop.refreshDelay = refresh.refresh.delay
        }
        return hop
    }

    /// The refresh an answer makes: its `Refresh` header's (seen before any element), else, when the page was read and
    /// is HTML, its first meta refresh.
    private static func refresh(
        of response: FetchResponse,
        page: Link,
        readsPage: Bool
    ) -> (refresh: Refresh, kind: Hop.Kind)? {
        if let header = response.headers[Self.refreshField],
            let refresh = Refresh.parse(headerValue: Array(header.utf8), page: page)
        {
            return (refresh, .refreshHeader)
        }
        guard readsPage, (200..<300).contains(response.status) else { return nil }
        let type = (response.headers[.contentType] ?? "").split(separator: ";").first.map {
            $0.trimmingOWS.lowercased()
        }
        guard type == "text/html" || type == "application/xhtml+xml" else { return nil }
        return MetaRefreshScanner.firstRefresh(in: response.body, page: page).map { ($0, .metaRefresh) }
    }

    /// The `Refresh` field (not one of HTTPTypes' registered names).
    private static let refreshField = HTTPField.Name("Refresh")!

    /// Follows `link`'s redirects to the end, one ``hop(_:deadline:pages:)`` at a time: stops at the first link seen
    /// twice (`redirectLoop`) and after ``maxHops`` redirects (`tooManyRedirects`).
    public func follow(
        _ link: Link,
        deadline: ContinuousClock.Instant,
        pages: PageReading = PageReading()
    ) async throws(FetchError) -> Chain {
        var route = RedirectRoute(start: link, maxHops: maxHops)
        while true {
            let answer = try await hop(route.current, deadline: deadline, pages: pages)
            guard let next = answer.location else { return Chain(links: route.links, last: answer) }
            try route.advance(to: next)
        }
    }

    /// Whether `status` is a redirect this layer follows.
    static func isRedirect(_ status: Int) -> Bool { [301, 302, 303, 307, 308].contains(status) }

    /// Resolves a redirect's `Location` against the link that sent it, with the one link parser: relative and
    /// scheme-relative values (`/x`, `../y`, `//other.example/x`) are resolved first; control characters (header
    /// injection), other schemes, and every text the parser refuses are refused here, so a host change is judged by
    /// the same rules on the next hop.
    package static func location(_ raw: String?, from current: Link) throws(FetchError) -> Link {
        guard let raw, !raw.trimmingOWS.isEmpty else {
            throw FetchError(
                .badLocation,
                url: current.text,
                message: "The redirect from '\(current.text)' has no Location."
            )
        }
        do {
            return try Link(resolving: raw, against: current)
        } catch {
            throw FetchError(
                error.code == .notWebLink ? .forbiddenScheme : .badLocation,
                url: current.text,
                message:
                    "The redirect from '\(current.text)' has the Location \(raw.debugDescription), which is refused: \(error.message)."
            )
        }
    }

    private func exchange(
        _ link: Link,
        method: FetchRequest.Method,
        prefix: Int?,
        deadline: ContinuousClock.Instant
    ) async throws(FetchError) -> FetchResponse {
        let timeLeft = deadline - .now
        guard timeLeft > .zero else {
            throw FetchError(.timeout, url: link.text, message: "The time for '\(link)' ran out before it was asked.")
        }
        return try await wrapped.fetch(
            FetchRequest(url: link, method: method, followRedirects: false, timeout: timeLeft, bodyPrefix: prefix)
        )
    }
}

/// How long an answer made from several responses may be reused: the shortest of their freshnesses, and not at all
/// once one of them may not be reused.
struct Freshness {
    private var shortest: Duration?
    private var reusable = true

    /// Adds one response's freshness (nil or zero: not reusable).
    mutating func add(_ freshness: Duration?) {
        guard let freshness, freshness > .zero else {
            reusable = false
            return
        }
        shortest = min(shortest ?? freshness, freshness)
    }

    /// The combined freshness: nil when one response may not be reused.
    var value: Duration? { reusable ? shortest : nil }
}
