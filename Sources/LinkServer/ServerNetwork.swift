import LinkCleaning
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkScripts

/// The network side of a server: one fetcher with the safety policy, one script engine, one short-link cache,
/// shared by every generation of rules.
public struct ServerNetwork: Sendable {
    /// Where requests go (nil: the server never fetches; scripts that need the network say so).
    public let fetcher: (any LinkFetching)?
    /// Runs scripts for every generation of rules (one engine: warm contexts survive reloads).
    public let engine: ScriptEngine
    /// Follows short links, with a process-wide cache.
    public let redirectFollower: RedirectFollower?
    /// Cleans links before the rules see them (nil: no cleaning).
    public let cleaner: LinkCleaner?

    /// Creates the network side with the given fetcher (the standard policy by default); one script run may make
    /// at most `maximumScriptRequests` requests.
    public init(
        fetcher: (any LinkFetching)? = LiveFetcher(),
        maximumScriptRequests: Int = ScriptConfiguration.defaultMaximumSubrequests,
        cleaner: LinkCleaner? = nil
    ) {
        self.fetcher = fetcher
        self.cleaner = cleaner
        // A server sets runaway scripts aside: hostile links can hit a never-ending script again and again.
        engine = ScriptEngine(fetcher: fetcher, runaways: RunawayPolicy(), maximumSubrequests: maximumScriptRequests)
        redirectFollower = fetcher.map { RedirectFollower(fetcher: $0) }
    }

    /// A resolver over `rules` with this network (made once per rule-set generation).
    public func resolver(for rules: RuleSet) -> Resolver {
        Resolver(rules: rules, engine: engine, fetcher: fetcher, redirectFollower: redirectFollower, cleaner: cleaner)
    }
}
