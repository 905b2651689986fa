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

    /// Checks that the source parses and mentions a `process` function, and registers it for reuse. Compile once
    /// per rule set: the same source gets the same registration (and the same warm contexts).
    public func compile(_ source: String, kind: ScriptKind, name: String) throws(ScriptError) -> CompiledScript {
        if let problem = ScriptSyntaxChecker.shared.check(source) {
            throw ScriptError(code: .syntax, rule: name, message: "syntax error: \(problem.message)", line: problem.line)
        }
        guard ScriptSyntaxChecker.mentionsProcess(source) else {
            throw ScriptError(code: .noProcess, rule: name, message: "the script defines no function process(url, completionHandler)")
        }
        return CompiledScript(id: pool.identifier(for: source, kind: kind), source: source, kind: kind, name: name)
    }

    /// Runs `process(input, completion)`. `network == nil` means offline: `httpRequest` throws in JavaScript and a
    /// script that tried reports ``ScriptError/Code/needsNetwork``.
    public func run(_ script: CompiledScript, input: String, network: (any ScriptNetwork)?, timeLimit: Duration? = nil) async -> ScriptResult {
        let deadline = ContinuousClock.now + (timeLimit ?? configuration.timeLimit)
        return await withCheckedContinuation { continuation in
            pool.enqueue(ScriptWorker.Job(script: script, input: input, network: network, deadline: deadline) { result in
                continuation.resume(returning: result)
            })
        }
    }

    /// Threads started so far (for tests and diagnostics).
    public var workerCount: Int { pool.workerCount }
}

/// The job queue and worker threads behind a ``ScriptRunner``. Workers hold the pool (not the runner), and the
/// runner shuts the pool down when it goes away: idle workers then end their threads.
final class WorkerPool: Sendable {
    private struct State {
        var queue: [ScriptWorker.Job] = []
        var idle = 0
        var workers = 0
        var shuttingDown = false
        var nextScriptID = 1
        var scriptIDs: [ScriptKey: Int] = [:]
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
            // Start a worker when none is idle: a busy (possibly runaway) worker must not hold up this job.
            guard state.idle == 0, state.workers < configuration.maximumWorkers else { return false }
            state.workers += 1
            state.idle += 1
            return true
        }
        if startWorker { ScriptWorker(pool: self, configuration: configuration).start() }
        wakeUp.signal()
    }

    /// Blocks a worker until a job is queued; nil when the pool shuts down.
    func nextJob() -> ScriptWorker.Job? {
        while true {
            let next = state.withLock { state -> (job: ScriptWorker.Job?, exit: Bool) in
                if !state.queue.isEmpty {
                    state.idle -= 1
                    return (state.queue.removeFirst(), false)
                }
                if state.shuttingDown {
                    state.workers -= 1
                    state.idle -= 1
                    return (nil, true)
                }
                return (nil, false)
            }
            if let job = next.job { return job }
            if next.exit {
                wakeUp.signal()  // pass the wake-up on to the next idle worker
                return nil
            }
            wakeUp.wait()
        }
    }

    /// A worker finished a job and is idle again.
    func finished() {
        state.withLock { $0.idle += 1 }
    }

    func shutDown() {
        state.withLock { $0.shuttingDown = true }
        wakeUp.signal()
    }

    var workerCount: Int { state.withLock { $0.workers } }
}
