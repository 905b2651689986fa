import Foundation
import Synchronization

/// Runs rules' JavaScript (`script2`, legacy `script`) in JavaScriptCore, the way the Opener app does: a script
/// defines `process(url, completionHandler)`; the host calls it and waits for the completion.
///
/// Scripts are checked and registered once (``compile(_:kind:name:)``) and run on a pool of worker threads, each
/// with its own context group and a warm context per script. Every run has a wall-clock limit enforced by a
/// watchdog; a runaway script occupies one worker until its limit, and while every worker is busy another is
/// started (up to a bound), so unrelated runs are not held up. `run` never blocks the Swift concurrency pool.
public final class ScriptRunner: Sendable {
    /// The limits.
    public let configuration: ScriptConfiguration

    private let pool: WorkerPool

    /// Creates a runner; worker threads start on first use and end when the runner is released.
    public init(configuration: ScriptConfiguration = ScriptConfiguration()) {
        self.configuration = configuration
        pool = WorkerPool(configuration: configuration)
    }

    deinit {
        pool.shutDown()
    }

    /// Checks that the source parses and mentions a `process` function, and registers it for reuse. The same source
    /// gets the same registration (and the same warm contexts), and is checked only the first time: a rule set
    /// reloaded with mostly the same scripts compiles only the new ones.
    public func compile(_ source: String, kind: ScriptKind, name: String) throws(ScriptError) -> CompiledScript {
        if let id = pool.registeredIdentifier(for: source, kind: kind) {
            return CompiledScript(id: id, source: source, kind: kind, name: name)
        }
        if let problem = ScriptSyntaxChecker.shared.check(source) {
            throw ScriptError(
                code: .syntax,
                rule: name,
                message: "syntax error: \(problem.message)",
                line: problem.line
            )
        }
        guard ScriptSyntaxChecker.mentionsProcess(source) else {
            throw ScriptError(
                code: .noProcess,
                rule: name,
                message: "the script defines no function process(url, completionHandler)"
            )
        }
        return CompiledScript(id: pool.identifier(for: source, kind: kind), source: source, kind: kind, name: name)
    }

    /// Runs `process(input, completion)` within `timeLimit` (default: the configuration's). `network == nil` means
    /// offline: `httpRequest` throws in JavaScript and a script that tried reports ``ScriptError/Code/needsNetwork``.
    public func run(
        _ script: CompiledScript,
        input: String,
        network: (any ScriptNetwork)?,
        timeLimit: Duration? = nil
    ) async -> ScriptResult {
        await run(
            script,
            input: input,
            network: network,
            deadline: ContinuousClock.now + (timeLimit ?? configuration.timeLimit)
        )
    }

    /// Runs `process(input, completion)`, stopping it at `deadline` (the caller's whole resolution may share it).
    public func run(
        _ script: CompiledScript,
        input: String,
        network: (any ScriptNetwork)?,
        deadline: ContinuousClock.Instant
    ) async -> ScriptResult {
        await withCheckedContinuation { continuation in
            pool.enqueue(
                ScriptWorker.Job(script: script, input: input, network: network, deadline: deadline) { result in
                    continuation.resume(returning: result)
                }
            )
        }
    }

    /// Threads started so far (for tests and diagnostics).
    public var workerCount: Int { pool.workerCount }
}

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
        var queue: [ScriptWorker.Job] = []
        var idle = 0
        var workers = 0
        var held = 0
        var shuttingDown = false
        var nextScriptID = 1
        var scriptIDs: [ScriptKey: Int] = [:]

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
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    init(configuration: ScriptConfiguration) {
        self.configuration = configuration
    }

    /// The identifier of a source registered before, if any.
    func registeredIdentifier(for source: String, kind: ScriptKind) -> Int? {
        state.withLock { $0.scriptIDs[ScriptKey(source: source, kind: kind)] }
    }

    func identifier(for source: String, kind: ScriptKind) -> Int {
        state.withLock { state -> Int in
            let key = ScriptKey(source: source, kind: kind)
            if let id = state.scriptIDs[key] { return id }
            let id = state.nextScriptID
            state.nextScriptID += 1
            state.scriptIDs[key] = id
            return id
        }
    }

    func enqueue(_ job: ScriptWorker.Job) {
        let startWorker = state.withLock { state -> Bool in
            state.queue.append(job)
            return state.reserveWorker(configuration)
        }
        if startWorker { startWorkerThread() }
        wakeUp.signal()
    }

    private func startWorkerThread() {
        ScriptWorker(pool: self, configuration: configuration).start()
    }

    /// Blocks a worker until a job is queued; nil when the pool shuts down or has more workers making progress
    /// than ``ScriptConfiguration/workerCount``.
    func nextJob() -> ScriptWorker.Job? {
        while true {
            let next = state.withLock { state -> (job: ScriptWorker.Job?, exit: Bool) in
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

    /// A worker's current run is held (long-running script or a network wait): it stops counting as making progress,
    /// and a worker is started for queued jobs if none is idle.
    func hold() {
        let startWorker = state.withLock { state -> Bool in
            state.held += 1
            return state.reserveWorker(configuration)
        }
        if startWorker { startWorkerThread() }
    }

    /// A worker finished a job and is idle again (`wasHeld`: the run had been counted as held).
    func finished(wasHeld: Bool) {
        state.withLock { state in
            state.idle += 1
            if wasHeld { state.held -= 1 }
        }
    }

    func shutDown() {
        state.withLock { $0.shuttingDown = true }
        wakeUp.signal()
    }

    var workerCount: Int { state.withLock { $0.workers } }
}
