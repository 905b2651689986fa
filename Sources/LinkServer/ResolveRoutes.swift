import Hummingbird
import HummingbirdCore
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

/// `GET /v1/resolve`, `POST /v1/resolve` (a batch) and `GET /v1/explain`: links in, resolution documents out, with
/// the current generation's resolver; the GET answers are cached as ``HTTPCaching`` says, from the resolution's own
/// cache key and cacheability.
struct ResolveRoutes {
    let store: RuleSetStore
    let configuration: ServerConfiguration
    let caching: HTTPCaching

    /// The routes, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("resolve") { request, context in
            let parameters = request.uri.queryParameters
            return try await resolve(request, parameters, try resolveRequest(request, parameters))
        }
        routes.post("resolve") { request, context in
            let decoder = JSONBodyDecoder(userInfo: [ResolveRequest.defaultsKey: configuration.requestDefaults])
            return try await resolveBatch(try await decoder.decode(BatchRequest.self, from: request, context: context))
        }
        routes.get("explain") { request, context in
            let parameters = request.uri.queryParameters
            var resolveRequest = try resolveRequest(request, parameters)
            resolveRequest.trace = true
            return try await resolve(request, parameters, resolveRequest)
        }
        return routes
    }

    /// Resolves the `url` query parameter; refusals carry the right status (`414` for a link over the limit). The
    /// answer's entity tag is made from the resolution's ``CacheKey`` (the rules, each stage's identity, the request
    /// and the input), known before resolving, so a conditional request that has the answer already is answered
    /// `304` without resolving; its `Cache-Control` from the resolution's ``Cacheability``.
    func resolve(
        _ request: Request,
        _ parameters: Parameters,
        _ resolveRequest: ResolveRequest
    ) async throws -> Response {
        // Unknown names are refused before anything else; those a link's unencoded & cut off are said in the answer.
        let query = try QueryParameters(request.uri.query, known: QueryParameters.resolve)
        guard let raw = parameters["url"] else {
            throw APIError(.badRequest, "E_MISSING_URL", "add the link to resolve as the query parameter url=…")
        }
        let input = String(raw)
        let link: Link
        do {
            link = try Link(input, maximumLength: resolveRequest.maximumLinkLength)
        } catch {
            throw APIError(error.code == .tooLong ? .uriTooLong : .badRequest, error.code.rawValue, error.message)
        }
        let resolver = store.current.resolver
        let key = resolver.cacheKey(for: input, resolveRequest)
        // The notice is part of the answer, so what it names is part of the tag.
        let tagParts = key.parts + query.cutFromLink.map { "cut:" + $0 }
        return try await caching.answer(request, tagParts: tagParts) {
            var outcome = await resolver.outcome(link, input: input, resolveRequest, key: key)
            if let notice = query.notice { outcome.resolution.notices.append(notice) }
            return (outcome.resolution, outcome.cacheability)
        }
    }

    /// `{"urls": [...], ...the request's fields}` → `{"results": [...]}`, one per link, in order.
    func resolveBatch(_ batch: BatchRequest) async throws -> BatchResponse {
        guard batch.urls.count <= configuration.maximumBatchSize else {
            throw APIError(
                .contentTooLarge,
                "E_BATCH_TOO_LARGE",
                "the batch has \(batch.urls.count, "link"), more than \(configuration.maximumBatchSize)"
            )
        }
        var results: [BatchResult] = []
        await store.current.resolver.resolve(each: batch.urls, limited(batch.request)) { results.append($0) }
        return BatchResponse(results: results)
    }

    /// The query string as a resolve request, from the server's defaults (``ServerConfiguration/requestDefaults``):
    /// a field that does not fit is `400` with its code (`E_PLATFORM`, `E_SOURCE_APP`, `E_CLEAN`, …).
    func resolveRequest(_ request: Request, _ parameters: Parameters) throws -> ResolveRequest {
        // Most queries name only the link: their request is the server's defaults, without a decoder's tree
        // (HTTPCachingTests.aQueryOfOnlyTheLinkIsTheRequestTheDecoderMakes holds it to the decoder).
        if parameters.count == 1, parameters["url"] != nil { return limited(configuration.requestDefaults) }
        let decoder = URLEncodedFormDecoder(userInfo: [
            ResolveRequest.defaultsKey: configuration.requestDefaults, ResolveRequest.textFieldsKey: true,
        ])
        do {
            return limited(try decoder.decode(ResolveRequest.self, from: request.uri.query ?? ""))
        } catch let error as ResolveRequestError {
            throw APIError(error, naming: error.field.stringValue + "=")
        } catch let error as DecodingError {
            let name = Self.codingPath(of: error).first?.stringValue
            throw APIError(
                .badRequest,
                "E_QUERY",
                name.map { "\($0)= takes one value, as text" } ?? "the query string cannot be read as a resolve request"
            )
        }
    }

    /// Where a decoding error happened.
    static func codingPath(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath
        case .keyNotFound(let key, let context): context.codingPath + [key]
        @unknown default: []
        }
    }

    /// `request` within the server's limits: a client may ask for less time (the whole resolution's, one regex's, all
    /// regexes') or a shorter link, never more.
    func limited(_ request: ResolveRequest) -> ResolveRequest {
        var request = request
        let defaults = configuration.requestDefaults
        request.timeLimit = min(request.timeLimit, defaults.timeLimit)
        request.maximumLinkLength = min(request.maximumLinkLength, defaults.maximumLinkLength)
        request.budget.perRegex = min(request.budget.perRegex, defaults.budget.perRegex)
        request.budget.perResolution = min(request.budget.perResolution, defaults.budget.perResolution)
        return request
    }
}

/// The body of `POST /v1/resolve`: the links, and the request's fields beside them (`installed` as a list).
struct BatchRequest: Decodable {
    var urls: [String]
    var request: ResolveRequest

    private enum CodingKeys: String, CodingKey { case urls }

    /// Every key a batch body may have: `urls` and the request's fields.
    static let keys = Set(["urls"] + ResolveRequest.Field.allCases.map(\.stringValue))

    /// Decodes the body; a key that is none of ``keys`` is `400 E_UNKNOWN_FIELD` (``BodyFields``).
    init(from decoder: any Decoder) throws {
        try BodyFields.requireKnown(Self.keys, in: decoder)
        urls = try decoder.container(keyedBy: CodingKeys.self).decode([String].self, forKey: .urls)
        request = try ResolveRequest(from: decoder)
    }
}

/// The answer to `POST /v1/resolve`: one result per link, in order.
struct BatchResponse: ResponseEncodable {
    var results: [BatchResult]
}

extension APIError {
    /// A request field that does not fit, named as the client wrote it (`platform=`, `"platform"`).
    init(_ error: ResolveRequestError, naming name: String) {
        self.init(.badRequest, error.code, error.message(naming: name))
    }
}
