import DomainClaims
import LinkMatching
import LinkResolution
import LinkRules
import WebLinks

/// The resolver stage that turns the final link's domain claims into openings: each app the domain's
/// apple-app-site-association file claims the link for becomes a `universal-link` opening (the https link itself), and
/// each app its assetlinks.json trusts for App Links an `app-link` opening (`intent://…#Intent;scheme=https;package=…;
/// end`), in file order, naming the manifest app whose `claims` key lists the app ID or package (else the bundle ID or
/// package) and the rule (`OpeningClaim`: the file, a JSON pointer into it, the file's age).
///
/// Off unless passed in (`ResolverStages(openings: [DomainClaimsStage()])`; `resolve --claims`, `serve --claims`); a
/// request turns it off with `claims: false`. Everything it reads and decides is in the trace (`explain`): every claim
/// and exclusion with its rule, each file's URL and age, and why a file gave nothing.
public struct DomainClaimsStage: LinkOpeningStage {
    /// Creates the stage.
    public init() {}

    /// The stage and its version: the claims themselves are not part of a cache key, their freshness bounds the
    /// answer's (`OpeningStageOutcome.cacheability`).
    public var identity: String { "domain-claims/1" }

    /// The openings the claims on `link` give, read through the resolution's network.
    public func openings(for link: Link, _ context: OpeningContext) async -> OpeningStageOutcome {
        guard let fetcher = context.fetcher else {
            var outcome = OpeningStageOutcome(
                claims: [
                    ClaimsFileTrace(
                        kind: FetchedClaims.aasaKind,
                        url: link.text,
                        problem: "the resolver is offline: the domain's claims were not read"
                    )
                ]
            )
            outcome.notices.append(
                ResolutionNotice(
                    code: ResolutionNotice.offlineCode,
                    message:
                        "offline, the claims of \(link.host) (apple-app-site-association, assetlinks.json) were not read"
                )
            )
            return outcome
        }
        let fetched = await ClaimsLookup(fetcher: fetcher, deadline: context.deadline).claims(for: link)
        let apps = ClaimedApps(rules: context.rules)
        var outcome = OpeningStageOutcome(cacheability: fetched.cacheability)
        // Filtered by the request's installed apps and platform, and marked in the trace, as action openings are.
        outcome.openings = apps.openings(for: fetched, link: link, options: context.request.match)
        outcome.claims = apps.trace(of: fetched, options: context.request.match)
        for url in fetched.staleURLs {
            outcome.notices.append(.staleAnswer(from: url))
        }
        return outcome
    }
}
