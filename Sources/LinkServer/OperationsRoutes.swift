import Hummingbird
import LinkMatching
import NIOCore

/// `GET /healthz` and `GET /metrics`: what an operator or a load balancer polls, about this one process (so
/// `no-store`: a cache in front must never answer for a replica).
struct OperationsRoutes {
    let store: RuleSetStore
    let metrics: ServerMetrics

    /// The routes, at the root.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("healthz") { request, context in
            var response = try Health(
                status: "ok",
                generation: store.generation,
                rules: store.rules.file ?? "bundled",
                lastRejection: store.lastRejection
            )
            .response(from: request, context: context)
            response.headers[.cacheControl] = HTTPCaching.noStore
            return response
        }
        routes.get("metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: HTTPCaching.noStore],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition()))
            )
        }
        return routes
    }
}

/// `GET /healthz`: the rule-set generation serving and why the last reload was refused, if it was.
struct Health: ResponseEncodable {
    var status: String
    var generation: Int
    var rules: String
    var lastRejection: String?
}
