import AsyncAlgorithms
import ServiceLifecycle
import UnixSignals

/// Reloads a server's rules while it runs: a `Service` in the application's service group, so it starts with the
/// server and stops at graceful shutdown (after the server has drained its requests).
///
/// Every ``interval`` it asks whether the manifest changed (a file's signature, a URL's conditional GET); on SIGHUP,
/// when it traps it, it reloads at once. The two are one sequence of triggers (swift-async-algorithms' `merge` of the
/// signals and a timer sequence, as swift-configuration's reloading provider merges its own). One reload runs at a
/// time: the ticks that fall due meanwhile are one tick, and a SIGHUP is never lost to a tick.
struct RuleReloader: Service {
    /// How often the manifest is checked.
    let interval: Duration
    /// The SIGHUPs to reload on, trapped when the reloader is made (before the server listens, so an early SIGHUP
    /// cannot end the process); trapping none in in-process tests, since a signal handler is process-wide.
    let hangUps: UnixSignalsSequence
    /// Reloads unconditionally (SIGHUP).
    let reload: @Sendable () async -> Void
    /// Reloads if the manifest changed (the timer).
    let reloadIfChanged: @Sendable () async -> Void

    /// Makes a reloader, trapping SIGHUP now if `trapsHangUp`.
    init(
        interval: Duration,
        trapsHangUp: Bool,
        reload: @escaping @Sendable () async -> Void,
        reloadIfChanged: @escaping @Sendable () async -> Void
    ) async {
        self.interval = interval
        hangUps = await UnixSignalsSequence(trapping: trapsHangUp ? [.sighup] : [])
        self.reload = reload
        self.reloadIfChanged = reloadIfChanged
    }

    /// What asks for a reload.
    private enum Trigger: Sendable {
        /// SIGHUP: reload now.
        case hangUp
        /// The timer: reload if the manifest changed.
        case tick
    }

    func run() async {
        let (reload, reloadIfChanged) = (reload, reloadIfChanged)
        // One sequence of triggers: the signals and the timer, merged (swift-async-algorithms). Each source runs at
        // most one trigger ahead while a reload runs, so ticks are coalesced and a signal waits its turn.
        let triggers = merge(
            hangUps.map { _ in Trigger.hangUp },
            AsyncTimerSequence(interval: interval, clock: .continuous).map { _ in Trigger.tick }
        )
        // Returns, without throwing, once graceful shutdown begins: the sequence ends when cancelled.
        await cancelWhenGracefulShutdown {
            for await trigger in triggers {
                switch trigger {
                case .hangUp: await reload()
                case .tick: await reloadIfChanged()
                }
            }
        }
    }
}
