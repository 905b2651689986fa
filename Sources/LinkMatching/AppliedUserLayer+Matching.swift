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
        for hide in conditions.flatMap(\.element.hide) + layer.hide {
            remove(.hidden, hide.pointer, "app \"\(hide.identifier)\"") { $0.app?.identifier == hide.identifier }
        }
        for prefer in conditions.flatMap(\.element.prefer) + layer.prefer {
            let preference = OpeningPreference(by: .userLayer, reason: prefer.pointer.description)
            var rules: [JSONPointer] = []
            var layerRules: [JSONPointer] = []
            for index in openings.indices where openings[index].app?.identifier == prefer.identifier {
                if openings[index].preferred == nil { openings[index].preferred = preference }
                if openings[index].layer == nil {
                    rules.append(openings[index].rule)
                } else {
                    layerRules.append(openings[index].rule)
                }
            }
            if !rules.isEmpty || !layerRules.isEmpty {
                decisions.append(
                    LayerDecision(
                        entry: prefer.pointer,
                        effect: .preferred,
                        target: "app \"\(prefer.identifier)\"",
                        rules: rules,
                        layerRules: layerRules.isEmpty ? nil : layerRules
                    )
                )
            }
        }
        if trace != nil { trace?.userLayer = decisions }
        return removedAction
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
