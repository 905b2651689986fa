import HTTPTypes
import WebLinks

/// Unwraps short links one hop at a time, as Opener does: each hop is a HEAD request that does not follow the
/// redirect (GET when a server refuses HEAD), so the caller can look at every link on the way and stop as soon as
/// it knows what opens it, without asking the next server.
///
/// Each hop goes through the fetcher, so a `LiveFetcher` applies its policy (scheme, port, resolved addresses) to
/// every one, and a ``FetchingStack``'s HTTP cache keeps what the server allows it to keep (a `301` or `308` by the
/// heuristic, anything with `max-age`): short links that recur across resolutions are asked again only when their
/// answer is stale; and its ``FailureMemory`` keeps a failed hop (an unreachable host, a refused address) for a minute,
/// so a server does not retry it on every request for the same link. The follower itself keeps nothing.
public struct RedirectFollower: Sendable {
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

    private let fetcher: any LinkFetching
    private let policy: NetworkPolicy
    /// The most redirects ``follow(_:deadline:)`` takes.
    public let maxHops: Int

    /// Creates a follower over `fetcher` that takes at most `maxHops` redirects per link.
    public init(fetcher: any LinkFetching, maxHops: Int = 5) {
        self.fetcher = fetcher
        self.maxHops = max(0, maxHops)
        // Only the Location rules matter here; addresses are the fetcher's business.
        self.policy = NetworkPolicy()
    }

    /// Asks `link` once, without following a redirect; the answer must come before `deadline`.
    public func hop(_ link: Link, deadline: ContinuousClock.Instant) async throws(FetchError) -> Hop {
        try await ask(link, deadline: deadline)
    }

    /// Follows `link`'s redirects to the end: stops at the first link seen twice (`redirectLoop`) and after
    /// ``maxHops`` redirects (`tooManyRedirects`).
    public func follow(_ link: Link, deadline: ContinuousClock.Instant) async throws(FetchError) -> Chain {
        var links = [link]
        var visited: Set<Link> = [link]
        while true {
            let answer = try await hop(links[links.count - 1], deadline: deadline)
            guard let next = answer.location else { return Chain(links: links, last: answer) }
            guard !visited.contains(next) else { throw FetchError.redirectLoop(back: next, start: link) }
            guard links.count <= maxHops else {
                throw FetchError(
                    .tooManyRedirects,
                    url: next.text,
                    message: "'\(link)' still redirects after \(maxHops) hops (last: '\(next)')."
                )
            }
            visited.insert(next)
            links.append(next)
        }
    }

    private func ask(_ link: Link, deadline: ContinuousClock.Instant) async throws(FetchError) -> Hop {
        var method = FetchRequest.Method.head
        var response = try await exchange(link, method: method, deadline: deadline)
        if response.status == 405 || response.status == 501 {
            method = .get
            response = try await exchange(link, method: method, deadline: deadline)
        }
        let isRedirect = [301, 302, 303, 307, 308].contains(response.status)
        let location = isRedirect ? try policy.resolve(location: response.headers[.location], from: link) : nil
        return Hop(
            method: method,
            status: response.status,
            location: location,
            headers: response.headers,
            freshness: response.freshness,
            cacheStatus: response.cacheStatus
        )
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
        return try await fetcher.fetch(
            FetchRequest(url: link, method: method, followRedirects: false, timeout: timeLeft)
        )
    }
}

extension FetchError {
    /// A redirect back to a link already visited on the way from `start`.
    package static func redirectLoop(back link: Link, start: Link) -> FetchError {
        FetchError(
            .redirectLoop,
            url: link.text,
            message: "The redirects from '\(start)' lead back to '\(link)', which was already visited: a loop."
        )
    }
}
