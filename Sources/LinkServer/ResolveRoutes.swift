import Hummingbird
import HummingbirdCore
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

/// `GET /v1/resolve`, `POST /v1/resolve` (a batch) and `GET /v1/explain`: links in, resolution documents out, with
/// the current generation's resolver.
struct ResolveRoutes {
    let store: RuleSetStore
    let configuration: ServerConfiguration

    /// The routes, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("resolve") { request, _ in
            try await resolve(request, try resolveRequest(query: request.uri.queryParameters))
        }
        routes.post("resolve") { request, context in
            try await resolveBatch(try await request.decode(as: BatchRequest.self, context: context))
        }
        routes.get("explain") { request, _ in
            var resolveRequest = try resolveRequest(query: request.uri.queryParameters)
            resolveRequest.trace = true
            return try await resolve(request, resolveRequest)
        }
        return routes
    }

    /// Resolves the `url` query parameter; refusals carry the right status (`414` for a link over the limit).
    func resolve(_ request: Request, _ resolveRequest: ResolveRequest) async throws -> Resolution {
        guard let raw = request.uri.queryParameters["url"] else {
            throw APIError(.badRequest, "E_MISSING_URL", "add the link to resolve as the query parameter url=…")
        }
        do {
            return try await store.current.resolver.resolve(String(raw), resolveRequest)
        } catch {
            throw APIError(error.code == .tooLong ? .uriTooLong : .badRequest, error.code.rawValue, error.message)
        }
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
            sourceApp: batch.source
        )
        var results: [BatchResult] = []
        await store.current.resolver.resolve(each: batch.urls, resolveRequest) { results.append($0) }
        return BatchResponse(results: results)
    }

    /// The query's `installed`, `platform` and `source` (the app the link came from) as a resolve request.
    func resolveRequest(query: FlatDictionary<Substring, Substring>) throws -> ResolveRequest {
        try resolveRequest(
            installed: query["installed"].map { InstalledApps(list: String($0)) },
            platform: query["platform"].map(String.init),
            sourceApp: query["source"].map(String.init)
        )
    }

    /// A resolve request with the server's budget and link limit; an unknown platform is `400 E_PLATFORM`, a
    /// source that is not a bundle identifier `400 E_SOURCE_APP`.
    func resolveRequest(
        installed: InstalledApps?,
        platform: String?,
        sourceApp: String? = nil
    ) throws
        -> ResolveRequest
    {
        if let sourceApp, sourceApp.isEmpty || sourceApp.utf8.count > 255 || sourceApp.contains(where: \.isWhitespace) {
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
}

/// The answer to `POST /v1/resolve`: one result per link, in order.
struct BatchResponse: ResponseEncodable {
    var results: [BatchResult]
}
