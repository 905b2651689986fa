import AppChooser
import Hummingbird
import HummingbirdCore
import LinkFetching
import LinkRules

/// `GET /v1/choose?type=twitter&action=show_profile&param=profile_screenname=KarlTheFog&installed=a,b`: the app
/// picker's model over the chooser's catalog (no choice is stored by the server: a client remembers its user's);
/// `GET /v1/app-types`: what may be asked for (the catalog's types, their actions, parameters and apps). Both are
/// made from the bundled catalog and the query alone, and cached as ``HTTPCaching`` says.
struct ChooserRoutes {
    let catalog: AppCatalog
    let caching: HTTPCaching

    /// The routes, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("choose") { request, context in
            _ = try QueryParameters(request.uri.query, known: ["type", "action", "param", "installed"], link: nil)
            let tag = EntityTag(madeFrom: ["choose", request.uri.query ?? ""])
            return try await caching.answer(request, context: context, tag: tag) {
                try choose(request.uri.queryParameters)
            }
        }
        routes.get("app-types") { request, context in
            try await caching.answer(request, context: context, tag: EntityTag(madeFrom: ["app-types"])) {
                AppTypeList(catalog)
            }
        }
        return routes
    }

    func choose(_ query: FlatDictionary<Substring, Substring>) throws -> PickerModel {
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
        let installed = catalog.installation(query["installed"].map { InstalledApps(list: String($0)) })
        do throws(ChooserError) {
            return try AppPicker(catalog: catalog, installed: installed, store: nil)
                .model(appType: String(type), action: String(action), parameters: parameters)
        } catch {
            throw APIError(
                error.code == .unknownType || error.code == .unknownAction ? .notFound : .badRequest,
                error.code.rawValue,
                // The message alone: the code is the error object's own field ("… [E_UNKNOWN_TYPE]" said it twice).
                error.message
            )
        }
    }
}
