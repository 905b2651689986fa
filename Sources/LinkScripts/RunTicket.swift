import Synchronization

/// One run of one job on a worker: whether it is *held* (it has used a watchdog period, or waits on the network) and
/// who ended it. The worker ends it when the script returns; in ``ScriptStopping/abandon(maximumAbandoned:)`` mode the
/// ``RunMonitor`` may end it first at the deadline. Exactly one of them wins, and only the winner answers the job.
final class RunTicket: Sendable {
    /// How a run ended, for the one that ended it.
    enum Ending: Equatable {
        /// The script returned in time (or was terminated in its VM): the worker answers the job.
        case finished(wasHeld: Bool)
        /// The monitor answered the job at the deadline and let the run go.
        case abandoned
    }

    private struct State {
        var held = false
        var ended = false
    }

    let job: ScriptWorker.Job
    /// The batch the run belongs to: the runs left in it go to another worker when this one is held.
    let batch: ScriptBatch
    let start: ContinuousClock.Instant
    private let pool: WorkerPool
    private let state = Mutex(State())

    init(job: ScriptWorker.Job, batch: ScriptBatch, pool: WorkerPool) {
        self.job = job
        self.batch = batch
        self.pool = pool
        start = .now
    }

    /// The run stops counting as making progress; the pool may start a worker for the jobs behind it, the runs left
    /// in its batch among them.
    func hold() {
        let first = state.withLock { state -> Bool in
            guard !state.held, !state.ended else { return false }
            state.held = true
            return true
        }
        if first { pool.hold(batch) }
    }

    var isHeld: Bool { state.withLock { $0.held } }

    /// The worker is done with the run: `.finished` when the job is still the worker's to answer.
    func end() -> Ending {
        state.withLock { state in
            guard !state.ended else { return .abandoned }
            state.ended = true
            return .finished(wasHeld: state.held)
        }
    }

    /// The monitor lets the run go: whether it did (the worker had not ended it), and whether it was held.
    func abandon() -> (abandoned: Bool, wasHeld: Bool) {
        state.withLock { state in
            guard !state.ended else { return (false, state.held) }
            state.ended = true
            return (true, state.held)
        }
    }
}
