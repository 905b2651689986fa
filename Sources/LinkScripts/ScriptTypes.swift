import Foundation
import LinkMatching
import Synchronization

/// Network access for scripts' `httpRequest`, `jsonRequest` and `XMLHttpRequest`, asynchronous: no worker thread
/// (nor its JavaScriptCore VM) ever waits on it.
///
/// A script calls the network synchronously, so the runner runs it with the answers the network has given so far
/// (``answer(to:)``); when the script asks for one it has not, the run is stopped at that call, the runner awaits `get`
/// off the worker, and the script runs again from the start with that answer at hand too (scripts are functions of
/// their input and their answers, as Opener's are). See ``ScriptRunner/run(_:input:network:deadline:)``.
///
/// The network is the one record of what it answered (a resolution's keeps it in the resolution's scope, which also
/// says how long each answer may be reused): the runner keeps none of its own. Make one per caller (a resolution),
/// so that its answers are that caller's.
public protocol ScriptNetwork: Sendable {
    /// Fetches `url` with GET before `deadline` and returns the body as text.
    func get(_ url: String, deadline: ContinuousClock.Instant) async throws(ScriptNetworkError) -> String

    /// What ``get(_:deadline:)`` gave for `url` (its body or its error), once it has answered; nil when `url` was not
    /// asked for, or its answer is not in yet. Called on the runner's worker threads, so it must not wait.
    func answer(to url: String) -> Result<String, ScriptNetworkError>?
}

/// What a network with no record of its own (a canned API, a test double) answered, kept as
/// ``ScriptNetwork/answer(to:)`` reports it: its `get` fetches through ``keep(_:_:)`` and its `answer(to:)` returns
/// ``answer(to:)``. Make one per caller, as the network it belongs to.
public final class ScriptAnswers: Sendable {
    private let answers = Mutex<[String: Result<String, ScriptNetworkError>]>([:])

    /// No answers yet.
    public init() {}

    /// Answers `url` with what `fetch` gives (its body, or its error) and keeps that answer.
    public func keep(
        _ url: String,
        _ fetch: () async throws(ScriptNetworkError) -> String
    ) async throws(ScriptNetworkError) -> String {
        let answer: Result<String, ScriptNetworkError>
        do {
            answer = .success(try await fetch())
        } catch {
            answer = .failure(error)
        }
        answers.withLock { $0[url] = answer }
        return try answer.get()
    }

    /// The answer kept for `url`, if it was asked for and answered.
    public func answer(to url: String) -> Result<String, ScriptNetworkError>? {
        answers.withLock { $0[url] }
    }
}

/// Why a script's network request failed; the script sees a JavaScript exception with the message.
public struct ScriptNetworkError: Error, Sendable, Equatable {
    /// The kind of failure.
    public enum Kind: String, Sendable, Equatable {
        /// The run is offline: the request was not made.
        case offline
        /// The safety policy refused the destination.
        case blocked
        /// The request was made and failed.
        case failed
        /// The request was not sent: its host asked to be left alone for a while (`429`/`503` with `Retry-After`).
        case backedOff
        /// The request was not sent: its host is taken for down after failures that say so, until it is tried again.
        case hostDown
    }

    /// The kind of failure.
    public var kind: Kind
    /// One sentence naming the URL.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Which field a script came from.
public enum ScriptKind: String, Sendable, Hashable {
    /// `script2`: JavaScriptCore with the host helpers.
    case script2
    /// Legacy `script` (v1–v3), written for a web view: gets a minimal `XMLHttpRequest` too.
    case legacyScript
}

/// Limits and sizes for running scripts.
public struct ScriptConfiguration: Sendable {
    /// The wall-clock limit of one run (Opener's is 15 s).
    public var timeLimit: Duration
    /// How often the watchdog looks at the clock while a script runs.
    public var watchdogPeriod: Duration
    /// Worker threads kept making progress (each has its own JavaScriptCore VM, so more than the cores costs
    /// memory and gains nothing). Workers whose run is held by a long script or a network wait do not count: more
    /// are started for the queue behind them, up to ``maximumWorkers``, and end once those runs are over.
    public var workerCount: Int
    /// The most worker threads at once.
    public var maximumWorkers: Int
    /// The longest result accepted, in characters.
    public var maximumResultLength: Int
    /// The most network requests (`httpRequest`, `jsonRequest`, `XMLHttpRequest`) one run may make; the next one
    /// throws a JavaScript error whose `code` is `E_TOO_MANY_SUBREQUESTS` (Cloudflare Workers' free plan allows 50;
    /// the v5 manifest's scripts make a handful).
    public var maximumSubrequests: Int
    /// The default of ``maximumSubrequests``: 50.
    public static let defaultMaximumSubrequests = 50
    /// How much the process may grow (resident memory) during one run before the script is stopped (Linux, with
    /// ``ScriptStopping/terminate`` only: it is read from `/proc` by the time-limit callback).
    public var maximumMemoryGrowth: Int
    /// How a run that reaches its deadline is stopped (``ScriptStopping/platformDefault``).
    public var stopping: ScriptStopping
    /// Checks a result URL; returns why it is refused (the resolver passes its one output-safety policy).
    public var resultCheck: @Sendable (String) -> String?
    /// Whether scripts that only build their result from their input (``CompiledScript/isTemplate``: the whole
    /// source is `function process(url, done) { done('app://' + encodeURIComponent(url)); }` or the like) are
    /// evaluated without JavaScriptCore, to the same result: no worker, no thread hand-off. So is the request a script
    /// certainly begins with (`var u = 'https://api…' + encodeURIComponent(url); var r = jsonRequest(u); …`): online its
    /// answer is fetched before the script's first run, and offline the run's result is known without running it. So
    /// is a script that first tests its input with a regular expression and otherwise only builds its result from it
    /// (`var m = RegExp('apple\\.news').exec(url); if (m != null && …) { … } else { done(url); }`), on an input the
    /// expression does not match. Off, every script runs in JavaScriptCore (tests compare the two).
    public var evaluatesTemplates: Bool
    /// Whether a script whose first request has followed from its input the same way for its last few runs
    /// (`'https://api…?url=' + encodeURIComponent(url)`) has that answer fetched before it runs, so that it runs once
    /// instead of twice (``ScriptRunner/run(_:input:network:deadline:)``). The script still decides what it asks for; a
    /// wrong forecast costs one request whose answer is not used.
    public var predictsRequests: Bool
    /// The longest a script's guard expression may run on one input before the script runs in JavaScriptCore instead:
    /// the matcher's per-regex budget (LinkMatching's `MatchBudget.perRegex`, 50 ms), so a hostile link costs a
    /// guard what it costs a rule.
    public var guardTimeLimit: Duration = MatchBudget().perRegex

    /// Creates a configuration.
    public init(
        timeLimit: Duration = .seconds(15),
        watchdogPeriod: Duration = .milliseconds(20),
        workerCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        maximumWorkers: Int = 16,
        maximumResultLength: Int = 8192,
        maximumSubrequests: Int = defaultMaximumSubrequests,
        maximumMemoryGrowth: Int = 512 << 20,
        stopping: ScriptStopping = .platformDefault,
        evaluatesTemplates: Bool = true,
        predictsRequests: Bool = true,
        resultCheck: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.resultCheck = resultCheck
        self.evaluatesTemplates = evaluatesTemplates
        self.predictsRequests = predictsRequests
        self.timeLimit = timeLimit
        self.watchdogPeriod = watchdogPeriod
        self.workerCount = max(1, workerCount)
        self.maximumWorkers = max(self.workerCount, maximumWorkers)
        self.maximumResultLength = maximumResultLength
        self.maximumSubrequests = max(0, maximumSubrequests)
        self.maximumMemoryGrowth = maximumMemoryGrowth
        self.stopping = stopping
    }
}

/// A script checked and registered once, run many times.
public struct CompiledScript: Sendable, Hashable {
    /// A process-wide identifier: one per source and kind, so every rule set that has this script shares it (and
    /// the warm contexts workers keep for it).
    public let id: Int
    /// The source.
    public let source: String
    /// `script2` or legacy `script`.
    public let kind: ScriptKind
    /// The rule it belongs to, for messages (a JSON pointer).
    public let name: String
    /// What its source makes certain, worked out once (``ScriptConfiguration/evaluatesTemplates`` takes it).
    let shortcut: ScriptShortcut

    /// Whether the script only builds its result from its input (`done('app://' + encodeURIComponent(url))`), so
    /// that a runner evaluates it without JavaScriptCore (``ScriptConfiguration/evaluatesTemplates``).
    public var isTemplate: Bool {
        if case .template = shortcut { return true }
        return false
    }
}

/// What one run produced.
public struct ScriptResult: Sendable {
    /// The URL (nil: the script reported no result) or why there is none.
    public var output: Result<String?, ScriptError>
    /// Whether a request of the script went out to the network, answered or failed (one refused before it left,
    /// offline or by the network policy, does not count).
    public var usedNetwork: Bool
    /// How long the run took: every run of the script, and the waits for its answers between them.
    public var duration: Duration
    /// The URLs whose answers the final run used, in the order it asked for them.
    public var requests: [String] = []
    /// How many times the script ran: one more than the answers it had to wait for.
    public var runs = 1
    /// The URL the run stopped at, its answer not at hand (the runner fetches it and runs the script again).
    var pendingRequest: String?
    /// Whether the result was made without JavaScriptCore (a template, or an offline run of a script whose first
    /// request is certain): as cheap to make again as to look up.
    package var evaluatedNatively = false
}

/// Why a script produced no URL.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure (codes as in the hostile-input catalogue).
    public enum Code: String, Sendable, Equatable {
        /// JavaScriptCore's parser refused the source.
        case syntax = "E_SCRIPT_SYNTAX"
        /// The source defines no `process(url, completionHandler)` function.
        case noProcess = "E_NO_PROCESS"
        /// The run went past its deadline and was stopped.
        case timeout = "E_SCRIPT_TIMEOUT"
        /// `process` returned without calling its completion handler.
        case noCompletion = "E_NO_COMPLETION"
        /// The script threw, while loading or while running (the line is given when JavaScriptCore knows it).
        case exception = "E_SCRIPT_EXCEPTION"
        /// The completion handler got something other than a string or null.
        case badResultType = "E_BAD_RESULT_TYPE"
        /// The result URL was refused by ``ScriptConfiguration/resultCheck``.
        case badResultURL = "E_BAD_RESULT_URL"
        /// The result is longer than ``ScriptConfiguration/maximumResultLength``.
        case resultTooLarge = "E_RESULT_TOO_LARGE"
        /// The script asked for the network in an offline run.
        case needsNetwork = "E_NEEDS_NETWORK"
        /// The network policy refused the script's request (a private address, a forbidden scheme or port).
        case networkBlocked = "E_SSRF_BLOCKED"
        /// The process grew by more than ``ScriptConfiguration/maximumMemoryGrowth`` during the run (Linux only).
        case memory = "E_SCRIPT_MEMORY"
        /// The script asked for more network requests than one run may make.
        case tooManySubrequests = "E_TOO_MANY_SUBREQUESTS"
        /// A request of the script was not sent: its host asked to be left alone for a while.
        case backedOff = "E_BACKED_OFF"
        /// A request of the script was not sent: its host is taken for down (no DNS answer, refused connections,
        /// time-outs or server errors in a row) until it is tried again.
        case hostDown = "E_HOST_DOWN"
        /// Not run: the script kept running out of time and is set aside for a while (see `RunawayPolicy`).
        case quarantined = "E_SCRIPT_QUARANTINED"
        /// Not run: as many abandoned runs as ``ScriptStopping/abandon(maximumAbandoned:)`` allows are still
        /// running (Apple platforms, where a running script cannot be stopped with public API).
        case exhausted = "E_SCRIPTS_EXHAUSTED"
    }

    /// The kind of failure.
    public var code: Code
    /// The rule the script belongs to.
    public var rule: String
    /// One sentence saying what happened.
    public var message: String
    /// The JavaScript line, when known.
    public var line: Int?

    /// Creates an error.
    public init(code: Code, rule: String, message: String, line: Int? = nil) {
        self.code = code
        self.rule = rule
        self.message = message
        self.line = line
    }

    /// `rule: message (line N) [CODE]`.
    public var description: String {
        "\(rule): \(message)\(line.map { " (line \($0))" } ?? "") [\(code.rawValue)]"
    }
}
