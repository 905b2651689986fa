import LinkMatching
/// Renders script outputs (`script2`, legacy `script`) for the resolver and the test runner.
///
/// The JavaScriptCore implementation is wired in by the tools; the protocol keeps the rule engine usable
/// without a JavaScript engine (scripts are then listed as needing one, and their test cases are skipped).
public protocol ScriptEvaluating: Sendable {
    /// Runs `source`'s `process(input, completion)` and reports what it produced.
    func evaluate(_ source: String, legacy: Bool, input: String, rule: String) async -> ScriptEvaluation
}

/// What a script run produced.
public enum ScriptEvaluation: Sendable, Equatable {
    /// The script completed with this URL (nil: it reported no result).
    case completed(String?)
    /// The script could not run here (for example it needs the network and the run is offline).
    case unavailable(reason: String)
    /// The script failed: timeout, exception, a bad result.
    case failed(reason: String)
}
