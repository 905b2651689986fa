import LinkMatching
import LinkResolver
import LinkRules

extension RuleLinter {
    /// Lints a user layer file as applied over `rules` (the manifest it is meant for): its JSON, keys and types, its
    /// own actions and redirect rules (compiled as the manifest's are), and a warning for each reference `rules` no
    /// longer has. A file that cannot be read or is not a layer is one located error.
    public func lint(userLayer path: String, over rules: RuleSet) -> LintReport {
        do {
            let loaded = try UserLayerLoader(limits: limits).load(contentsOf: path)
            let layered = rules.applying(loaded, scriptChecker: JavaScriptChecker())
            return LintReport(file: path, diagnostics: layered.userLayer?.diagnostics ?? [])
        } catch {
            return LintReport(file: path, diagnostics: [Self.diagnostic(for: error, file: path)])
        }
    }
}
