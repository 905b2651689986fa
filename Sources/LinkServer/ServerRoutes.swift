import AppChooser
import Foundation
import HTTPTypes
import Hummingbird
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks
import XCallbackURL

/// The HTTP API (JSON, versioned under `/v1`) and the playground, over one ``RuleSetStore``.
public struct ServerRoutes: Sendable {
    let store: RuleSetStore
    let metrics: ServerMetrics
    let configuration: ServerConfiguration
    let network: ServerNetwork

    /// Creates the routes.
    public init(store: RuleSetStore, metrics: ServerMetrics, configuration: ServerConfiguration, network: ServerNetwork)
    {
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        self.network = network
    }

    /// The router with every route and the metrics middleware.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.get("/healthz") { _, _ in
            try self.json(
                Health(
                    status: "ok",
                    generation: self.store.generation,
                    rules: self.store.rules.file ?? "bundled",
                    lastRejection: self.store.lastRejection
                )
            )
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: self.metrics.render(generation: self.store.generation)))
            )
        }
        router.get("/v1/resolve") { request, _ in try await self.resolveOne(request) }
        router.post("/v1/resolve") { request, _ in try await self.resolveBatch(request) }
        router.get("/v1/explain") { request, _ in
            var resolveRequest = try self.resolveRequest(from: request)
            resolveRequest.trace = true
            return try self.json(try await self.resolve(request, resolveRequest))
        }
        router.get("/v1/apps") { _, _ in try self.json(AppList(self.store.rules.manifest)) }
        router.post("/v1/xcallback/parse") { request, _ in try await self.parseXCallback(request) }
        router.get("/v1/choose") { request, _ in try self.choose(request) }
        router.get("/v1/tests") { _, _ in
            let generation = self.store.current
            return try self.json(generation.testReport ?? RuleTestReport(results: []))
        }
        PlaygroundRoutes.add(to: router)
        Self.addMethodNotAllowed(to: router)
        return router
    }

    /// The methods each API path accepts; other common methods get `405` with `Allow` instead of `404`.
    static let allowedMethods: [(path: String, methods: [HTTPRequest.Method])] = [
        ("/healthz", [.get]), ("/metrics", [.get]), ("/v1/resolve", [.get, .post]), ("/v1/explain", [.get]),
        ("/v1/apps", [.get]), ("/v1/xcallback/parse", [.post]), ("/v1/choose", [.get]), ("/v1/tests", [.get]),
    ]

    static func addMethodNotAllowed(to router: Router<BasicRequestContext>) {
        for (path, methods) in allowedMethods {
            for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] where !methods.contains(method) {
                router.on(RouterPath(path), method: method) { request, _ -> Response in
                    throw APIError(
                        .methodNotAllowed,
                        "E_METHOD",
                        "\(request.method.rawValue) is not allowed on \(path); use \(methods.map(\.rawValue).joined(separator: " or "))",
                        allowedMethods: methods
                    )
                }
            }
        }
    }

    // MARK: Resolve

    func resolveOne(_ request: Request) async throws -> Response {
        try json(try await resolve(request, try resolveRequest(from: request)))
    }

    /// The request's query fields (`installed`, `platform`) as a resolve request.
    func resolveRequest(from request: Request) throws -> ResolveRequest {
        let query = request.uri.queryParameters
        return try resolveRequest(
            installed: query["installed"].map { InstalledApps(list: String($0)) },
            platform: query["platform"].map(String.init)
        )
    }

    func resolveRequest(installed: InstalledApps?, platform: String?) throws -> ResolveRequest {
        let parsedPlatform: Platform?
        do {
            parsedPlatform = try platform.map { text throws(PlatformError) in try Platform(parsing: text) }
        } catch {
            throw APIError(.badRequest, "E_PLATFORM", error.description)
        }
        return ResolveRequest(
            installed: installed,
            platform: parsedPlatform,
            timeLimit: configuration.scriptBudget,
            maximumLinkLength: configuration.maximumLinkLength
        )
    }

    /// Resolves the `url` query parameter; refusals carry the right status.
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

    /// `{"urls": [...], "installed"?: [...], "platform"?: "phone"|"pad"}` → `{"results": [...]}`, one per link, in order.
    func resolveBatch(_ request: Request) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maximumBodyBytes)
        } catch {
            throw APIError(
                .contentTooLarge,
                "E_BODY_TOO_LARGE",
                "the request body is larger than \(configuration.maximumBodyBytes) bytes"
            )
        }
        let batch: BatchRequest
        do {
            batch = try JSONDecoder().decode(BatchRequest.self, from: Data(body.readableBytesView))
        } catch {
            throw APIError(
                .badRequest,
                "E_JSON",
                "the body must be JSON {\"urls\": [\"https://…\", …]}: \(Self.describe(error))"
            )
        }
        guard batch.urls.count <= configuration.maximumBatchSize else {
            throw APIError(
                .contentTooLarge,
                "E_BATCH_TOO_LARGE",
                "the batch has \(batch.urls.count) links, more than \(configuration.maximumBatchSize)"
            )
        }
        let resolveRequest = try resolveRequest(
            installed: batch.installed.map(InstalledApps.init),
            platform: batch.platform
        )
        var results: [BatchResult] = []
        await store.current.resolver.resolve(each: batch.urls, resolveRequest) { results.append($0) }
        return try json(BatchResponse(results: results))
    }

    /// `{"url": "app://x-callback-url/…"}` → its parts, or 400 naming the part at fault.
    func parseXCallback(_ request: Request) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maximumBodyBytes)
        } catch {
            throw APIError(
                .contentTooLarge,
                "E_BODY_TOO_LARGE",
                "the request body is larger than \(configuration.maximumBodyBytes) bytes"
            )
        }
        struct Body: Decodable { var url: String }
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body.readableBytesView)) else {
            throw APIError(.badRequest, "E_JSON", "the body must be JSON {\"url\": \"app://x-callback-url/…\"}")
        }
        let parsed: XCallbackRequest
        do throws(XCallbackURLError) {
            parsed = try XCallbackRequest(parsing: decoded.url)
        } catch {
            throw APIError(.badRequest, error.code.rawValue, error.description)
        }
        return try json(parsed)
    }

    /// `GET /v1/choose?type=twitter&action=show_profile&param=profile_screenname=KarlTheFog&installed=a,b`: the
    /// picker model (no defaults are stored by the server: a client remembers its user's choice).
    func choose(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        guard let type = query["type"], let action = query["action"] else {
            throw APIError(
                .badRequest,
                "E_MISSING_PARAMETER",
                "add type=… and action=… (for example type=twitter&action=show_profile)"
            )
        }
        var parameters: [String: String] = [:]
        for pair in query.getAll("param") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw APIError(.badRequest, "E_PARAMETER", "param=\"\(pair)\" must be key=value")
            }
            parameters[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let installed = network.catalog.installation(query["installed"].map { InstalledApps(list: String($0)) })
        let model: PickerModel
        do throws(ChooserError) {
            model = try AppPicker(catalog: network.catalog, installed: installed, store: nil)
                .model(appType: String(type), action: String(action), parameters: parameters)
        } catch {
            throw APIError(
                error.code == .unknownType || error.code == .unknownAction ? .notFound : .badRequest,
                error.code.rawValue,
                error.description
            )
        }
        return try json(model)
    }

    func json(_ value: some Encodable) throws -> Response {
        let data = try DocumentEncoder.json().encode(value)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error { return context.debugDescription }
        if case DecodingError.keyNotFound(let key, _) = error { return "missing key \"\(key.stringValue)\"" }
        if case DecodingError.typeMismatch(_, let context) = error {
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        }
        return "not valid JSON"
    }
}

/// The network side of a server: one fetcher with the safety policy, one script engine, one short-link cache.
public struct ServerNetwork: Sendable {
    /// Where requests go (nil: the server never fetches; scripts that need the network say so).
    public let fetcher: (any LinkFetching)?
    /// Runs scripts for every generation of rules (one engine: warm contexts survive reloads).
    public let engine: ScriptEngine
    /// Follows short links, with a process-wide cache.
    public let redirectFollower: RedirectFollower?
    /// The app chooser's catalog (bundled data).
    public let catalog: AppCatalog

    /// Creates the network side with the given fetcher (the standard policy by default).
    public init(fetcher: (any LinkFetching)? = LiveFetcher()) {
        catalog = (try? AppCatalog.bundled()) ?? AppCatalog()
        self.fetcher = fetcher
        // A server sets runaway scripts aside: hostile links can hit a never-ending script again and again.
        engine = ScriptEngine(fetcher: fetcher, runaways: RunawayPolicy())
        redirectFollower = fetcher.map { RedirectFollower(fetcher: $0) }
    }

    /// A resolver over `rules` with this network (made once per rule-set generation).
    public func resolver(for rules: RuleSet) -> Resolver {
        Resolver(rules: rules, engine: engine, fetcher: fetcher, redirectFollower: redirectFollower)
    }
}

struct Health: Encodable {
    var status: String
    var generation: Int
    var rules: String
    var lastRejection: String?
}

struct BatchRequest: Decodable {
    var urls: [String]
    var installed: [String]?
    var platform: String?
}

struct BatchResponse: Encodable {
    var results: [BatchResult]
}

/// `GET /v1/apps`: every app and browser of the current rules.
struct AppList: Encodable {
    struct Entry: Encodable {
        var kind: String
        var identifier: String
        var name: String
        var scheme: String
        var storeId: Int?
        var iconURL: String?
        var platform: String?
        var country: String?
    }
    var version: String
    var apps: [Entry]

    init(_ manifest: Manifest) {
        version = manifest.version.description
        apps =
            manifest.apps.map { Self.entry($0, kind: "app") }
            + manifest.browsers.map { Self.entry($0.app, kind: "browser") }
    }

    static func entry(_ app: App, kind: String) -> Entry {
        Entry(
            kind: kind,
            identifier: app.identifier,
            name: app.name,
            scheme: app.scheme,
            storeId: app.storeId,
            iconURL: app.iconURL,
            platform: app.platform?.rawValue,
            country: app.country
        )
    }
}

/// Times every request and counts it by route and status.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    static var knownRoutes: Set<String> {
        [
            "/", "/healthz", "/metrics", "/v1/resolve", "/v1/explain", "/v1/apps", "/v1/tests", "/v1/xcallback/parse",
            "/v1/choose",
        ]
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let route =
            Self.knownRoutes.contains(request.uri.path)
            ? request.uri.path : (request.uri.path.hasPrefix("/playground") ? "/playground" : "other")
        do {
            let response = try await next(request, context)
            metrics.record(route: route, status: response.status.code, seconds: Self.seconds(since: start))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.record(route: route, status: status, seconds: Self.seconds(since: start))
            throw error
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start) / .seconds(1)
    }
}
