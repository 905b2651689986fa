import Foundation
import LinkMatching
import LinkRules

extension RuleSet {
    /// The URL of Switchyard's own bundled rule set (`default-rules.json`, written by the team, Opener format v5).
    public static var bundledRulesURL: URL? {
        Bundle.module.url(forResource: "default-rules", withExtension: "json")
    }

    /// Loads the bundled rule set, so the main job works with no flags and no network.
    ///
    /// `scriptChecker` parses its scripts at load (`LinkResolver`'s `JavaScriptChecker`, JavaScriptCore's parser);
    /// without one they are kept as written, which is safe for these rules: the tests load them with JavaScriptCore's
    /// parser and lint them clean, so an app that only lists openings gets them without linking JavaScriptCore.
    public static func bundled(scriptChecker: (any ScriptChecking)? = nil) throws(ManifestError) -> RuleSet {
        RuleSet(try bundledManifest(), scriptChecker: scriptChecker)
    }

    /// The bundled manifest as loaded (named `bundled:default-rules.json` in diagnostics), for tools such as lint.
    public static func bundledManifest() throws(ManifestError) -> LoadedManifest {
        guard let url = bundledRulesURL else {
            throw ManifestError(
                code: .unreadable,
                message: "the bundled rules resource default-rules.json is missing from the build"
            )
        }
        var loaded = try ManifestLoader().load(contentsOf: url)
        loaded.file = "bundled:default-rules.json"
        loaded.diagnostics = loaded.diagnostics.map {
            var diagnostic = $0
            diagnostic.file = loaded.file
            return diagnostic
        }
        return loaded
    }
}
