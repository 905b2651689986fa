import Foundation
import LinkMatching
import LinkResolution
import LinkRules
import LinkScripts

/// JavaScriptCore's parser as the rule set's `ScriptChecking`: what every rule set loaded through `LinkResolver`
/// uses, so a script that cannot parse or defines no `process` is reported at load with its pointer.
public struct JavaScriptChecker: ScriptChecking {
    /// Creates a checker (one JavaScriptCore context per process serves every checker).
    public init() {}

    /// JavaScriptCore's syntax error, or the missing `process` function.
    public func problem(in source: String) -> ScriptProblem? {
        if let problem = ScriptSyntaxChecker.shared.check(source) {
            return ScriptProblem(.syntax, message: problem.message, line: problem.line)
        }
        guard ScriptSyntaxChecker.mentionsProcess(source) else {
            return ScriptProblem(.noProcess, message: "the script defines no function process(url, completionHandler)")
        }
        return nil
    }
}

extension RuleSet {
    /// Loads and compiles a manifest file, its scripts parsed by JavaScriptCore.
    public static func load(
        contentsOf url: URL,
        limits: ManifestLimits = ManifestLimits()
    ) throws(ManifestError) -> RuleSet {
        try load(contentsOf: url, limits: limits, scriptChecker: JavaScriptChecker())
    }

    /// Loads and compiles a manifest from its text, its scripts parsed by JavaScriptCore.
    public static func load(_ text: String, file: String? = nil) throws(ManifestError) -> RuleSet {
        try load(text, file: file, scriptChecker: JavaScriptChecker())
    }

    /// Compiles a loaded manifest, its scripts parsed by JavaScriptCore.
    public init(_ loaded: LoadedManifest) {
        self.init(loaded, scriptChecker: JavaScriptChecker())
    }
}
