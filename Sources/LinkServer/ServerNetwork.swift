import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkScripts

/// The network side of a server: one fetcher with the safety policy (the fetching stack, whose HTTP cache keeps
/// every hop of a short link), one script engine and one redirect layer, shared by every generation of rules.
package struct ServerNetwork: Sendable {
    /// Where requests go (nil: the server never fetches; scripts that need the network say so).
    package let fetcher: (any LinkFetching)?
    /// Runs scripts for every generation of rules (one engine: warm contexts survive reloads).
    package let engine: ScriptEngine
    /// Follows short links: the stack's own redirect layer, each hop through the stack (its cache, limits and host
    /// state).
    package let redirectFollower: RedirectFollower?

    /// Creates the network side with the given fetcher (the standard policy by default); one script run may make
    /// at most `maximumScriptRequests` requests.
    package init(
        fetcher: (any LinkFetching)? = LiveFetcher(),
        maximumScriptRequests: Int = ScriptConfiguration.defaultMaximumSubrequests
    ) {
        self.fetcher = fetcher
        // A server sets runaway scripts aside: hostile links can hit a never-ending script again and again.
        engine = ScriptEngine(fetcher: fetcher, runaways: RunawayPolicy(), maximumSubrequests: maximumScriptRequests)
        redirectFollower = fetcher.map { ($0 as? FetchingStack)?.follower ?? RedirectFollower(wrapping: $0) }
    }

    /// A resolver over `rules` with this network and `stages` (the first generation's; later ones are made from it).
    package func resolver(for rules: RuleSet, stages: ResolverStages = ResolverStages()) -> Resolver {
        Resolver(rules: rules, engine: engine, fetcher: fetcher, redirectFollower: redirectFollower, stages: stages)
    }
}
