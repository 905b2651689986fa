import Foundation
import LinkFetching
import LinkMatching
import LinkRules
import LinkScripts
import Synchronization

/// Renders rules' scripts: compiles each source once (per engine), runs it in JavaScriptCore with the network the
/// caller allows, and applies the one output-safety policy to what it returns. Implements ``ScriptEvaluating`` for
/// the test runner (offline, online, recording or replaying).
public final class ScriptEngine: ScriptEvaluating, Sendable {
    /// The JavaScriptCore host.
    public let runner: ScriptRunner
    /// Where `httpRequest` goes; nil: offline (scripts that need the network are reported as such).
    public let fetcher: (any LinkFetching)?
    private let compiled = Mutex<[String: Result<CompiledScript, ScriptError>]>([:])
    /// When scripts that keep running out of time are set aside (nil: never).
    public let runaways: RunawayPolicy?
    private let runawayRecords = Mutex<[String: RunawayRecord]>([:])

    /// Creates an engine; `timeLimit` bounds each script run (Opener uses 15 s). With `runaways`, a script stopped
    /// at its limit too often is not run for a while (a server under attack sets this; one-off tools need not).
    public init(fetcher: (any LinkFetching)?, timeLimit: Duration = .seconds(15), runaways: RunawayPolicy? = nil) {
        runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: timeLimit) { OutputSafety.problem(with: $0) })
        self.fetcher = fetcher
        self.runaways = runaways
    }

    /// The compiled script for a source (compiled on first use, then shared).
    func script(_ source: String, legacy: Bool, rule: String) -> Result<CompiledScript, ScriptError> {
        let key = (legacy ? "L" : "S") + source
        if let known = compiled.withLock({ $0[key] }) { return known }
        let result: Result<CompiledScript, ScriptError>
        do {
            result = .success(try runner.compile(source, kind: legacy ? .legacyScript : .script2, name: rule))
        } catch {
            result = .failure(error)
        }
        compiled.withLock { $0[key] = result }
        return result
    }

    /// Runs a script on `input`, within `timeLimit` when given.
    public func run(_ source: String, legacy: Bool, input: String, rule: String, timeLimit: Duration? = nil) async -> Result<String?, ScriptError> {
        switch script(source, legacy: legacy, rule: rule) {
        case .failure(let error):
            return .failure(error)
        case .success(let script):
            let key = (legacy ? "L" : "S") + source
            let admission = admit(key, rule: rule)
            if case .refused(let refusal) = admission { return .failure(refusal) }
            let network = fetcher.map { FetcherScriptNetwork(fetcher: $0) }
            let output = await runner.run(script, input: input, network: network, timeLimit: timeLimit).output
            let stopped = if case .failure(let error) = output { error.code == .timeout } else { false }
            record(admission, of: key, stopped: stopped)
            return output
        }
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
    private func admit(_ key: String, rule: String) -> Admission {
        guard let runaways else { return .run }
        let now = ContinuousClock.now
        return runawayRecords.withLock { records -> Admission in
            guard var record = records[key], let until = record.setAsideUntil else { return .run }
            if now < until {
                let seconds = Double((until - now).components.seconds) + 1
                return .refused(ScriptError(
                    code: .quarantined, rule: rule,
                    message: "not run: the script was stopped at its time limit \(runaways.stops) times within \(runaways.window); it is set aside for \(Int(seconds)) s more"))
            }
            if record.trialRunning {
                return .refused(ScriptError(
                    code: .quarantined, rule: rule,
                    message: "not run: the script was set aside for running out of time, and a trial run is under way; it runs freely again once a trial ends in time"))
            }
            record.trialRunning = true
            records[key] = record
            return .trial
        }
    }

    /// Notes how a run ended: a stopped trial sets the script aside again at once, a trial that ended in time
    /// clears it, and a script stopped at its limit too often is set aside.
    private func record(_ admission: Admission, of key: String, stopped: Bool) {
        guard let runaways else { return }
        let now = ContinuousClock.now
        runawayRecords.withLock { records in
            if case .trial = admission {
                records[key] = stopped ? RunawayRecord(setAsideUntil: now + runaways.cooldown) : nil
                return
            }
            guard stopped else { return }
            var record = records[key] ?? RunawayRecord()
            record.stops = record.stops.filter { now - $0 < runaways.window } + [now]
            if record.stops.count >= runaways.stops {
                record.setAsideUntil = now + runaways.cooldown
                record.stops = []
            }
            records[key] = record
            // Forget scripts with nothing recent, so that the table stays as small as the set of misbehaving ones.
            // A script out of its cooldown stays until a trial clears it.
            if records.count > 64 {
                records = records.filter { _, record in
                    record.setAsideUntil != nil || record.stops.contains { now - $0 < runaways.window }
                }
            }
        }
    }

    public func evaluate(_ source: String, legacy: Bool, input: String, rule: String) async -> ScriptEvaluation {
        switch await run(source, legacy: legacy, input: input, rule: rule) {
        case .success(let url):
            return .completed(url)
        case .failure(let error) where error.code == .needsNetwork:
            return .unavailable(reason: "needs network")
        case .failure(let error):
            return .failed(reason: error.description)
        }
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
    var stops: [ContinuousClock.Instant] = []
    /// Set aside until then; once past, the script runs one trial at a time until one ends in time.
    var setAsideUntil: ContinuousClock.Instant?
    var trialRunning = false
}

/// Scripts' `httpRequest` over ``LinkFetching``: the same policy, recorder and replayer as everything else.
struct FetcherScriptNetwork: ScriptNetwork {
    let fetcher: any LinkFetching

    func get(_ url: String, timeout: Duration) throws(ScriptNetworkError) -> String {
        do {
            let response = try fetcher.fetchBlocking(FetchRequest(url: url, timeout: timeout))
            return response.text
        } catch {
            switch error.code {
            case .offline: throw ScriptNetworkError(kind: .offline, message: error.description)
            case .blockedAddress, .forbiddenScheme, .forbiddenPort: throw ScriptNetworkError(kind: .blocked, message: error.description)
            default: throw ScriptNetworkError(kind: .failed, message: error.description)
            }
        }
    }
}
