import Hummingbird
import LinkResolver

extension SwitchyardServer {
    /// The router: the middleware every request passes, one route collection per area, then the `405` answers
    /// derived from the routes registered. Every route is described in `/openapi.json` (`OpenAPITests` checks
    /// both ways).
    ///
    /// - Parameter extraRoutes: More routes at the root, registered before the `405` table is read (for tests).
    func router(
        adding extraRoutes: [RouteCollection<SwitchyardRequestContext>] = []
    ) -> Router<SwitchyardRequestContext> {
        // HEAD is answered on every GET route (its headers, no body): what a load balancer's check may send.
        let router = Router(context: SwitchyardRequestContext.self, options: .autoGenerateHeadEndpoints)
        // Middleware applies to the routes added after it, and to the not-found answer.
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: ErrorDocumentMiddleware())
        router.add(middleware: UploadLimitMiddleware(limit: configuration.maximumBodyBytes))
        var files = [configuration.userLayer].compactMap { $0 }
        if case .file(let path) = configuration.manifest { files.append(path) }
        router.addRoutes(OperationsRoutes(store: rules.store, metrics: metrics, files: files).collection)
        router.addRoutes(PlaygroundRoutes.collection)
        let caching = HTTPCaching(maxAge: configuration.cacheMaxAge)
        router.addRoutes(OpenAPIRoutes(caching: caching).collection)
        router.addRoutes(
            ResolveRoutes(store: rules.store, configuration: configuration, caching: caching).collection,
            atPath: "/v1"
        )
        router.addRoutes(RuleSetRoutes(store: rules.store, caching: caching).collection, atPath: "/v1")
        router.addRoutes(
            ClaimsRoutes(store: rules.store, configuration: configuration, caching: caching).collection,
            atPath: "/v1"
        )
        router.addRoutes(PredictRoutes(store: rules.store, configuration: configuration).collection, atPath: "/v1")
        router.addRoutes(XCallbackRoutes.collection, atPath: "/v1")
        router.addRoutes(ChooserRoutes(catalog: catalog, caching: caching).collection, atPath: "/v1")
        router.addRoutes(SiteChoiceRoutes(choices: configuration.choices, rules: rules.store).collection, atPath: "/v1")
        for routes in extraRoutes { router.addRoutes(routes) }
        router.addMethodNotAllowed(headFollowsGet: true)
        return router
    }
}
