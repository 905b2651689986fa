import Foundation
import LinkFetching
import LinkMatching
import LinkResolution
import LinkRules
import LinkScripts
import Synchronization
import WebLinks

/// Runs rules' scripts: compiles a rule set's scripts once, runs each in JavaScriptCore with the network the caller
/// allows until the resolution's deadline, and applies the one output-safety policy to what it returns.
///
/// One engine serves every rule set a process loads (a server's reloads included): the runner keeps one registration
/// and one warm context per distinct script source, so a reload compiles only the scripts that changed.
public final class ScriptEngine: Sendable {
    /// The JavaScriptCore host.
    public let runner: ScriptRunner
    /// Where `httpRequest` goes; nil: offline (scripts that need the network are reported as such).
    public let fetcher: (any LinkFetching)?
    /// When scripts that keep running out of time are set aside (nil: never).
    public let runaways: RunawayPolicy?
    private let runawayRecords = Mutex<[Int: RunawayRecord]>([:])
    /// Outputs of runs that did not touch the network, by script and input (nil: every run runs).
    private let results: ScriptResultCache?
    /// What the runaway policy's windows and cooldowns are timed on.
    private let clock: FetchClock

    /// Creates an engine. With `runaways`, a script stopped at its time limit too often is not run for a while (a
    /// server under attack sets this; one-off tools need not). `maximumSubrequests` bounds the network requests of
    /// one run (the next one throws `E_TOO_MANY_SUBREQUESTS` in JavaScript). `clock` times the runaway policy's
    /// windows and cooldowns: the fetching layer's one clock (`FetchClock`, monotonic, which tests build on a manual
    /// clock); each run's own limit is the deadline its caller gives.
    ///
    /// Outputs of runs that made no network request are kept, by script source and input, up to about
    /// `resultCacheCapacity` bytes (default 16 MiB), and given again for the same script and input without running
    /// it (0: none kept). Scripts are taken to be
    /// functions of their input, as Opener's are; a run stopped at its deadline, or that fetched, is never kept.
    public init(
        fetcher: (any LinkFetching)?,
        runaways: RunawayPolicy? = nil,
        maximumSubrequests: Int = ScriptConfiguration.defaultMaximumSubrequests,
        resultCacheCapacity: Int = 16 << 20,
        clock: FetchClock = .system
    ) {
        runner = ScriptRunner(
            configuration: ScriptConfiguration(maximumSubrequests: maximumSubrequests) {
                OutputSafety.problem(with: $0)
            }
        )
        self.fetcher = fetcher
        self.runaways = runaways
        results = resultCacheCapacity > 0 ? ScriptResultCache(capacity: resultCacheCapacity) : nil
        self.clock = clock
    }

    /// How many runs were answered with the kept output of an earlier run instead of running (for metrics).
    public var reusedResultCount: Int { results?.reuseCount ?? 0 }

    /// Compiles a rule set's scripts: each is parsed once per engine, and a script that cannot run keeps its error
    /// for the openings that need it.
    public func compile(_ scripts: [RuleScript]) -> CompiledScripts {
        var table: [ObjectIdentifier: Result<CompiledScript, ScriptError>] = [:]
        table.reserveCapacity(scripts.count)
        for script in scripts {
            let kind: ScriptKind = script.kind == .legacy ? .legacyScript : .script2
            table[ObjectIdentifier(script)] = Result { () throws(ScriptError) in
                try runner.compile(script.source, kind: kind, name: script.description)
            }
        }
        return CompiledScripts(table: table)
    }

    /// Runs a compiled script on `input`, stopping it at `deadline`, or gives the kept output of an earlier run of
    /// the same script on the same input (see ``init(fetcher:runaways:maximumSubrequests:resultCacheCapacity:clock:)``).
    public func run(
        _ script: CompiledScript,
        input: String,
        deadline: ContinuousClock.Instant
    ) async -> Result<String?, ScriptError> {
        await runReporting(script, input: input, deadline: deadline).output
    }

    /// The kept output of an earlier run of `script` on `input`, without running anything (nil: none is kept, or the
    /// engine keeps none). A kept output is always reproducible.
    package func keptOutput(of script: CompiledScript, input: String) -> Result<String?, ScriptError>? {
        // Looked up only for scripts whose outputs can be kept (a lookup hashes the input).
        runner.keepsNoOutput(of: script) ? nil : results?.output(of: script, input: input)
    }

    /// ``run(_:input:deadline:)``, and how long its output may be kept: `unlimited` when it is what the script gives
    /// for that input every time (no network request, nothing that depends on the moment; a kept output always is),
    /// the shortest freshness of the answers it used when it used the network through `network`, else `uncacheable`.
    ///
    /// `network` is where its requests go (a resolution passes its own, so its scripts share their answers); by
    /// default the engine's fetcher, each run on its own.
    package func runReporting(
        _ script: CompiledScript,
        input: String,
        deadline: ContinuousClock.Instant,
        network: ScriptFetches? = nil
    ) async -> (output: Result<String?, ScriptError>, cacheability: Cacheability) {
        await runReporting([(script, input)], deadline: deadline, network: network)[0]
    }

    /// ``runReporting(_:input:deadline:network:)`` for several scripts of one resolution at once: the kept outputs
    /// first, then the scripts left handed to a worker together (``ScriptRunner/run(_:network:deadline:)``), their
    /// answers shared through `network`. The results are in the order of `jobs`.
    package func runReporting(
        _ jobs: [(script: CompiledScript, input: String)],
        deadline: ContinuousClock.Instant,
        network: ScriptFetches? = nil
    ) async -> [(output: Result<String?, ScriptError>, cacheability: Cacheability)] {
        var outcomes = [(output: Result<String?, ScriptError>, cacheability: Cacheability)?](
            repeating: nil,
            count: jobs.count
        )
        var toRun: [(index: Int, admission: Admission)] = []
        for (index, job) in jobs.enumerated() {
            if let kept = keptOutput(of: job.script, input: job.input) {
                outcomes[index] = (kept, .unlimited)
                continue
            }
            let admission = runner.evaluatesNatively(job.script) ? .run : admit(job.script)
            if case .refused(let refusal) = admission {
                outcomes[index] = (.failure(refusal), .uncacheable(reason: "a script set aside"))
            } else {
                toRun.append((index, admission))
            }
        }
        if !toRun.isEmpty {
            let network = network ?? fetcher.map { ScriptFetches(fetcher: $0) }
            let runs = toRun.map { ScriptRun(script: jobs[$0.index].script, input: jobs[$0.index].input) }
            let ran = await runner.run(runs, network: network, deadline: deadline)
            for ((index, admission), result) in zip(toRun, ran) {
                let job = jobs[index]
                if !result.evaluatedNatively { results?.keep(result, of: job.script, input: job.input) }
                let output = result.output
                let stopped = if case .failure(let error) = output { error.code == .timeout } else { false }
                record(admission, of: job.script.id, stopped: stopped)
                outcomes[index] = (output, cacheability(of: result, network: network))
            }
        }
        return outcomes.map { $0! }
    }

    /// How long a run's output may be kept (see ``runReporting(_:input:deadline:network:)``).
    private func cacheability(of result: ScriptResult, network: ScriptFetches?) -> Cacheability {
        guard ScriptResultCache.isReusable(result.output) else {
            return .uncacheable(reason: "a script's run depended on the moment")
        }
        guard result.usedNetwork || !result.requests.isEmpty else { return .unlimited }
        return network?.cacheability(of: result.requests) ?? .uncacheable(reason: "a script used the network")
    }

    /// Whether a run of a script may start under the ``RunawayPolicy``.
    private enum Admission {
        /// No policy, or the script has not been set aside.
        case run
        /// The script's cooldown is over: this run is its one trial.
        case trial
        case refused(ScriptError)
    }

    /// Refuses a script set aside until later, and lets a script whose cooldown is over make one trial run at a
    /// time until a trial ends without being stopped: otherwise every request in flight for it would start a
    /// runaway at once when the cooldown ends. Measured in `scripts/hostile-loadtest`'s soak: the slowest good
    /// request was 990 ms when 16 runaways took every worker each time the cooldown ended, 73 ms with trials.
    private func admit(_ script: CompiledScript) -> Admission {
        guard let runaways else { return .run }
        let now = clock.now
        return runawayRecords.withLock { records -> Admission in
            guard var record = records[script.id], let until = record.setAsideUntil else { return .run }
            if now < until {
                let seconds = until.timeIntervalSince(now).rounded(.up)
                return .refused(
                    ScriptError(
                        code: .quarantined,
                        rule: script.name,
                        message:
                            "not run: the script was stopped at its time limit \(runaways.stops, "time") within \(runaways.window); it is set aside for \(Int(seconds)) s more"
                    )
                )
            }
            if record.trialRunning {
                return .refused(
                    ScriptError(
                        code: .quarantined,
                        rule: script.name,
                        message:
                            "not run: the script was set aside for running out of time, and a trial run is under way; it runs freely again once a trial ends in time"
                    )
                )
            }
            record.trialRunning = true
            records[script.id] = record
            return .trial
        }
    }

    /// Notes how a run ended: a stopped trial sets the script aside again at once, a trial that ended in time
    /// clears it, and a script stopped at its limit too often is set aside.
    private func record(_ admission: Admission, of id: Int, stopped: Bool) {
        guard let runaways else { return }
        let now = clock.now
        runawayRecords.withLock { records in
            if case .trial = admission {
                records[id] =
                    stopped ? RunawayRecord(setAsideUntil: now.addingTimeInterval(runaways.cooldown.timeInterval)) : nil
                return
            }
            guard stopped else { return }
            var record = records[id] ?? RunawayRecord()
            record.stops = record.stops.filter { now.timeIntervalSince($0) < runaways.window.timeInterval } + [now]
            if record.stops.count >= runaways.stops {
                record.setAsideUntil = now.addingTimeInterval(runaways.cooldown.timeInterval)
                record.stops = []
            }
            records[id] = record
            // Forget scripts with nothing recent, so that the table stays as small as the set of misbehaving ones.
            // A script out of its cooldown stays until a trial clears it.
            if records.count > 64 {
                records = records.filter { _, record in
                    record.setAsideUntil != nil
                        || record.stops.contains { now.timeIntervalSince($0) < runaways.window.timeInterval }
                }
            }
        }
    }
}

/// A rule set's scripts as one engine compiled them, looked up by the rule's script object.
public struct CompiledScripts: Sendable {
    fileprivate let table: [ObjectIdentifier: Result<CompiledScript, ScriptError>]

    /// The compiled script, or why it cannot run (nil: the script is not one of this rule set's).
    public subscript(script: RuleScript) -> Result<CompiledScript, ScriptError>? {
        table[ObjectIdentifier(script)]
    }
}

/// When a script that keeps running out of time is set aside: each runaway holds a JavaScriptCore worker for its whole
/// time limit, so a rule that loops forever, hit again and again by hostile links, would otherwise keep the cores
/// busy and delay everyone else.
public struct RunawayPolicy: Sendable, Equatable {
    /// Stops at the time limit that set a script aside...
    public var stops: Int
    /// ...when they happen within this window.
    public var window: Duration
    /// How long it is then set aside (runs are refused with `E_SCRIPT_QUARANTINED`). After that, one trial run at
    /// a time until a trial ends in time (a stopped trial sets the script aside again).
    public var cooldown: Duration

    /// Creates a policy (defaults: 3 stops within 60 s set a script aside for 30 s).
    public init(stops: Int = 3, window: Duration = .seconds(60), cooldown: Duration = .seconds(30)) {
        self.stops = max(stops, 1)
        self.window = window
        self.cooldown = cooldown
    }
}

/// One script's recent stops at its time limit, and whether it was set aside.
struct RunawayRecord {
    var stops: [Date] = []
    /// Set aside until then; once past, the script runs one trial at a time until one ends in time.
    var setAsideUntil: Date?
    var trialRunning = false
}
