import AsyncAlgorithms
import LinkResolver
import LinkRules
import Logging
import ServiceLifecycle
import UnixSignals

/// The server's rules as a `Service` of its application: the store they are served from, the loader that vets every
/// new copy, and the reloading that replaces them while the server runs. It starts with the server and stops at
/// graceful shutdown (after the server has drained its requests).
///
/// Every ``interval`` it asks whether the manifest changed (a file's signature, a URL's conditional GET); on SIGHUP,
/// when it traps it (``trappingHangUps()``), it reloads at once. The two are one sequence of triggers
/// (swift-async-algorithms' `merge` of the signals and a timer sequence, as swift-configuration's reloading provider
/// merges its own). One reload runs at a time: the ticks that fall due meanwhile are one tick, and a SIGHUP is never
/// lost to a tick. The reloads themselves are in `RuleService+Reload.swift`.
package struct RuleService: Service {
    /// The rules being served, swapped whole on every accepted reload.
    package let store: RuleSetStore
    /// Loads and vets the rules (a URL through the download cache).
    let loader: RuleSetLoader
    /// Where the manifest comes from.
    let manifest: ManifestSource
    /// The user layer file over it, if any.
    let userLayer: String?
    /// How often the manifest is checked.
    let interval: Duration
    let metrics: ServerMetrics
    let logger: Logger
    /// The SIGHUPs to reload on: none, unless trapped (``trappingHangUps()``), since a signal handler is process-wide
    /// and in-process tests run several servers.
    private var hangUps: UnixSignalsSequence?

    /// The service over rules already loaded and installed in `store`.
    init(
        store: RuleSetStore,
        loader: RuleSetLoader,
        configuration: ServerConfiguration,
        metrics: ServerMetrics,
        logger: Logger
    ) {
        self.store = store
        self.loader = loader
        manifest = configuration.manifest
        userLayer = configuration.userLayer
        interval = configuration.reloadInterval
        self.metrics = metrics
        self.logger = logger
    }

    /// The same service, reloading on SIGHUP too; the signal is trapped before this returns (before the server
    /// listens, so an early SIGHUP cannot end the process).
    func trappingHangUps() async -> RuleService {
        var service = self
        service.hangUps = await UnixSignalsSequence(trapping: .sighup)
        return service
    }

    /// What asks for a reload.
    private enum Trigger: Sendable {
        /// SIGHUP: reload now.
        case hangUp
        /// The timer: reload if the manifest changed.
        case tick
    }

    package func run() async {
        // One sequence of triggers: the signals and the timer, merged (swift-async-algorithms). Each source runs at
        // most one trigger ahead while a reload runs, so ticks are coalesced and a signal waits its turn.
        let signals: UnixSignalsSequence
        if let hangUps { signals = hangUps } else { signals = await UnixSignalsSequence(trapping: []) }
        let triggers = merge(
            signals.map { _ in Trigger.hangUp },
            AsyncTimerSequence(interval: interval, clock: .continuous).map { _ in Trigger.tick }
        )
        // Returns, without throwing, once graceful shutdown begins: the sequence ends when cancelled.
        await cancelWhenGracefulShutdown {
            for await trigger in triggers {
                switch trigger {
                case .hangUp: await reload(reason: "SIGHUP")
                case .tick: await reloadIfChanged()
                }
            }
        }
    }
}
