import LinkRules

// The parts of a user layer decided for each link, in the order of its precedence (Docs/UserLayer.md): a site
// exclusion, then the `when` entries that apply (browserOnly, disable, hide), then the top-level `hide`, then
// `prefer` (the `when` entries' first): hide beats prefer, since a hidden opening is gone before anything is marked.

extension AppliedUserLayer {
    /// Removes and marks the openings of a link to `host` from `sourceApp` as the layer says, recording each decision
    /// in `trace`; returns whether an action opening was removed (the link is then decided: no HTTP unwrapping).
    func apply(
        to openings: inout [Opening],
        host: String,
        sourceApp: String?,
        trace: inout ResolutionTrace?
    ) -> Bool {
        var decisions: [LayerDecision] = []
        var removedAction = false
        if trace != nil {
            for resolved in disabledAtLoad where !resolved.rules.isEmpty {
                decisions.append(
                    LayerDecision(
                        entry: resolved.reference.pointer,
                        effect: .disabled,
                        target: resolved.reference.description,
                        rules: resolved.rules
                    )
                )
            }
        }
        func remove(
            _ effect: LayerDecision.Effect,
            _ entry: JSONPointer,
            _ target: String,
            _ isRemoved: (Opening) -> Bool
        ) {
            var rules: [JSONPointer] = []
            var layerRules: [JSONPointer] = []
            openings.removeAll { opening in
                guard isRemoved(opening) else { return false }
                if opening.layer == nil { rules.append(opening.rule) } else { layerRules.append(opening.rule) }
                if opening.kind == .action { removedAction = true }
                return true
            }
            if !rules.isEmpty || !layerRules.isEmpty || effect == .site {
                decisions.append(
                    LayerDecision(
                        entry: entry,
                        effect: effect,
                        target: target,
                        rules: rules,
                        layerRules: layerRules.isEmpty ? nil : layerRules
                    )
                )
            }
        }
        if let site = excludingSite(for: host) {
            remove(.site, site.pointer, host) { $0.layer == nil && $0.kind == .action }
        }
        let conditions = conditions(sourceApp: sourceApp, host: host)
        for (index, condition) in conditions {
            if condition.browserOnly {
                let target = sourceApp.map { "links from \($0)" } ?? "links to \(host)"
                remove(.browserOnly, condition.pointer.appending("browserOnly"), target) { $0.kind == .action }
            }
            for resolved in conditionalDisables[index] {
                let rules = Set(resolved.rules)
                remove(.disabled, resolved.reference.pointer, resolved.reference.description) {
                    $0.layer == nil && rules.contains($0.rule)
                }
            }
        }
        let actions = openings.count(where: { $0.kind == .action })
        decisions += appChoices(&openings, conditions: conditions.map(\.element))
        if openings.count(where: { $0.kind == .action }) < actions { removedAction = true }
        if trace != nil { trace?.userLayer = decisions }
        return removedAction
    }

    /// Removes the openings of the apps the layer hides and marks those of the apps it prefers, for a link to `host`
    /// from `sourceApp`: the `hide` and `prefer` entries of the `when` entries that apply, then the top-level ones.
    /// The matcher applies it to its openings; the resolver to the openings its opening stages add (the apps a
    /// domain claims the link for, named by their manifest app or their bundle ID or package). Returns what each
    /// entry did.
    public func applyAppChoices(to openings: inout [Opening], host: String, sourceApp: String?) -> [LayerDecision] {
        appChoices(&openings, conditions: conditions(sourceApp: sourceApp, host: host).map(\.element))
    }

    private func appChoices(_ openings: inout [Opening], conditions: [LayerCondition]) -> [LayerDecision] {
        var decisions: [LayerDecision] = []
        func decision(_ effect: LayerDecision.Effect, _ app: AppReference, _ touched: [Opening]) {
            guard !touched.isEmpty else { return }
            var decision = LayerDecision(
                entry: app.pointer,
                effect: effect,
                target: "app \"\(app.identifier)\"",
                rules: touched.filter { $0.layer == nil && $0.claim == nil }.map(\.rule)
            )
            let layerRules = touched.filter { $0.layer != nil }.map(\.rule)
            if !layerRules.isEmpty { decision.layerRules = layerRules }
            let claims = touched.compactMap(\.claim).map { "\($0.file)#\($0.rule)" }
            if !claims.isEmpty { decision.claims = claims }
            decisions.append(decision)
        }
        for hide in conditions.flatMap(\.hide) + layer.hide {
            var removed: [Opening] = []
            openings.removeAll { opening in
                guard opening.app?.identifier == hide.identifier else { return false }
                removed.append(opening)
                return true
            }
            decision(.hidden, hide, removed)
        }
        for prefer in conditions.flatMap(\.prefer) + layer.prefer {
            let preference = OpeningPreference(by: .userLayer, reason: prefer.pointer.description)
            var marked: [Opening] = []
            for index in openings.indices where openings[index].app?.identifier == prefer.identifier {
                if openings[index].preferred == nil { openings[index].preferred = preference }
                marked.append(openings[index])
            }
            decision(.preferred, prefer, marked)
        }
        return decisions
    }

    /// The layer entry that leaves the manifest's redirect rule at `rule` out for a link to `host` from `sourceApp`
    /// (nil: the rule is tried).
    func skipping(redirect rule: JSONPointer, host: String, sourceApp: String?) -> JSONPointer? {
        if let site = excludingSite(for: host) { return site.pointer }
        for (index, _) in conditions(sourceApp: sourceApp, host: host) {
            if let resolved = conditionalDisables[index].first(where: { $0.rules.contains(rule) }) {
                return resolved.reference.pointer
            }
        }
        return nil
    }
}
