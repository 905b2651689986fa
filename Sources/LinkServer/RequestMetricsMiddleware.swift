import Hummingbird

/// Times every request and counts it by route and status in ``ServerMetrics``.
///
/// The route label is the router's own path for the matched route (`context.endpointPath`, the path it was
/// registered with), so the labels follow the registered routes and a client cannot create new ones; a request
/// that matches no route is counted as `other`.
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
            metrics.recordRequest(route: Self.route(context), status: response.status, duration: .now - start)
            return response
        } catch {
            // The router turns a thrown error into its response after the middleware chain: count its status.
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.recordRequest(route: Self.route(context), status: status, duration: .now - start)
            throw error
        }
    }

    /// The matched route's path; `other` when none matched (Hummingbird's not-found responder says `NotFound`).
    static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, path != "NotFound" else { return "other" }
        return path
    }
}
