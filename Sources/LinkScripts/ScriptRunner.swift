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
    ///
    /// No worker waits on the network: a run that asks for an answer not at hand stops at that call; the answer is
    /// awaited from `network` here, off the workers, and the script runs again with every answer so far at hand, until
    /// it needs no new one. Each run asks for one new answer at most (the first it lacks), so a script makes at most
    /// ``ScriptConfiguration/maximumSubrequests`` requests in all, as it would in one run.
    public func run(
        _ script: CompiledScript,
        input: String,
        network: (any ScriptNetwork)?,
        deadline: ContinuousClock.Instant
    ) async -> ScriptResult {
        let start = ContinuousClock.now
        var answers: [String: Result<String, ScriptNetworkError>]? = network == nil ? nil : [:]
        var runs = 0
        while true {
            runs += 1
            var result = await runOnce(script, input: input, answers: answers, deadline: deadline)
            result.runs = runs
            guard let url = result.pendingRequest, let network, ContinuousClock.now < deadline else {
                result.pendingRequest = nil
                result.duration = ContinuousClock.now - start
                return result
            }
            do throws(ScriptNetworkError) {
                answers?[url] = .success(try await network.get(url, deadline: deadline))
            } catch {
                answers?[url] = .failure(error)
            }
        }
    }

    /// One run on a worker, with the answers at hand (nil: offline).
    private func runOnce(
        _ script: CompiledScript,
        input: String,
        answers: [String: Result<String, ScriptNetworkError>]?,
        deadline: ContinuousClock.Instant
    ) async -> ScriptResult {
        await withCheckedContinuation { continuation in
            let accepted = pool.enqueue(
                ScriptWorker.Job(script: script, input: input, answers: answers, deadline: deadline) { result in
                    continuation.resume(returning: result)
                }
            )
            if !accepted {
                continuation.resume(
                    returning: ScriptResult(
                        output: .failure(
                            ScriptError(
                                code: .exhausted,
                                rule: script.name,
                                message:
                                    "not run: \(pool.abandonedCount) abandoned scripts are still running, as many as allowed"
                            )
                        ),
                        usedNetwork: false,
                        duration: .zero
                    )
                )
            }
        }
    }

    /// Threads started so far (for tests and diagnostics).
    public var workerCount: Int { pool.workerCount }

    /// Runs abandoned at their deadline whose threads still run them (``ScriptStopping/abandon(maximumAbandoned:)``).
    public var abandonedCount: Int { pool.abandonedCount }
}
