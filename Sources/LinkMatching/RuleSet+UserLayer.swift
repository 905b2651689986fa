import LinkRules
import LinkWrappers

extension RuleSet {
    /// These rules with the user's layer over them: the layer's own actions and redirect rules (compiled by the same
    /// compiler, listed and tried before the manifest's), the manifest's entries its unconditional `disable` names
    /// left out, its link wrappers tried before the built-in ones it leaves on (``wrappers``), and its per-link parts
    /// (sites, `when`, `hide`, `prefer`, `openWrapped`) decided by the matcher for each link.
    ///
    /// The manifest's compiled rules are reused as they are; applying another layer (or none: ``withoutUserLayer``)
    /// starts again from them. The layer's problems are in ``AppliedUserLayer/diagnostics``: a front end refuses a
    /// layer with errors.
    public func applying(_ loaded: LoadedUserLayer, scriptChecker: (any ScriptChecking)?) -> RuleSet {
        let base = withoutUserLayer
        let applied = AppliedUserLayer(loaded, over: base, scriptChecker: scriptChecker)
        let removed = Set(applied.disabledAtLoad.flatMap(\.rules))
        let own = applied.rules
        var actions = Array(zip(own.actions, own.indexedActionLiterals))
        for (compiled, literals) in zip(base.actions, base.indexedActionLiterals) {
            let kept = compiled.formats.filter { !removed.contains($0.rule) }
            if kept.count == compiled.formats.count {
                actions.append((compiled, literals))
            } else if !kept.isEmpty {
                actions.append(
                    (
                        CompiledAction(action: compiled.action, regex: compiled.regex, formats: kept, layer: nil),
                        literals
                    )
                )
            }
        }
        return RuleSet(
            manifest: base.manifest,
            file: base.file,
            diagnostics: base.diagnostics,
            actions: actions,
            previews: zip(base.previews, base.indexedPreviewLiterals).filter { !removed.contains($0.0.rule) },
            browsers: base.browsers.filter { !removed.contains($0.rule) },
            redirects: own.redirects + base.redirects.filter { !removed.contains($0.rule.pointer) },
            userLayer: applied,
            wrappers: base.wrappers.applying(
                added: loaded.layer.wrappers,
                disabled: Set(loaded.layer.disabledWrappers.map(\.identifier))
            )
        )
    }

    /// The manifest's rules without any user layer (these rules when none is applied).
    public var withoutUserLayer: RuleSet { userLayer?.base ?? self }
}
