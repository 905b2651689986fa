import Foundation
import Hummingbird
import LinkFetching
import LinkResolver
import LinkRules

/// `GET /openapi.json`: the OpenAPI 3.1 description of the HTTP API, bundled with the binary
/// (`Resources/openapi.json`), its `info.version` the server's version; cached as ``HTTPCaching`` says.
struct OpenAPIRoutes {
    let caching: HTTPCaching

    /// The description as served; nil when the bundled file is missing or not a JSON object.
    static let document: Data? = {
        guard
            let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            var info = object["info"] as? [String: Any]
        else { return nil }
        info["version"] = SwitchyardVersion.current
        object["info"] = info
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }()

    /// The route, at the root; not served when the bundled file is unusable.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        guard let document = Self.document else { return routes }
        let buffer = ByteBuffer(bytes: document)
        routes.get("openapi.json") { request, context in
            try await caching.answer(request, context: context, tag: EntityTag(madeFrom: ["openapi.json"])) {
                Response(
                    status: .ok,
                    headers: [.contentType: "application/json; charset=utf-8"],
                    body: .init(byteBuffer: buffer)
                )
            }
        }
        return routes
    }
}
