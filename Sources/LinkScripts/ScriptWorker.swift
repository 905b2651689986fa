import Foundation

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// One thread with its own JavaScriptCore context group (every JSC call takes the group's VM lock, so groups are
/// never shared between threads) and a warm context per script it has run.
final class ScriptWorker: @unchecked Sendable {
    /// A queued run.
    struct Job {
        let script: CompiledScript
        let input: String
        /// Where the answers at hand are (nil: offline).
        let network: (any ScriptNetwork)?
        let deadline: ContinuousClock.Instant
        let finish: @Sendable (ScriptResult) -> Void
    }

    let pool: WorkerPool
    let configuration: ScriptConfiguration
    var group: JSContextGroupRef?
    private var contexts: [Int: ScriptContext] = [:]
    /// Contexts dropped after a failed run since the last collection.
    private var discardedContexts = 0
    // Read by the time-limit callback on this same thread (see ScriptWorker+Linux.swift).
    var deadline = ContinuousClock.now
    var memoryBaseline = 0
    /// When ``memoryBaseline`` was read: the process's size changes slowly next to the limit (hundreds of MiB), so one
    /// reading serves the runs of the next few milliseconds (reading `/proc` for every run cost 3% of a server's time
    /// on links never seen before).
    private var baselineRead: ContinuousClock.Instant?
    var stopReason: ScriptError.Code?
    /// The current run.
    private var ticket: RunTicket?

    init(pool: WorkerPool, configuration: ScriptConfiguration) {
        self.pool = pool
        self.configuration = configuration
    }

    /// Starts the thread (8 MiB stack: JSC needs room for deep but legal recursion before it throws RangeError).
    func start() {
        let thread = Thread { [self] in loop() }
        thread.stackSize = 8 << 20
        thread.name = "switchyard.script"
        thread.start()
    }

    private func loop() {
        group = JSContextGroupCreate()
        batches: while let batch = pool.nextBatch() {
            var held = false
            while let job = batch.next() {
                let ticket = RunTicket(job: job, batch: batch, pool: pool)
                self.ticket = ticket
                pool.monitor?.watch(ticket, pool: pool)
                let result = run(job)
                pool.monitor?.unwatch(ticket)
                self.ticket = nil
                guard case .finished(let wasHeld) = ticket.end() else {
                    // The monitor answered at the deadline and let this run go: the worker is no longer the pool's,
                    // and ends here with its VM.
                    pool.abandonedRunEnded()
                    break batches
                }
                job.finish(result)
                if wasHeld {
                    // The runs left were handed to another worker; this one is done with the batch.
                    held = true
                    break
                }
            }
            pool.finished(wasHeld: held)
        }
        contexts.removeAll()
        if let group { JSContextGroupRelease(group) }
        group = nil
    }

    /// The run has used a watchdog period of CPU time: let the pool start another worker for the jobs behind it.
    func markHeld() {
        ticket?.hold()
    }

    private func run(_ job: Job) -> ScriptResult {
        let clock = ContinuousClock()
        let start = clock.now
        deadline = job.deadline
        if baselineRead.map({ start - $0 > .milliseconds(50) }) ?? true {
            memoryBaseline = ResidentMemory.current()
            baselineRead = start
        }
        stopReason = nil
        #if !canImport(JavaScriptCore)
        let terminates = configuration.stopping == .terminate
        if terminates { armTimeLimit() }
        defer { if terminates { JSContextGroupClearExecutionTimeLimit(group) } }
        #endif
        let rule = job.script.name
        func finish(_ output: Result<String?, ScriptError>, state: RunState? = nil) -> ScriptResult {
            var result = ScriptResult(
                output: output,
                usedNetwork: state?.usedNetwork ?? false,
                duration: clock.now - start
            )
            result.requests = state?.consumed ?? []
            result.pendingRequest = state?.pendingRequest
            return result
        }
        guard let group else {
            return finish(.failure(ScriptError(code: .exception, rule: rule, message: "no JavaScript context group")))
        }
        let context: ScriptContext
        if let warm = contexts[job.script.id] {
            context = warm
        } else {
            do {
                context = try ScriptContext(group: group, script: job.script)
            } catch {
                if let reason = stopReason { return finish(.failure(stopped(reason, rule: rule))) }
                return finish(.failure(error))
            }
            contexts[job.script.id] = context
            // Collect the group's heap once dead contexts have piled up (a stream of runaway scripts discards one
            // per run), rather than waiting for JavaScriptCore's own collector to get round to them.
            if discardedContexts >= 8 {
                discardedContexts = 0
                JSGarbageCollect(context.context)
            }
        }
        let state = RunState(
            network: job.network,
            deadline: job.deadline,
            maximumLength: configuration.maximumResultLength,
            maximumSubrequests: configuration.maximumSubrequests
        )
        context.run = state
        let exception = context.call(input: job.input) { stopReason != nil }
        context.run = nil
        let output = outcome(of: state, exception: exception, rule: rule)
        if stopReason != nil {
            // A run the watchdog cut short may have stopped anywhere, even inside the host's own bookkeeping: start
            // the next one fresh.
            contexts[job.script.id] = nil
            discardedContexts += 1
        } else {
            // A run that returned or threw is reset like any other. Discarding the context here as well would make
            // a script that fails every time (one that needs the network in an offline run) build a context, about
            // 1.8 ms, for every such run: about 6% of all runs when serving the v5 manifest offline.
            context.reset()
        }
        return finish(output, state: state)
    }

    private func stopped(_ reason: ScriptError.Code, rule: String) -> ScriptError {
        reason == .memory
            ? ScriptError(
                code: .memory,
                rule: rule,
                message: "the script used more than \(configuration.maximumMemoryGrowth >> 20) MiB and was stopped"
            )
            : ScriptError(code: .timeout, rule: rule, message: "the script ran past its time limit and was stopped")
    }

    private func outcome(
        of state: RunState,
        exception: (() -> (message: String, line: Int?))?,
        rule: String
    ) -> Result<String?, ScriptError> {
        // A run stopped at an answer not yet at hand is run again with it; what it did after is discarded.
        if let url = state.pendingRequest {
            return .failure(
                ScriptError(code: .timeout, rule: rule, message: "the script's time ran out while \(url) was fetched")
            )
        }
        // A script that tried the network in an offline run needs it, whatever it did with the failure: its result
        // offline says nothing about its result online.
        if state.attemptedOffline { return .failure(.needsNetwork(rule: rule)) }
        // Likewise a script whose request was held back: its result without the answer says nothing.
        if let error = state.heldBack {
            let code: ScriptError.Code = error.kind == .hostDown ? .hostDown : .backedOff
            return .failure(ScriptError(code: code, rule: rule, message: "not sent: \(error.message)"))
        }
        if let completion = state.completion {
            // A result given before a later exception or termination is kept.
            return configuration.output(of: completion, rule: rule)
        }
        if let reason = stopReason { return .failure(stopped(reason, rule: rule)) }
        if state.exceededSubrequests {
            return .failure(
                ScriptError(
                    code: .tooManySubrequests,
                    rule: rule,
                    message:
                        "the script asked for more than \(configuration.maximumSubrequests) network requests in one run"
                )
            )
        }
        if state.blocked {
            return .failure(
                ScriptError(
                    code: .networkBlocked,
                    rule: rule,
                    message: "the network policy refused the script's request"
                )
            )
        }
        if let exception = exception?() {
            return .failure(
                ScriptError(
                    code: .exception,
                    rule: rule,
                    message: "the script threw: \(exception.message)",
                    line: exception.line
                )
            )
        }
        return .failure(
            ScriptError(
                code: .noCompletion,
                rule: rule,
                message: "process() returned without calling its completion handler"
            )
        )
    }
}

extension ScriptError {
    /// A script that tried the network in an offline run.
    static func needsNetwork(rule: String) -> ScriptError {
        ScriptError(
            code: .needsNetwork,
            rule: rule,
            message: "the script needs the network, which this run does not allow"
        )
    }
}

extension ScriptConfiguration {
    /// What a run whose completion handler received `completion` produced: the URL, or why it is refused.
    func output(of completion: CompletionValue, rule: String) -> Result<String?, ScriptError> {
        func refused(_ code: ScriptError.Code, _ message: String) -> Result<String?, ScriptError> {
            .failure(ScriptError(code: code, rule: rule, message: message))
        }
        switch completion {
        case .noResult:
            return .success(nil)
        case .badType(let text):
            return refused(.badResultType, "the completion handler got \(text.prefix(40)), not a string or null")
        case .tooLarge(let length):
            return refused(.resultTooLarge, "the result has \(length) characters, more than \(maximumResultLength)")
        case .string(let url):
            if let problem = resultCheck(url) {
                return refused(.badResultURL, "the result \"\(url.prefix(60))\" is refused: \(problem)")
            }
            return .success(url)
        }
    }
}

/// The process's resident memory, from /proc (0 where unavailable).
enum ResidentMemory {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    #if os(Linux)
    /// `/proc/self/statm`, opened once: every script run reads it at its start and the watchdog while it runs, and
    /// opening it each time (a path lookup and a `String` through Foundation) cost 6% of a loaded server's time.
    private static let statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    #endif

    /// The process's resident size in bytes (0 where it cannot be read: other platforms, or a failed read).
    static func current() -> Int {
        #if os(Linux)
        guard statm >= 0 else { return 0 }
        // `size resident shared …` in pages; a read at offset 0 makes the kernel write the file afresh.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            let count = pread(statm, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return 0 }
            var field = 0
            var pages = 0
            for byte in buffer.prefix(count) {
                if byte == UInt8(ascii: " ") {
                    field += 1
                    if field > 1 { break }
                } else if field == 1, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    pages = pages * 10 + Int(byte - UInt8(ascii: "0"))
                }
            }
            return pages * pageSize
        }
        #else
        return 0
        #endif
    }
}
