import Dispatch
import Foundation
import Synchronization

/// The job queue and worker threads behind a ``ScriptRunner``. Workers hold the pool (not the runner), and the
/// runner shuts the pool down when it goes away: idle workers then end their threads.
///
/// Each worker has its own JavaScriptCore VM with a warm context per script (tens of MB once it has seen a real
/// manifest), so the pool keeps as few as keep the cores busy: a worker is started for a queued job only while
/// fewer than ``ScriptConfiguration/workerCount`` workers are making progress. A worker whose run is *held* (its
/// script has used a watchdog period of CPU time, or it waits on the network) does not count, so a runaway script
/// makes room for another worker within one watchdog period. Once more workers make progress than
/// `workerCount` (the held run ended), the next to look for work ends, VM and all: under steady traffic every worker
/// keeps getting jobs, so waiting for an idle one would never shrink the pool.
final class WorkerPool: Sendable {
    private struct State {
        var queue: [ScriptBatch] = []
        var idle = 0
        var workers = 0
        var held = 0
        /// Runs let go at their deadline whose threads still run them (``ScriptStopping/abandon(maximumAbandoned:)``).
        var abandoned = 0
        var shuttingDown = false
        var nextScriptID = 1
        var registrations: [ScriptKey: ScriptRegistration] = [:]

        /// Counts a new worker in (as idle, so that the next job does not start another) when a queued job has no
        /// idle worker and too few workers are making progress.
        mutating func reserveWorker(_ configuration: ScriptConfiguration) -> Bool {
            guard !shuttingDown, !queue.isEmpty, idle == 0, workers - held < configuration.workerCount,
                workers < configuration.maximumWorkers
            else { return false }
            workers += 1
            idle += 1
            return true
        }
    }

    private struct ScriptKey: Hashable {
        var source: String
        var kind: ScriptKind
    }

    let configuration: ScriptConfiguration
    /// The watchdog of abandon mode (nil when runs are terminated in their VM).
    let monitor: RunMonitor?
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    init(configuration: ScriptConfiguration) {
        self.configuration = configuration
        monitor =
            configuration.stopping.maximumAbandoned == nil ? nil : RunMonitor(period: configuration.watchdogPeriod)
    }

    /// The registration of a source registered before, if any.
    func registration(for source: String, kind: ScriptKind) -> ScriptRegistration? {
        state.withLock { $0.registrations[ScriptKey(source: source, kind: kind)] }
    }

    /// Registers `source` with the shortcut its analysis found, under a new identifier; a source registered meanwhile
    /// keeps the registration it has.
    func register(_ source: String, kind: ScriptKind, shortcut: ScriptShortcut) -> ScriptRegistration {
        state.withLock { state -> ScriptRegistration in
            let key = ScriptKey(source: source, kind: kind)
            if let registered = state.registrations[key] { return registered }
            let registration = ScriptRegistration(id: state.nextScriptID, shortcut: shortcut)
            state.nextScriptID += 1
            state.registrations[key] = registration
            return registration
        }
    }

    /// Queues `batch`; false when it cannot run: as many abandoned runs as allowed are still running.
    func enqueue(_ batch: ScriptBatch) -> Bool {
        let (accepted, startWorker) = state.withLock { state -> (Bool, Bool) in
            if let maximum = configuration.stopping.maximumAbandoned, state.abandoned >= maximum {
                return (false, false)
            }
            state.queue.append(batch)
            return (true, state.reserveWorker(configuration))
        }
        guard accepted else { return false }
        if startWorker { startWorkerThread() }
        wakeUp.signal()
        return true
    }

    /// Queues the runs left in `batch` again, for another worker (the one running it is held or gone); runs that
    /// cannot be queued are answered as not run.
    private func requeue(_ batch: ScriptBatch) {
        guard batch.hasPending, !enqueue(batch) else { return }
        answerNotRun(batch)
    }

    /// Answers every run left in `batch` as not run: the pool holds as many abandoned runs as it allows.
    func answerNotRun(_ batch: ScriptBatch) {
        for job in batch.takeAll() {
            job.finish(
                ScriptResult(
                    output: .failure(
                        ScriptError(
                            code: .exhausted,
                            rule: job.script.name,
                            message:
                                "not run: \(abandonedCount) abandoned scripts are still running, as many as allowed"
                        )
                    ),
                    usedNetwork: false,
                    duration: .zero
                )
            )
        }
    }

    private func startWorkerThread() {
        ScriptWorker(pool: self, configuration: configuration).start()
    }

    /// Blocks a worker until a batch is queued; nil when the pool shuts down or has more workers making progress
    /// than ``ScriptConfiguration/workerCount``.
    func nextBatch() -> ScriptBatch? {
        while true {
            let next = state.withLock { state -> (job: ScriptBatch?, exit: Bool) in
                if state.shuttingDown || state.workers - state.held > configuration.workerCount {
                    state.workers -= 1
                    state.idle -= 1
                    return (nil, true)
                }
                if !state.queue.isEmpty {
                    state.idle -= 1
                    return (state.queue.removeFirst(), false)
                }
                return (nil, false)
            }
            if let job = next.job { return job }
            if next.exit {
                wakeUp.signal()  // pass on a wake-up this worker may have taken from a queued job or the shutdown
                return nil
            }
            wakeUp.wait()
        }
    }

    /// A worker's current run is held (a long-running script): it stops counting as making progress, the runs left in
    /// its `batch` are queued again, and a worker is started for queued jobs if none is idle.
    func hold(_ batch: ScriptBatch) {
        let startWorker = state.withLock { state -> Bool in
            state.held += 1
            return state.reserveWorker(configuration)
        }
        if startWorker { startWorkerThread() }
        requeue(batch)
    }

    /// A worker finished a job and is idle again (`wasHeld`: the run had been counted as held).
    func finished(wasHeld: Bool) {
        state.withLock { state in
            state.idle += 1
            if wasHeld { state.held -= 1 }
        }
    }

    /// The monitor let a run go at its deadline: its worker no longer counts (a new one is started for the queue if
    /// needed), and the caller gets its timeout now.
    func abandon(_ ticket: RunTicket, wasHeld: Bool) {
        let startWorker = state.withLock { state -> Bool in
            state.workers -= 1
            if wasHeld { state.held -= 1 }
            state.abandoned += 1
            return state.reserveWorker(configuration)
        }
        if startWorker { startWorkerThread() }
        requeue(ticket.batch)
        let rule = ticket.job.script.name
        ticket.job.finish(
            ScriptResult(
                output: .failure(
                    ScriptError(
                        code: .timeout,
                        rule: rule,
                        message: "the script ran past its time limit and was abandoned (it runs on until it ends)"
                    )
                ),
                usedNetwork: false,
                duration: ContinuousClock.now - ticket.start
            )
        )
    }

    /// An abandoned run's script ended: its thread and VM are gone.
    func abandonedRunEnded() {
        state.withLock { $0.abandoned -= 1 }
    }

    func shutDown() {
        state.withLock { $0.shuttingDown = true }
        monitor?.stop()
        wakeUp.signal()
    }

    var workerCount: Int { state.withLock { $0.workers } }

    /// Abandoned runs whose threads still run them.
    var abandonedCount: Int { state.withLock { $0.abandoned } }
}

/// What registering a source once gives every rule set that has it: its identifier (and so its warm contexts) and its
/// analysis (``ScriptShortcut``), so a reload compiles and analyses only the sources it has not seen.
struct ScriptRegistration: Sendable {
    let id: Int
    let shortcut: ScriptShortcut
}
