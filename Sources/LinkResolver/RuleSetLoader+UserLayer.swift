import LinkMatching
import LinkResolution
import LinkRules

extension RuleSetLoader {
    /// Loads the user layer file at `path` and applies it over `rules` (over the manifest's own rules if `rules`
    /// already has a layer): the one way the CLI and the server take a layer.
    ///
    /// A layer is all or nothing: a file that cannot be read, is not JSON, is not a user layer, or has an entry with
    /// an error (a bad key type, a regex ICU rejects, a script that cannot run) is refused with every located error,
    /// so a front end keeps what it had. Warnings (a reference the manifest no longer has, an unknown key) are in
    /// the result's `AppliedUserLayer.diagnostics` (LinkMatching) for the caller to show.
    public func apply(userLayer path: String, over rules: RuleSet) throws(RuleSetLoadError) -> RuleSet {
        let loaded: LoadedUserLayer
        do {
            loaded = try UserLayerLoader(limits: limits).load(contentsOf: path)
        } catch {
            throw RuleSetLoadError(error, source: path)
        }
        return try apply(loaded, over: rules, source: path)
    }

    /// Applies a loaded user layer over `rules`, refused when it has errors (see ``apply(userLayer:over:)``).
    public func apply(
        _ loaded: LoadedUserLayer,
        over rules: RuleSet,
        source: String
    ) throws(RuleSetLoadError)
        -> RuleSet
    {
        let layered = rules.applying(loaded, scriptChecker: JavaScriptChecker())
        let errors = layered.userLayer?.errors ?? []
        guard errors.isEmpty else {
            throw RuleSetLoadError(
                source: loaded.file ?? source,
                message:
                    "the user layer is refused, so none of it is used: \(errors.count) \(errors.count == 1 ? "entry has an error" : "entries have errors")",
                diagnostics: errors.map(\.refused)
            )
        }
        return layered
    }
}
