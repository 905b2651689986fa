import HTTPTypes
import Hummingbird

extension Router {
    /// Answers a request whose path is registered but whose method is not (any method, `OPTIONS`, `HEAD` and
    /// unknown ones included) with `405` and `Allow` listing the methods the path handles.
    ///
    /// Hummingbird sends a path that matches no route for the request's method to its not-found responder, which
    /// is built with the middleware added before the router is made; middleware added after the last route applies
    /// to that responder alone. So the table is read from the router's routes here, after the last route is added,
    /// and the middleware sees only the requests that no route answered.
    ///
    /// - Parameter headFollowsGet: Whether the router was made with `autoGenerateHeadEndpoints`, so that every GET
    ///   path also answers HEAD (and `Allow` says so).
    func addMethodNotAllowed(headFollowsGet: Bool) {
        var allowedByPath: [String: (path: String, methods: [HTTPRequest.Method])] = [:]
        for route in routes {
            let key = MethodNotAllowedMiddleware<Context>.key(route.path.description)
            allowedByPath[key, default: (route.path.description, [])].methods.append(route.method)
            if route.method == .get, headFollowsGet {
                allowedByPath[key]?.methods.append(.head)
            }
        }
        add(middleware: MethodNotAllowedMiddleware<Context>(allowedByPath: allowedByPath))
    }
}

/// The `405` answer for a registered path (see ``Hummingbird/Router/addMethodNotAllowed()``).
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The registered paths (keyed by ``key(_:)``) and the methods each handles.
    let allowedByPath: [String: (path: String, methods: [HTTPRequest.Method])]

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let route = allowedByPath[Self.key(request.uri.path)] else { return try await next(request, context) }
        // The route's own label in the metrics, as for the requests it answers.
        context.coreContext.endpointPath.value = route.path
        let allowed = route.methods.sorted { $0.rawValue < $1.rawValue }
        throw APIError(
            .methodNotAllowed,
            "E_METHOD",
            "\(request.method.rawValue.prefix(40)) is not allowed on \(route.path); use "
                + allowed.map(\.rawValue).joined(separator: " or "),
            allowedMethods: allowed
        )
    }

    /// A path as the router's trie compares it: its non-empty components (`/v1/resolve/` is `/v1/resolve`).
    static func key(_ path: some StringProtocol) -> String {
        path.split(separator: "/").joined(separator: "/")
    }
}
