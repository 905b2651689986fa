import Synchronization

/// Runs handed to the workers together: one resolution's scripts, queued once, run one after the other by the worker
/// that takes them, so a link with eight scripts costs one hand-over to a worker and one back, not eight of each.
///
/// A batch is not a lock-step: when one of its runs is *held* (it has used a watchdog period of CPU time) or
/// abandoned, the batch is queued again, and another worker takes the runs left while the long one goes on. Each run
/// keeps its own ticket, deadline and answer.
final class ScriptBatch: Sendable {
    private let jobs: Mutex<[ScriptWorker.Job]>

    /// A batch of `jobs`, run in order.
    init(_ jobs: [ScriptWorker.Job]) {
        self.jobs = Mutex(jobs.reversed())
    }

    /// The next run, or nil when every run has been taken.
    func next() -> ScriptWorker.Job? {
        jobs.withLock { $0.popLast() }
    }

    /// Whether runs are left to take.
    var hasPending: Bool { jobs.withLock { !$0.isEmpty } }

    /// Takes every run left (a pool that cannot run them answers them itself).
    func takeAll() -> [ScriptWorker.Job] {
        jobs.withLock { jobs in
            defer { jobs = [] }
            return jobs.reversed()
        }
    }
}
