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
    /// The rules it answers with.
    package let store: RuleSetStore
    /// Its metrics.
    package let metrics: ServerMetrics
    /// Its fetcher, script engine and redirect layer.
    package let network: ServerNetwork
    /// The app chooser's catalog (bundled data), for `/v1/choose`.
    package let catalog: AppCatalog
    /// Loads and vets the rules (a URL through the download cache).
    let loader: RuleSetLoader
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
        loader = RuleSetLoader(policy: .serving, downloader: downloader)
        let loaded = try await loader.load(configuration.manifest)
        var rules = loaded.rules
        // There is no previous layer to keep serving at start: a layer that is refused stops the server.
        if let path = configuration.userLayer {
            rules = try loader.apply(userLayer: path, over: rules)
        }
        network = ServerNetwork(fetcher: stack, maximumScriptRequests: configuration.maximumScriptRequests)
        catalog = (try? AppCatalog.bundled()) ?? AppCatalog()
        store = RuleSetStore(
            network.resolver(for: rules, stages: configuration.stages),
            identity: RuleSetStore.identity(of: loaded),
            fileSignature: Self.signature(of: configuration.manifest),
            userLayerSignature: configuration.userLayer.flatMap(FileSignature.of),
            testTimeLimit: configuration.timeLimit
        )
        metrics.recordGeneration(store.generation)
        self.logger.info(
            "rules loaded",
            metadata: ["source": "\(configuration.manifest)", "actions": "\(loaded.rules.manifest.actions.count)"]
        )
        logUserLayer(rules.userLayer)
    }

    /// The Hummingbird application: the routes, the connection limits, and the rule reloader as a service.
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
        logger.notice("stopped", metadata: ["generation": "\(store.generation)"])
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
        let reloader = await RuleReloader(
            interval: configuration.reloadInterval,
            trapsHangUp: reloadsOnHangUp,
            reload: { await reload(reason: "SIGHUP") },
            reloadIfChanged: { await reloadIfChanged() }
        )
        return Application(
            router: router,
            server: limits.serverBuilder(counter: connections) { reason in metrics.recordRefusal(reason) },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "switchyard"
            ),
            services: [reloader],
            onServerRunning: { channel in await onServerRunning?(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Reloads the rules now: the manifest, then the user layer file. A manifest that fails to load or to pass its
    /// own deterministic tests is refused and the current rules keep serving; a user layer with errors is refused
    /// and the previous layer keeps serving.
    @discardableResult
    package func reload(reason: String) async -> Bool {
        let manifestAccepted = await reloadManifest(reason: reason)
        guard configuration.userLayer != nil else { return manifestAccepted }
        return reloadUserLayer(reason: reason) && manifestAccepted
    }

    /// Reloads the manifest, keeping the serving user layer over it (the layer survives manifest updates). With
    /// `unlessUnchanged` (the timer's reloads), a manifest with the serving one's bytes makes no new generation: only
    /// its file's signature is recorded (a file touched, or one whose signature was taken while it was being written).
    @discardableResult
    func reloadManifest(reason: String, unlessUnchanged: Bool = false) async -> Bool {
        let signature = Self.signature(of: configuration.manifest)
        do {
            let loaded = try await loader.load(configuration.manifest)
            if unlessUnchanged, RuleSetStore.identity(of: loaded) == store.current.manifestIdentity {
                store.recordFileSignature(signature)
                return true
            }
            var rules = loaded.rules
            if let layer = store.rules.userLayer {
                rules = try loader.apply(layer.loaded, over: rules, source: layer.file ?? "user layer")
                logUserLayer(rules.userLayer)
            }
            store.replace(
                with: rules,
                identity: RuleSetStore.identity(of: loaded),
                fileSignature: signature
            )
            metrics.recordReload(.accepted)
            metrics.recordGeneration(store.generation)
            logger.info("rules reloaded", metadata: ["reason": "\(reason)", "generation": "\(store.generation)"])
            return true
        } catch {
            store.recordRejection(error.description, fileSignature: signature)
            metrics.recordReload(.rejected)
            logger.error(
                "reload refused; the previous rules keep serving",
                metadata: ["reason": "\(reason)", "error": "\(error.description)"]
            )
            return false
        }
    }

    /// Reads the user layer file again and applies it over the serving manifest; a layer with errors is refused
    /// (each located error logged) and the previous one keeps serving.
    @discardableResult
    func reloadUserLayer(reason: String) -> Bool {
        guard let path = configuration.userLayer else { return false }
        let signature = FileSignature.of(path)
        do {
            let rules = try loader.apply(userLayer: path, over: store.rules.withoutUserLayer)
            store.replace(with: rules, userLayerSignature: signature)
            metrics.recordReload(.accepted)
            metrics.recordGeneration(store.generation)
            logger.info("user layer reloaded", metadata: ["reason": "\(reason)", "generation": "\(store.generation)"])
            logUserLayer(rules.userLayer)
            return true
        } catch {
            store.recordUserLayerRejection(error.description, signature: signature)
            metrics.recordReload(.rejected)
            logger.error(
                "user layer refused; the previous one keeps serving",
                metadata: [
                    "reason": "\(reason)", "error": "\(error.description)",
                    "diagnostics": "\(error.diagnostics.map(\.description).joined(separator: "\n"))",
                ]
            )
            return false
        }
    }

    /// Logs the layer's warnings (a reference the manifest no longer has, an unknown key).
    func logUserLayer(_ layer: AppliedUserLayer?) {
        for diagnostic in layer?.diagnostics ?? [] {
            logger.warning("user layer: \(diagnostic.description)")
        }
    }

    /// Reloads if the manifest or the user layer changed: a file whose size or modification time differs from the
    /// serving rules', or a URL whose conditional GET brings a new copy.
    func reloadIfChanged() async {
        await reloadManifestIfChanged()
        if let path = configuration.userLayer, FileSignature.of(path) != store.userLayerSignature {
            reloadUserLayer(reason: "user layer changed")
        }
    }

    private func reloadManifestIfChanged() async {
        switch configuration.manifest {
        case .file:
            if Self.signature(of: configuration.manifest) != store.fileSignature {
                await reloadManifest(reason: "file changed", unlessUnchanged: true)
            }
        case .url(let url):
            guard let downloader = loader.downloader,
                let download = try? await downloader.load(
                    url: url,
                    validate: { data in _ = try ManifestLoader().load(Array(data), file: url) }
                ),
                download.source == .network
            else { return }
            await reloadManifest(reason: "manifest URL changed")
        case .bundled:
            return
        }
    }

    static func signature(of source: ManifestSource) -> FileSignature? {
        if case .file(let path) = source { return FileSignature.of(path) }
        return nil
    }
}
