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
    /// What each script asked for first, so far (``ScriptConfiguration/predictsRequests``).
    private let forecast = RequestForecast()

    /// Creates a runner; worker threads start on first use and end when the runner is released.
    public init(configuration: ScriptConfiguration = ScriptConfiguration()) {
        self.configuration = configuration
        pool = WorkerPool(configuration: configuration)
    }

    deinit {
        pool.shutDown()
    }

    /// Checks that the source parses and mentions a `process` function, and registers it for reuse. The same source
    /// gets the same registration (the same warm contexts and the same analysis), and is checked and analysed only the
    /// first time: a rule set reloaded with mostly the same scripts compiles only the new ones.
    public func compile(_ source: String, kind: ScriptKind, name: String) throws(ScriptError) -> CompiledScript {
        if let registration = pool.registration(for: source, kind: kind) {
            return CompiledScript(registration, source: source, kind: kind, name: name)
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
        let registration = pool.register(source, kind: kind, shortcut: ScriptShortcut(source: source))
        return CompiledScript(registration, source: source, kind: kind, name: name)
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
    /// awaited from `network` here, off the workers, and the script runs again with every answer `network` has given
    /// so far at hand (``ScriptNetwork/answer(to:)``), until it needs no new one. Each run asks for one new answer at most (the first it lacks), so a script makes at most
    /// ``ScriptConfiguration/maximumSubrequests`` requests in all, as it would in one run.
    public func run(
        _ script: CompiledScript,
        input: String,
        network: (any ScriptNetwork)?,
        deadline: ContinuousClock.Instant
    ) async -> ScriptResult {
        await run([ScriptRun(script: script, input: input)], network: network, deadline: deadline)[0]
    }

    /// Runs several scripts for one caller (one resolution's), as ``run(_:input:network:deadline:)`` runs one: handed
    /// to a worker together, one after the other (another worker takes the rest when one runs long), their answers
    /// shared, the answers they lack fetched together while no worker waits. Templates are evaluated here, without a
    /// worker (``ScriptConfiguration/evaluatesTemplates``), and answers the scripts' past runs make certain are
    /// fetched before the first round (``ScriptConfiguration/predictsRequests``). The results are in the order of
    /// `runs`.
    public func run(
        _ runs: [ScriptRun],
        network: (any ScriptNetwork)?,
        deadline: ContinuousClock.Instant
    ) async -> [ScriptResult] {
        let start = ContinuousClock.now
        var results = [ScriptResult?](repeating: nil, count: runs.count)
        var counts = [Int](repeating: 0, count: runs.count)
        var pending: [Int] = []
        var predicted: Set<String> = []
        var learning: [Int] = []
        for (index, run) in runs.enumerated() {
            switch plan(run, online: network != nil, deadline: deadline) {
            case .decided(let result):
                results[index] = result
            case .javaScriptCore(let firstRequest, let learns):
                pending.append(index)
                if let firstRequest { predicted.insert(firstRequest) }
                if learns { learning.append(index) }
            }
        }
        // What was fetched for these runs: a run that stops again at one of them has a network that did not keep the
        // answer (``ScriptNetwork/answer(to:)``), and ends rather than asking for it again and again.
        var fetched: Set<String> = []
        if let network, !predicted.isEmpty {
            await Self.fetch(predicted, from: network, deadline: deadline)
            fetched = predicted
        }
        while !pending.isEmpty {
            let round = await runOnce(pending.map { runs[$0] }, network: network, deadline: deadline)
            var waiting: [Int] = []
            var wanted: Set<String> = []
            for (index, result) in zip(pending, round) {
                counts[index] += 1
                if let url = result.pendingRequest, network != nil, !fetched.contains(url),
                    ContinuousClock.now < deadline
                {
                    waiting.append(index)
                    wanted.insert(url)
                } else {
                    var result = result
                    if let url = result.pendingRequest, fetched.contains(url) {
                        result.output = .failure(
                            ScriptError(
                                code: .exception,
                                rule: runs[index].script.name,
                                message:
                                    "the network answered \(url) but keeps no answer to it (ScriptNetwork.answer(to:))"
                            )
                        )
                    }
                    result.pendingRequest = nil
                    result.runs = counts[index]
                    result.duration = ContinuousClock.now - start
                    results[index] = result
                }
            }
            if let network, !wanted.isEmpty {
                await Self.fetch(wanted, from: network, deadline: deadline)
                fetched.formUnion(wanted)
            }
            pending = waiting
        }
        if network != nil, configuration.predictsRequests {
            for index in learning {
                let result = results[index]!
                // A run cut short says nothing of what the script asks for.
                if result.requests.isEmpty, case .failure(let error) = result.output,
                    Self.cutShort.contains(error.code)
                {
                    continue
                }
                forecast.observe(
                    script: runs[index].script.id,
                    input: runs[index].input,
                    firstRequest: result.requests.first
                )
            }
        }
        return results.map { $0! }
    }

    /// Codes of runs cut short before they asked for anything they would have.
    private static let cutShort: Set<ScriptError.Code> = [.timeout, .memory, .exhausted, .quarantined]

    /// How one run goes, decided before any worker is involved.
    private enum Plan {
        /// Decided without JavaScriptCore.
        case decided(ScriptResult)
        /// Run in JavaScriptCore, the answer to `firstRequest` fetched first when it is known (certain or forecast);
        /// `learns`: what the run asks for first teaches the forecast (its first request was not certain).
        case javaScriptCore(firstRequest: String?, learns: Bool)
    }

    /// The one place a script's shortcut (``CompiledScript``'s analysis, taken when
    /// ``ScriptConfiguration/evaluatesTemplates``) and the forecast of its first request
    /// (``ScriptConfiguration/predictsRequests``) decide how a run goes.
    private func plan(_ run: ScriptRun, online: Bool, deadline: ContinuousClock.Instant) -> Plan {
        switch configuration.evaluatesTemplates ? run.script.shortcut : .none {
        case .template(let template):
            return .decided(evaluate(template, run: run))
        case .guarded(let guarded)
        where guarded.fails(on: run.input, deadline: min(deadline, .now + configuration.guardTimeLimit)):
            return .decided(evaluate(guarded.otherwise, run: run))
        case .firstRequest(let prologue):
            if online { return .javaScriptCore(firstRequest: prologue.url(for: run.input), learns: false) }
            // Its first request would be refused, and a script that tried the network offline needs it.
            guard configuration.maximumSubrequests > 0 else { return .javaScriptCore(firstRequest: nil, learns: false) }
            return .decided(Self.nativeResult(.failure(.needsNetwork(rule: run.script.name)), duration: .zero))
        case .guarded, .none:
            guard online, configuration.predictsRequests else {
                return .javaScriptCore(firstRequest: nil, learns: true)
            }
            return .javaScriptCore(
                firstRequest: forecast.predict(script: run.script.id, input: run.input),
                learns: true
            )
        }
    }

    /// Whether `script` is evaluated without JavaScriptCore (``ScriptConfiguration/evaluatesTemplates``): its result
    /// is as cheap to make again as to look up, and it cannot run away.
    public func evaluatesNatively(_ script: CompiledScript) -> Bool {
        configuration.evaluatesTemplates && script.isTemplate
    }

    /// Whether no output of `script` is ever worth keeping: a template's is made as cheaply as it is looked up, and a
    /// script whose first request is certain fetches online and is decided without running offline.
    public func keepsNoOutput(of script: CompiledScript) -> Bool {
        configuration.evaluatesTemplates && script.shortcut.keepsNoOutput
    }

    /// A template script's result, as its run in JavaScriptCore would give it (its completion handler measures the
    /// string in UTF-16 code units).
    private func evaluate(_ template: ScriptTemplate, run: ScriptRun) -> ScriptResult {
        let clock = ContinuousClock()
        let start = clock.now
        let url = template.evaluate(run.input)
        let completion = CompletionValue.string(length: url.utf16.count, limit: configuration.maximumResultLength) {
            url
        }
        return Self.nativeResult(
            configuration.output(of: completion, rule: run.script.name),
            duration: clock.now - start
        )
    }

    /// A result made without JavaScriptCore.
    private static func nativeResult(_ output: Result<String?, ScriptError>, duration: Duration) -> ScriptResult {
        var result = ScriptResult(output: output, usedNetwork: false, duration: duration)
        result.evaluatedNatively = true
        return result
    }

    /// Asks `network` for `urls` concurrently; it keeps the answers (``ScriptNetwork/answer(to:)``), errors included,
    /// for the next runs.
    private static func fetch(
        _ urls: Set<String>,
        from network: any ScriptNetwork,
        deadline: ContinuousClock.Instant
    )
        async
    {
        await withTaskGroup(of: Void.self) { group in
            for url in urls {
                group.addTask { _ = try? await network.get(url, deadline: deadline) }
            }
        }
    }

    /// One run of each on a worker, with the answers `network` has at hand (nil: offline).
    private func runOnce(
        _ runs: [ScriptRun],
        network: (any ScriptNetwork)?,
        deadline: ContinuousClock.Instant
    ) async -> [ScriptResult] {
        await withCheckedContinuation { continuation in
            let collector = ResultCollector(count: runs.count) { continuation.resume(returning: $0) }
            let jobs = runs.enumerated().map { index, run in
                ScriptWorker.Job(script: run.script, input: run.input, network: network, deadline: deadline) {
                    collector.set(index, $0)
                }
            }
            let batch = ScriptBatch(jobs)
            if !pool.enqueue(batch) { pool.answerNotRun(batch) }
        }
    }

    /// Threads started so far (for tests and diagnostics).
    public var workerCount: Int { pool.workerCount }

    /// Runs abandoned at their deadline whose threads still run them (``ScriptStopping/abandon(maximumAbandoned:)``).
    public var abandonedCount: Int { pool.abandonedCount }
}

extension CompiledScript {
    /// A script of `registration`, whose source's shortcut was worked out when it was first registered.
    init(_ registration: ScriptRegistration, source: String, kind: ScriptKind, name: String) {
        self.init(id: registration.id, source: source, kind: kind, name: name, shortcut: registration.shortcut)
    }
}

/// One script to run on one input (``ScriptRunner/run(_:network:deadline:)``).
public struct ScriptRun: Sendable {
    /// The compiled script.
    public var script: CompiledScript
    /// What `process` is called with.
    public var input: String

    /// Creates a run.
    public init(script: CompiledScript, input: String) {
        self.script = script
        self.input = input
    }
}

/// The results of one batch, handed over once all are in.
private final class ResultCollector: Sendable {
    private let state: Mutex<(results: [ScriptResult?], left: Int)>
    private let done: @Sendable ([ScriptResult]) -> Void

    init(count: Int, done: @escaping @Sendable ([ScriptResult]) -> Void) {
        state = Mutex((Array(repeating: nil, count: count), count))
        self.done = done
    }

    func set(_ index: Int, _ result: ScriptResult) {
        let all = state.withLock { state -> [ScriptResult]? in
            guard state.results[index] == nil else { return nil }
            state.results[index] = result
            state.left -= 1
            return state.left == 0 ? state.results.map { $0! } : nil
        }
        if let all { done(all) }
    }
}
