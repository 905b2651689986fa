import ServiceLifecycle
import Synchronization
import UnixSignals

/// Reloads a server's rules while it runs: a `Service` in the application's service group, so it starts with the
/// server and stops at graceful shutdown (after the server has drained its requests).
///
/// Every ``interval`` it asks whether the manifest changed (a file's signature, a URL's conditional GET); on SIGHUP,
/// when it traps it, it reloads at once. One reload runs at a time: triggers that arrive meanwhile are coalesced
/// into one, and a pending SIGHUP is never lost to a timer tick.
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

    func run() async {
        let pending = PendingHangUp()
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (hangUps, interval, reload, reloadIfChanged) = (hangUps, interval, reload, reloadIfChanged)
        // Returns, without throwing, once graceful shutdown begins: the loops below end when cancelled.
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in hangUps {
                        pending.set()
                        wake.yield()
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        wake.yield()
                    }
                }
                for await _ in wakes {
                    if Task.isCancelled { break }
                    if pending.take() { await reload() } else { await reloadIfChanged() }
                }
                group.cancelAll()
            }
        }
    }
}

/// Whether a SIGHUP arrived since the last reload.
private final class PendingHangUp: Sendable {
    private let flag = Atomic(false)

    func set() { flag.store(true, ordering: .releasing) }

    func take() -> Bool { flag.exchange(false, ordering: .acquiringAndReleasing) }
}
