import LinkRules

extension RuleSet {
    /// The openings of a matched action: one per format whose app the options allow, each template rendered by
    /// `render(format, template)` (from ICU's offsets or matches, whichever the caller has).
    @inline(__always)
    func appendFormats(
        of compiled: CompiledAction,
        options: MatchOptions,
        to result: inout [Opening],
        render: (CompiledFormat, String) -> String
    ) {
        for format in compiled.formats where options.allows(scheme: format.scheme, platform: format.platform) {
            appendOpening(
                format.output,
                to: &result,
                kind: .action,
                app: format.appInfo,
                title: compiled.action.title,
                rule: format.rule,
                script: format.script,
                layer: format.layer
            ) { render(format, $0) }
        }
    }

    /// An opening for one output: a template is rendered (and refused when unsafe), a script is left to run.
    /// (Appended here rather than returned: returning it made the optimiser copy every opening once more.)
    package func appendOpening(
        _ output: Output,
        to result: inout [Opening],
        kind: Opening.Kind,
        app: OpeningApp?,
        title: String,
        rule: JSONPointer,
        script: RuleScript?,
        canSave: Bool? = nil,
        layer: RuleLayer? = nil,
        render: (String) -> String
    ) {
        switch output {
        case .template(let template):
            let (url, problem) = OutputSafety.vetted(render(template))
            result.append(
                Opening(
                    kind: kind,
                    app: app,
                    title: title,
                    rule: rule,
                    url: problem == nil ? url : nil,
                    needsScript: false,
                    error: problem.map(OpeningError.unsafeOutput),
                    script: nil,
                    canSave: canSave,
                    layer: layer
                )
            )
        case .script:
            result.append(
                Opening(
                    kind: kind,
                    app: app,
                    title: title,
                    rule: rule,
                    url: nil,
                    needsScript: true,
                    error: nil,
                    script: script,
                    canSave: canSave,
                    layer: layer
                )
            )
        }
    }
}
