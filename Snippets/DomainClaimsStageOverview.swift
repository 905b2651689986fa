// The program of DomainClaimsStage's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.hide
import DomainClaims
import DomainClaimsStage
import LinkFetching
import LinkMatching
import LinkResolver
import WebLinks

/// A stand-in for the network: the site's two files, as `LiveFetcher` would fetch them from `https://example.com`.
struct ExampleSite: LinkFetching {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let files = [
            "https://example.com/.well-known/apple-app-site-association":
                #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#,
            "https://example.com/.well-known/assetlinks.json":
                #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.android", "sha256_cert_fingerprints": ["\#((0..<32).map { _ in "AB" }.joined(separator: ":"))"]}}]"#,
        ]
        guard let body = files[request.url.text] else { return FetchResponse(url: request.url, status: 404) }
        return FetchResponse(
            url: request.url,
            status: 200,
            headers: [.contentType: "application/json"],
            body: Array(body.utf8)
        )
    }
}

// snippet.show
// A resolver with the claims stage: the rules (here an app named by its App Store app ID), a network, the stage.
let rules = try RuleSet.load(
    #"""
    {"apps": [{"identifier": "example", "name": "Example", "scheme": "example",
               "claims": {"appIDs": ["ABCDE12345.com.example.app"]}}],
     "actions": []}
    """#,
    scriptChecker: nil
)
let resolver = Resolver(
    rules: rules,
    engine: nil,
    fetcher: FetchingStack(upstream: ExampleSite()),
    stages: ResolverStages(openings: [DomainClaimsStage()])
)
let resolution = try await resolver.resolve("https://example.com/buy/42")
for opening in resolution.openings {
    print(opening.kind.rawValue, opening.app?.identifier ?? "-", opening.url ?? "-")
}
// → universal-link example https://example.com/buy/42
// → app-link com.example.android intent://example.com/buy/42#Intent;scheme=https;package=com.example.android;end
let claim = resolution.openings.first?.claim
print(claim?.file ?? "-", claim?.rule.description ?? "-")
// → https://example.com/.well-known/apple-app-site-association /applinks/details/0/components/0
