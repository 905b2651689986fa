import AppChooser
import Foundation
import Hummingbird
import HummingbirdCore
import LinkMatching
import LinkResolver
import LinkRules
import Logging

/// `GET /v1/choices/sites`, `PUT /v1/choices/sites/{host}` (`{"app", "includeSubdomains"?}`) and
/// `DELETE /v1/choices/sites/{host}`: the apps remembered per site in the server's choices store
/// (``ServerConfiguration/choices``), which `/v1/resolve` and `/v1/explain` apply. A server without a store answers
/// `404 E_NO_CHOICES_STORE`.
struct SiteChoiceRoutes {
    let choices: ChoicesStore?
    let rules: RuleSetStore

    /// The routes, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("choices/sites") { _, context in
            let store = try store()
            return try call(context) { () throws(ChooserError) in SiteChoiceList(sites: try store.siteChoices()) }
        }
        routes.put("choices/sites/:host") { request, context in
            let store = try store()
            let host = try host(context)
            let body = try await request.decode(as: SiteChoiceRequest.self, context: context)
            let app: String
            do throws(ChooserError) {
                // The check `choose --remember-site` makes too.
                app = try ChoicesStore.requireApp(
                    body.app.trimmingCharacters(in: .whitespaces),
                    in: rules.current.resolver.rules
                ).identifier
            } catch {
                throw APIError(.badRequest, error.code.rawValue, "$.app: \(error.message)", path: "$.app")
            }
            let scope: SiteScope = body.includeSubdomains == true ? .domain : .host
            return try call(context, subdomainsPath: "$.includeSubdomains") { () throws(ChooserError) in
                try store.rememberSite(host, app: app, scope: scope)
            }
        }
        routes.delete("choices/sites/:host") { _, context in
            let store = try store()
            let host = try host(context)
            let forgotten = try call(context) { () throws(ChooserError) in try store.forgetSite(host) }
            guard let forgotten else {
                throw APIError(.notFound, ChooserError.Code.noSiteChoice.rawValue, "no app is remembered for \(host)")
            }
            return forgotten
        }
        return routes
    }

    /// The store, or `404` when the server keeps none.
    private func store() throws -> ChoicesStore {
        guard let choices else {
            throw APIError(
                .notFound,
                "E_NO_CHOICES_STORE",
                "this server keeps no site choices: start it with switchyard serve --choices FILE"
            )
        }
        return choices
    }

    /// The `{host}` of the path, percent-decoded.
    private func host(_ context: SwitchyardRequestContext) throws -> String {
        let raw = context.parameters.get("host") ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// Runs a store call: a bad site is `400` (a public suffix's path is `subdomainsPath`, the body field that asked
    /// for subdomains), a store failure `500` without the server's file path (logged).
    private func call<T>(
        _ context: SwitchyardRequestContext,
        subdomainsPath: String? = nil,
        _ body: () throws(ChooserError) -> T
    ) throws -> T {
        do {
            return try body()
        } catch {
            switch error.code {
            case .store:
                context.logger.error("choices store failed", metadata: ["error": "\(error.message)"])
                throw APIError(
                    .internalServerError,
                    error.code.rawValue,
                    "the choices store failed; the error is logged"
                )
            case .publicSuffix:
                throw APIError(.badRequest, error.code.rawValue, error.message, path: subdomainsPath)
            default:
                throw APIError(.badRequest, error.code.rawValue, "the host in the path: \(error.message)")
            }
        }
    }
}

/// The body of `PUT /v1/choices/sites/{host}`.
struct SiteChoiceRequest: Decodable {
    var app: String
    var includeSubdomains: Bool?

    private enum CodingKeys: String, CodingKey, CaseIterable { case app, includeSubdomains }

    /// Decodes the body; another key is `400 E_UNKNOWN_FIELD` (``BodyFields``).
    init(from decoder: any Decoder) throws {
        try BodyFields.requireKnown(Set(CodingKeys.allCases.map(\.rawValue)), in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        app = try container.decode(String.self, forKey: .app)
        includeSubdomains = try container.decodeIfPresent(Bool.self, forKey: .includeSubdomains)
    }
}
