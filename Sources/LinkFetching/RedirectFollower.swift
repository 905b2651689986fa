import HTTPTypes
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
/// The resolver's unwrapping asks one hop at a time instead (``hop(_:deadline:)``), as Opener unwraps short links: a
/// HEAD that does not follow the redirect (GET when a server refuses HEAD), so that it can look at every link on the
/// way and stop as soon as it knows what opens it, without asking the next server.
public struct RedirectFollower: LinkFetching {
    /// What one link answered.
    public struct Hop: Sendable, Hashable {
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

        /// Whether the answer is a redirect to ``location``.
        public var isRedirect: Bool { location != nil }
    }

    /// Where a link ends up (``follow(_:deadline:)``).
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

    /// Asks `link` once, without following a redirect; the answer must come before `deadline`.
    public func hop(_ link: Link, deadline: ContinuousClock.Instant) async throws(FetchError) -> Hop {
        var method = FetchRequest.Method.head
        var response = try await exchange(link, method: method, deadline: deadline)
        if response.status == 405 || response.status == 501 {
            method = .get
            response = try await exchange(link, method: method, deadline: deadline)
        }
        let location =
            Self.isRedirect(response.status) ? try Self.location(response.headers[.location], from: link) : nil
        return Hop(
            method: method,
            status: response.status,
            location: location,
            headers: response.headers,
            freshness: response.freshness,
            cacheStatus: response.cacheStatus
        )
    }

    /// Follows `link`'s redirects to the end, one ``hop(_:deadline:)`` at a time: stops at the first link seen twice
    /// (`redirectLoop`) and after ``maxHops`` redirects (`tooManyRedirects`).
    public func follow(_ link: Link, deadline: ContinuousClock.Instant) async throws(FetchError) -> Chain {
        var route = RedirectRoute(start: link, maxHops: maxHops)
        while true {
            let answer = try await hop(route.current, deadline: deadline)
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
        deadline: ContinuousClock.Instant
    ) async throws(FetchError) -> FetchResponse {
        let timeLeft = deadline - .now
        guard timeLeft > .zero else {
            throw FetchError(.timeout, url: link.text, message: "The time for '\(link)' ran out before it was asked.")
        }
        return try await wrapped.fetch(
            FetchRequest(url: link, method: method, followRedirects: false, timeout: timeLeft)
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
