import AppChooser
import Foundation
import Hummingbird
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import Logging
import Prometheus

/// `switchyard serve`: the HTTP API and playground over one rule set that reloads without dropping requests.
package struct SwitchyardServer: Sendable {
    /// How the server runs.
    package let configuration: ServerConfiguration
    /// Its rules: the store they are served from, their loader and their reloading, a service of the application.
    package let rules: RuleService
    /// Its metrics.
    package let metrics: ServerMetrics
    /// Its fetcher, script engine and redirect layer.
    package let network: ServerNetwork
    /// The app chooser's catalog (bundled data), for `/v1/choose`.
    package let catalog: AppCatalog
    /// Open connections, bounded by the configuration's ``ConnectionLimits``.
    let connections = ConnectionCounter()
    let logger: Logger

    /// Loads and vets the initial rules; a bad initial manifest is an error (there is nothing older to serve).
    ///
    /// - Parameter logger: Where the server logs (requests, reloads); by default a logger through the logging
    ///   system, or in the configuration's ``ServerConfiguration/logFormat`` when it sets one.
    package init(
        configuration: ServerConfiguration,
        logger: Logger? = nil
    ) async throws(RuleSetLoadError) {
        let metrics = ServerMetrics()
        try await self.init(
            configuration: configuration,
            logger: logger,
            metrics: metrics,
            stack: configuration.makeStack(metrics: metrics)
        )
    }

    /// Loads and vets the initial rules as ``init(configuration:logger:)`` does, with the server's `metrics` and the
    /// fetching `stack` made from the configuration beforehand (``ServerConfiguration/makeStack(metrics:)``), so
    /// that what is downloaded before the server starts (a cleaning catalog) goes through the same stack.
    package init(
        configuration: ServerConfiguration,
        logger: Logger? = nil,
        metrics serverMetrics: ServerMetrics,
        stack: FetchingStack?
    ) async throws(RuleSetLoadError) {
        self.configuration = configuration
        self.logger =
            logger
            ?? configuration.logFormat.map { format in Logger(label: "switchyard.server") { format.handler(label: $0) }
            }
            ?? Logger(label: "switchyard.server")
        metrics = serverMetrics
        // A manifest URL is checked every reload interval (conditional GET) through the stack, whose HTTP cache keeps
        // it; the last good copy is kept across runs in the cache folder.
        let downloader = stack.map {
            CachedDownloader(stack: $0, directory: configuration.cacheDirectory, lifetime: configuration.reloadInterval)
        }
        let loader = RuleSetLoader(policy: .serving, downloader: downloader)
        let loaded = try await loader.load(configuration.manifest)
        var rules = loaded.rules
        // There is no previous layer to keep serving at start: a layer that is refused stops the server.
        if let path = configuration.userLayer {
            rules = try loader.apply(userLayer: path, over: rules)
        }
        network = ServerNetwork(fetcher: stack, maximumScriptRequests: configuration.maximumScriptRequests)
        catalog = (try? AppCatalog.bundled()) ?? AppCatalog()
        let store = RuleSetStore(
            network.resolver(for: rules, stages: configuration.stages),
            identity: RuleSetStore.identity(of: loaded),
            fileSignature: RuleService.signature(of: configuration.manifest),
            userLayerSignature: configuration.userLayer.flatMap(FileSignature.of),
            testTimeLimit: configuration.timeLimit
        )
        self.rules = RuleService(
            store: store,
            loader: loader,
            configuration: configuration,
            metrics: metrics,
            logger: self.logger
        )
        metrics.recordGeneration(store.generation)
        self.logger.info(
            "rules loaded",
            metadata: ["source": "\(configuration.manifest)", "actions": "\(loaded.rules.manifest.actions.count)"]
        )
        self.rules.logUserLayer(rules.userLayer)
    }

    /// The Hummingbird application: the routes, the connection limits, and the rules (``RuleService``) as a service.
    ///
    /// - Parameters:
    ///   - reloadsOnHangUp: Whether SIGHUP reloads the rules; the signal is trapped before this returns. A signal
    ///     handler is process-wide, so in-process tests that run several applications leave it off;
    ///     ``run(onServerRunning:)`` turns it on.
    ///   - onServerRunning: Called with the port once the server listens.
    package func application(
        reloadsOnHangUp: Bool = false,
        onServerRunning: (@Sendable (Int) async -> Void)? = nil
    ) async -> some ApplicationProtocol {
        await application(router: router(), reloadsOnHangUp: reloadsOnHangUp, onServerRunning: onServerRunning)
    }

    /// Runs until SIGINT/SIGTERM (graceful shutdown: in-flight requests finish, then the reloader stops, then the
    /// connections kept for upstream hops are shut down), reloading the rules on SIGHUP and when the manifest
    /// changes; logs `stopped` when it has, so a log shows the end of a run as it shows its start.
    package func run(onServerRunning: (@Sendable (Int) async -> Void)? = nil) async throws {
        do {
            try await application(reloadsOnHangUp: true, onServerRunning: onServerRunning).runService()
        } catch {
            await LiveFetcher.shutDownKeptConnections()
            throw error
        }
        await LiveFetcher.shutDownKeptConnections()
        logger.notice("stopped", metadata: ["generation": "\(rules.store.generation)"])
    }

    /// The application over `router`.
    func application(
        router: Router<SwitchyardRequestContext>,
        reloadsOnHangUp: Bool,
        onServerRunning: (@Sendable (Int) async -> Void)?
    ) async -> some ApplicationProtocol {
        var limits = configuration.connectionLimits
        limits.maximumBodyBytes = configuration.maximumBodyBytes
        limits.maximumRequestTargetBytes = configuration.maximumRequestTargetBytes
        let metrics = metrics
        let rules = reloadsOnHangUp ? await self.rules.trappingHangUps() : self.rules
        return Application(
            router: router,
            server: limits.serverBuilder(counter: connections) { reason in metrics.recordRefusal(reason) },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "switchyard"
            ),
            services: [rules],
            onServerRunning: { channel in await onServerRunning?(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}
