import Hummingbird
import HummingbirdCore
import Logging

/// Times every request, counts it by route and status in ``ServerMetrics``, and logs it: one line per request at
/// `info` with its method, path, status and duration (`method`, `path`, `status`, `duration_ms`), through the
/// request's logger (the server's, in the configured ``LogFormat``, with Hummingbird's request id).
///
/// The route label is the router's own path for the matched route (`context.endpointPath`, the path it was
/// registered with), so the labels follow the registered routes and a client cannot create new ones; a request
/// that matches no route is counted as `other`. The logged path never carries the links a client sent: a `url`
/// parameter is logged as its length, any other value cut at 32 characters (``loggedTarget(_:)``).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status, duration: .now - start)
            return response
        } catch {
            // The router turns a thrown error into its response after the middleware chain: count its status.
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            record(request, context: context, status: status, duration: .now - start)
            throw error
        }
    }

    func record(_ request: Request, context: Context, status: HTTPResponse.Status, duration: Duration) {
        metrics.recordRequest(route: Self.route(context), status: status, duration: duration)
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue.prefix(20))",
                "path": "\(Self.loggedTarget(request.uri))",
                "status": "\(status.code)",
                "duration_ms": "\((milliseconds * 1000).rounded() / 1000)",
            ]
        )
    }

    /// The matched route's path; `other` when none matched (Hummingbird's not-found responder says `NotFound`).
    static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, path != "NotFound" else { return "other" }
        return path
    }

    /// The path and query as logged: at most 200 characters of path; each `url` value replaced by its length
    /// (`url=…(57 bytes)`), every other value cut at 32 characters.
    static func loggedTarget(_ uri: URI) -> String {
        let path = uri.path.count > 200 ? uri.path.prefix(200) + "…" : Substring(uri.path)
        guard let query = uri.query, !query.isEmpty else { return String(path) }
        let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "=") else { return String(parameter.prefix(32)) }
            let name = parameter[..<equals].prefix(32)
            let value = parameter[parameter.index(after: equals)...]
            if name == "url" { return "url=…(\(value.utf8.count) bytes)" }
            return "\(name)=" + (value.count > 32 ? value.prefix(32) + "…" : value)
        }
        return path + "?" + parameters.prefix(20).joined(separator: "&")
    }
}
