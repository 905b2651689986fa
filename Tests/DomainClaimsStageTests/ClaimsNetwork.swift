import DomainClaimsStage
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// The network of the claims tests: a fetching stack over a `LiveFetcher` that sends `example.com:443` to the test
/// site's loopback TLS server and trusts its test authority; and resolvers with the claims stage over it.
enum ClaimsNetwork {
    /// The stack (HTTP cache, failure memory, …) for `site`; `allowPrivate` false leaves the loopback address refused
    /// (the server's port allowed, so that the address is what the policy refuses).
    static func stack(for site: ClaimsTestSite, allowPrivate: Bool = true) throws -> FetchingStack {
        var policy = NetworkPolicy(allowPrivateAddresses: allowPrivate, allowedPorts: [443, site.server.port])
        policy.connectTo = [try #require(ConnectionOverride(parsing: site.server.connectTo()))]
        let live = try LiveFetcher(policy: policy, trustingPEM: Array(site.certificates.authorityPEM.utf8))
        return FetchingStack(upstream: live)
    }

    /// The fixture's apps, with `example` named by the site's app ID and package (its `claims` key), and an action
    /// for `https://example.com/buy/…`.
    static let manifest = #"""
        {"apps": [
           {"identifier": "example", "name": "Example", "scheme": "example",
            "claims": {"appIDs": ["ABCDE12345.com.example.app"], "androidPackages": ["com.example.android"]}},
           {"identifier": "alpha", "name": "Alpha", "scheme": "alpha"}],
         "actions": [{"title": "Open in Alpha", "regex": "^https?://example\\.com/buy/(\\d+)$",
                      "formats": [{"appId": "alpha", "format": "alpha://buy/$1"}]}],
         "browsers": [{"identifier": "web", "name": "Web", "scheme": "web", "regex": "^https?://", "format": "web://$0"}]}
        """#

    /// A resolver with the claims stage over `fetcher` and `manifest`'s rules, with `layer` over them when given.
    static func resolver(
        fetcher: (any LinkFetching)?,
        layer: String? = nil,
        manifest: String = manifest
    ) throws -> Resolver {
        var rules = try RuleSet.load(manifest, file: "manifest.json", scriptChecker: nil)
        if let layer { rules = try rules.applying(layer: layer) }
        return Resolver(
            rules: rules,
            engine: nil,
            fetcher: fetcher,
            stages: ResolverStages(openings: [DomainClaimsStage()])
        )
    }

    /// A request with a trace and `seconds` of time.
    static func request(seconds: Int = 10, trace: Bool = true) -> ResolveRequest {
        ResolveRequest(timeLimit: .seconds(seconds), trace: trace)
    }
}
