import Dispatch
import Foundation
import Hummingbird
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import Logging

/// `switchyard serve`: the HTTP API and playground over one rule set that reloads without dropping requests.
public struct SwitchyardServer: Sendable {
    /// How the server runs.
    public let configuration: ServerConfiguration
    /// The rules it answers with.
    public let store: RuleSetStore
    /// Its metrics.
    public let metrics: ServerMetrics
    /// Its fetcher, script engine and short-link cache.
    public let network: ServerNetwork
    /// Loads and vets the rules (a URL through the download cache).
    let loader: RuleSetLoader
    /// Open connections, bounded by the configuration's ``ConnectionLimits``.
    let connections = ConnectionCounter()
    let logger: Logger

    /// Loads and vets the initial rules; a bad initial manifest is an error (there is nothing older to serve).
    public init(
        configuration: ServerConfiguration,
        logger: Logger = Logger(label: "switchyard.server")
    ) async throws(RuleSetLoadError) {
        self.configuration = configuration
        self.logger = logger
        let fetcher: (any LinkFetching)? =
            configuration.networkEnabled
            ? LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: configuration.allowPrivateAddresses)) : nil
        // A manifest URL is checked every reload interval (conditional GET); the cache keeps the last good copy.
        let downloader = fetcher.map {
            CachedDownloader(
                fetcher: $0,
                directory: configuration.cacheDirectory,
                lifetime: configuration.reloadInterval
            )
        }
        loader = RuleSetLoader(policy: .serving, downloader: downloader)
        let loaded = try await loader.load(configuration.manifest)
        metrics = ServerMetrics()
        network = ServerNetwork(fetcher: fetcher)
        store = RuleSetStore(
            network.resolver(for: loaded.rules),
            testReport: loaded.testReport,
            fileSignature: Self.signature(of: configuration.manifest)
        )
        logger.info(
            "rules loaded",
            metadata: ["source": "\(configuration.manifest)", "actions": "\(loaded.rules.manifest.actions.count)"]
        )
    }

    /// The Hummingbird application (for running, or for in-process tests with HummingbirdTesting).
    public func application(onServerRunning: (@Sendable (Int) async -> Void)? = nil) -> some ApplicationProtocol {
        let routes = ServerRoutes(store: store, metrics: metrics, configuration: configuration, network: network)
        var limits = configuration.connectionLimits
        limits.maximumBodyBytes = configuration.maximumBodyBytes
        let metrics = metrics
        return Application(
            router: routes.router(),
            server: limits.serverBuilder(counter: connections) { reason in
                metrics.increment("connections_refused_\(reason.replacingOccurrences(of: " ", with: "_"))_total")
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "switchyard"
            ),
            onServerRunning: { channel in await onServerRunning?(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Runs until SIGINT/SIGTERM (graceful shutdown: in-flight requests finish), reloading the rules on SIGHUP and
    /// when the manifest file changes.
    public func run(onServerRunning: (@Sendable (Int) async -> Void)? = nil) async throws {
        let reloads = Task { await watchForReloads() }
        defer { reloads.cancel() }
        try await application(onServerRunning: onServerRunning).runService()
    }

    /// Reloads the rules now. A manifest that fails to load or to pass its own deterministic tests is refused and
    /// the current rules keep serving.
    @discardableResult
    public func reload(reason: String) async -> Bool {
        let signature = Self.signature(of: configuration.manifest)
        do {
            let loaded = try await loader.load(configuration.manifest)
            store.replace(
                with: network.resolver(for: loaded.rules),
                testReport: loaded.testReport,
                fileSignature: signature
            )
            metrics.recordReload("accepted")
            logger.info("rules reloaded", metadata: ["reason": "\(reason)", "generation": "\(store.generation)"])
            return true
        } catch {
            store.recordRejection(error.description, fileSignature: signature)
            metrics.recordReload("rejected")
            logger.error(
                "reload refused; the previous rules keep serving",
                metadata: ["reason": "\(reason)", "error": "\(error.description)"]
            )
            return false
        }
    }

    private func watchForReloads() async {
        let hangups = SignalWatcher(signal: SIGHUP)
        defer { hangups.cancel() }
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.reloadInterval)
            if hangups.consume() {
                await reload(reason: "SIGHUP")
            } else if case .file = configuration.manifest,
                Self.signature(of: configuration.manifest) != store.fileSignature
            {
                await reload(reason: "file changed")
            } else if case .url(let url) = configuration.manifest, let downloader = loader.downloader,
                let download = try? await downloader.load(
                    url: url,
                    validate: { data in _ = try ManifestLoader().load(Array(data), file: url) }
                ),
                download.source == .network
            {
                await reload(reason: "manifest URL changed")
            }
        }
    }

    static func signature(of source: ManifestSource) -> FileSignature? {
        if case .file(let path) = source { return FileSignature.of(path) }
        return nil
    }
}

/// Notices a Unix signal (SIGHUP) without a handler that could interrupt anything: a dispatch source sets a flag
/// that the reload loop consumes.
final class SignalWatcher: @unchecked Sendable {
    private let source: any DispatchSourceSignal
    private let lock = NSLock()
    private var pending = false

    init(signal number: Int32) {
        signal(number, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.pending = true }
        }
        source.resume()
    }

    /// Whether the signal arrived since the last call.
    func consume() -> Bool {
        lock.withLock {
            defer { pending = false }
            return pending
        }
    }

    func cancel() { source.cancel() }
}
