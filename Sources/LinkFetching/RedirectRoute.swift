import WebLinks

/// The links a chain of redirects has visited, oldest first: the one place that decides that a next hop is a loop
/// or one hop too many, for the redirect layer (``RedirectFollower``) and for the resolver's unwrapping, which walks
/// a chain one hop at a time.
public struct RedirectRoute: Sendable, Hashable {
    /// Every link visited, the start first and the current one last.
    public private(set) var links: [Link]
    /// The most redirects taken after the start.
    public let maxHops: Int
    private var visited: Set<Link>

    /// A route starting at `start` that takes at most `maxHops` redirects.
    public init(start: Link, maxHops: Int) {
        links = [start]
        visited = [start]
        self.maxHops = max(0, maxHops)
    }

    /// The link the route starts at.
    public var start: Link { links[0] }

    /// The link the route is at now.
    public var current: Link { links[links.count - 1] }

    /// The redirects taken so far.
    public var hops: Int { links.count - 1 }

    /// Takes the redirect from ``current`` to `next`; throws ``FetchError/Code/redirectLoop`` when `next` was visited
    /// already (said at its first repeat, rather than followed until the hop limit) and
    /// ``FetchError/Code/tooManyRedirects`` when the route has taken ``maxHops`` redirects.
    public mutating func advance(to next: Link) throws(FetchError) {
        guard !visited.contains(next) else { throw FetchError.redirectLoop(back: next, start: start) }
        guard hops < maxHops else {
            throw FetchError(
                .tooManyRedirects,
                url: next.text,
                message: "'\(start)' still redirects after \(maxHops) hops (last: '\(current)', next: '\(next)')."
            )
        }
        visited.insert(next)
        links.append(next)
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
