/// Checks a rule's script while a rule set compiles: a script that cannot work is left out with a diagnostic, like
/// a regex ICU rejects.
///
/// The matcher runs no JavaScript, so it cannot parse scripts itself; `LinkResolver` passes JavaScriptCore's
/// parser. A rule set compiled without a checker keeps every script and lists its openings with `needsScript`.
public protocol ScriptChecking: Sendable {
    /// Why `source` cannot run, or nil when it parses and defines `process(url, completionHandler)`.
    func problem(in source: String) -> ScriptProblem?
}

/// Why a rule's script cannot run.
public struct ScriptProblem: Sendable, Equatable {
    /// The kind of problem.
    public enum Kind: String, Sendable {
        /// The script does not parse (`E_SCRIPT_SYNTAX`).
        case syntax = "E_SCRIPT_SYNTAX"
        /// The script defines no `process` function (`E_NO_PROCESS`).
        case noProcess = "E_NO_PROCESS"
    }

    /// The kind of problem.
    public var kind: Kind
    /// The parser's message.
    public var message: String
    /// The script line, when the parser gives one.
    public var line: Int?

    /// Creates a problem.
    public init(_ kind: Kind, message: String, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
    }
}
