import Hummingbird
import LinkFetching
import LinkMatching
import LinkResolver
import LinkRules

/// `GET /v1/apps` and `GET /v1/tests`: what the current rules contain and how their own tests go, scripts
/// included (``RuleTestRunner`` with the server's script engine, the runner `switchyard test` uses; run once per
/// generation, when first asked for, never per request).
///
/// The app list is cached as ``HTTPCaching`` says, tagged by the rules' identity. The test report is `no-store`:
/// its script cases may fetch or run out of time, so replicas may disagree on it, and each replica keeps its own
/// in memory anyway.
struct RuleSetRoutes {
    let store: RuleSetStore
    let caching: HTTPCaching

    /// The routes, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("apps") { request, context in
            let generation = store.current
            let tag = EntityTag(madeFrom: [generation.identity, "apps"])
            return try await caching.answer(request, context: context, tag: tag) {
                AppList(generation.rules.manifest)
            }
        }
        routes.get("tests") { request, context in
            var response = try await store.current.tests.report().response(from: request, context: context)
            response.headers[.cacheControl] = HTTPCaching.noStore
            return response
        }
        return routes
    }
}

/// `GET /v1/apps`: every app and browser of the current rules.
struct AppList: ResponseEncodable {
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
