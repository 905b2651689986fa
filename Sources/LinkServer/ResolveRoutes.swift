import AppChooser
import Hummingbird
import HummingbirdCore
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

/// `GET /v1/resolve`, `POST /v1/resolve` (a batch) and `GET /v1/explain`: links in, resolution documents out, with
/// the current generation's resolver; the GET answers are cached as ``HTTPCaching`` says.
struct ResolveRoutes {
    let store: RuleSetStore
    let configuration: ServerConfiguration
    let caching: HTTPCaching

    /// The routes, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("resolve") { request, context in
            try await resolve(request, context: context, try resolveRequest(query: request.uri.queryParameters))
        }
        routes.post("resolve") { request, context in
            try await resolveBatch(try await request.decode(as: BatchRequest.self, context: context))
        }
        routes.get("explain") { request, context in
            var resolveRequest = try resolveRequest(query: request.uri.queryParameters)
            resolveRequest.trace = true
            return try await resolve(request, context: context, resolveRequest)
        }
        return routes
    }

    /// Resolves the `url` query parameter; refusals carry the right status (`414` for a link over the limit). The
    /// answer's entity tag is made from the rules' identity and the normalised request (``cacheKey(_:input:)``), so
    /// a conditional request that has the answer already is answered `304` without resolving.
    func resolve(
        _ request: Request,
        context: some RequestContext,
        _ resolveRequest: ResolveRequest
    ) async throws -> Response {
        guard let raw = request.uri.queryParameters["url"] else {
            throw APIError(.badRequest, "E_MISSING_URL", "add the link to resolve as the query parameter url=…")
        }
        let input = String(raw)
        let link: Link
        do {
            link = try Link(input, maximumLength: resolveRequest.maximumLinkLength)
        } catch {
            throw APIError(error.code == .tooLong ? .uriTooLong : .badRequest, error.code.rawValue, error.message)
        }
        let generation = store.current
        // Remembered site choices change the document: the tag names the choices store's revision too.
        let choices = configuration.choices.map { "choices:" + ($0.revision() ?? "unreadable") }
        let tag = EntityTag(
            [generation.identity] + cacheKey(resolveRequest, input: input) + (choices.map { [$0] } ?? [])
        )
        return try await caching.answer(request, context: context, tag: tag) {
            let outcome = await generation.resolver.outcome(link, input: input, resolveRequest)
            var resolution = outcome.resolution
            configuration.applySiteChoices(to: &resolution, rules: generation.resolver.rules, resolveRequest)
            let readable = !resolution.notices.contains { $0.code == ChoicesStore.choicesUnreadable }
            return (resolution, outcome.isReproducible && readable)
        }
    }

    /// Everything of a request that its resolution document is made from, besides the rules: the input as given
    /// (the document repeats it), the installed apps and the platform in their canonical forms, the source app (the
    /// user layer's `when` entries match it), whether a trace is
    /// made, and whether the server may fetch (offline, a script that needs the network reports it; online, it is
    /// not reproducible).
    func cacheKey(_ request: ResolveRequest, input: String) -> [String] {
        [
            input,
            request.installed.map { "only:" + $0.schemes.sorted().joined(separator: ",") } ?? "all",
            request.platform?.rawValue ?? "any",
            request.trace ? "trace" : "no trace",
            request.sourceApp.map { "source:" + $0 } ?? "no source",
            configuration.cleaning.map { cleaning in
                guard request.cleansLinks else { return "no clean" }
                return "clean:" + cleaning.identity + (request.allowsReferralMarketing ? ":referral" : "")
            } ?? "no catalog",
            configuration.networkEnabled ? "online" : "offline",
        ]
    }

    /// `{"urls": [...], "installed"?: [...], "platform"?: "phone"|"pad"}` → `{"results": [...]}`, one per link, in
    /// order.
    func resolveBatch(_ batch: BatchRequest) async throws -> BatchResponse {
        guard batch.urls.count <= configuration.maximumBatchSize else {
            throw APIError(
                .contentTooLarge,
                "E_BATCH_TOO_LARGE",
                "the batch has \(batch.urls.count) links, more than \(configuration.maximumBatchSize)"
            )
        }
        let resolveRequest = try resolveRequest(
            installed: batch.installed.map(InstalledApps.init),
            platform: batch.platform,
            sourceApp: batch.source,
            clean: batch.clean
        )
        var results: [BatchResult] = []
        let resolver = store.current.resolver
        await resolver.resolve(each: batch.urls, resolveRequest) { result in
            guard case .resolved(var resolution) = result else { return results.append(result) }
            configuration.applySiteChoices(to: &resolution, rules: resolver.rules, resolveRequest)
            results.append(.resolved(resolution))
        }
        return BatchResponse(results: results)
    }

    /// The query's `installed`, `platform` and `source` (the app the link came from) as a resolve request.
    func resolveRequest(query: FlatDictionary<Substring, Substring>) throws -> ResolveRequest {
        try resolveRequest(
            installed: query["installed"].map { InstalledApps(list: String($0)) },
            platform: query["platform"].map(String.init),
            sourceApp: query["source"].map(String.init),
            clean: try query["clean"].map { value throws(APIError) in
                switch value {
                case "true": return true
                case "false": return false
                default: throw APIError(.badRequest, "E_CLEAN", "clean= takes true or false")
                }
            }
        )
    }

    /// A resolve request with the server's budget and link limit; an unknown platform is `400 E_PLATFORM`, a
    /// source that is not a bundle identifier `400 E_SOURCE_APP`.
    func resolveRequest(
        installed: InstalledApps?,
        platform: String?,
        sourceApp: String? = nil,
        clean: Bool? = nil
    ) throws
        -> ResolveRequest
    {
        if let sourceApp, !SourceAppPattern.isSourceApp(sourceApp) {
            throw APIError(
                .badRequest,
                "E_SOURCE_APP",
                "source= takes the bundle identifier of the app the link came from, such as com.tinyspeck.chatlyio"
            )
        }
        let parsedPlatform: Platform?
        do {
            parsedPlatform = try platform.map { text throws(PlatformError) in try Platform(parsing: text) }
        } catch {
            throw APIError(.badRequest, "E_PLATFORM", error.description)
        }
        var request = ResolveRequest(
            match: MatchOptions(installed: installed, platform: parsedPlatform),
            timeLimit: configuration.scriptBudget,
            maximumLinkLength: configuration.maximumLinkLength
        )
        request.sourceApp = sourceApp
        request.cleansLinks = clean ?? true
        request.allowsReferralMarketing = configuration.cleaning?.allowsReferralMarketing ?? false
        return request
    }
}

/// The body of `POST /v1/resolve`.
struct BatchRequest: Decodable {
    var urls: [String]
    var installed: [String]?
    var platform: String?
    /// The app the links came from (a bundle identifier), for the user layer's `when` entries.
    var source: String?
    /// Whether the links are cleaned first (default true, when the server has a catalog).
    var clean: Bool?
}

/// The answer to `POST /v1/resolve`: one result per link, in order.
struct BatchResponse: ResponseEncodable {
    var results: [BatchResult]
}
