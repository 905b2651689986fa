import DomainClaimsStage
import Hummingbird
import LinkFetching
import LinkResolver
import WebLinks

/// `GET /v1/claims?url=…`: what the link's domain claims (apple-app-site-association, assetlinks.json), and why: the
/// document of `switchyard claims URL --json`, read through the server's network (its HTTP cache, policy and
/// `--connect-to`) within its time limit. Answered when the server reads claims (`serve --claims`); cached as
/// ``HTTPCaching`` says, for as long as the files' answers are fresh.
struct ClaimsRoutes {
    let store: RuleSetStore
    let configuration: ServerConfiguration
    let caching: HTTPCaching

    /// The route, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("claims") { request, _ in try await claims(request) }
        return routes
    }

    func claims(_ request: Request) async throws -> Response {
        _ = try QueryParameters(request.uri.query, known: ["url"], noticesCutLinks: false)
        guard !configuration.openingStages.isEmpty else {
            throw APIError(
                .notFound,
                "E_CLAIMS_OFF",
                "this server does not read domain claims: start it with switchyard serve --claims"
            )
        }
        guard let raw = request.uri.queryParameters["url"] else {
            throw APIError(
                .badRequest,
                "E_MISSING_URL",
                "add the link whose claims to show as the query parameter url=…"
            )
        }
        let link: Link
        do {
            link = try Link(String(raw), maximumLength: configuration.maximumLinkLength)
        } catch {
            throw APIError(error.code == .tooLong ? .uriTooLong : .badRequest, error.code.rawValue, error.message)
        }
        let generation = store.current
        guard let fetcher = generation.resolver.fetcher else {
            throw APIError(
                .serviceUnavailable,
                "E_OFFLINE",
                "this server is offline (serve --offline): a domain's claims cannot be read"
            )
        }
        let deadline = ContinuousClock.now + configuration.timeLimit
        // Tagged as `/v1/resolve` is, by a key the resolver derives: its rules and network, the stage, the link.
        let key = generation.resolver.cacheKey(for: link.text, lookup: DomainClaimsStage())
        return try await caching.answer(request, tagParts: key.parts) {
            let fetched = await ClaimsLookup(fetcher: ResolutionScope(wrapping: fetcher), deadline: deadline)
                .claims(for: link)
            return (fetched.report(rules: generation.resolver.rules), fetched.cacheability)
        }
    }
}
