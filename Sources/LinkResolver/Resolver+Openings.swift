import LinkFetching
import LinkMatching
import LinkResolution
import LinkRules
import WebLinks

extension Resolver {
    /// What the opening stages gave for the final link, together.
    struct AddedOpenings: Sendable {
        var openings: [Opening] = []
        var claims: [ClaimsFileTrace] = []
        var notices: [ResolutionNotice] = []
        var cacheability = Cacheability.unlimited
        /// The user layer's `sites` entry that left the link's claims unread.
        var skippedBy: JSONPointer?
    }

    /// Runs the opening stages on `link`, in order, until `deadline`, through the resolution's `scope` of the
    /// resolver's network (unless the request says `includesClaims: false`, or the user layer's `sites` leave the
    /// host's claims unread).
    func addedOpenings(
        for link: Link,
        request: ResolveRequest,
        scope: ResolutionScope?,
        deadline: ContinuousClock.Instant
    ) async -> AddedOpenings {
        var added = AddedOpenings()
        guard request.includesClaims, !stages.openings.isEmpty else { return added }
        if let site = rules.userLayer?.layer.skipsClaims(host: link.host) {
            added.skippedBy = site.pointer.appending("skipClaims")
            return added
        }
        let context = OpeningContext(
            rules: rules,
            request: request,
            fetcher: scope,
            deadline: deadline
        )
        for stage in stages.openings {
            let outcome = await stage.openings(for: link, context)
            added.openings += outcome.openings
            added.claims += outcome.claims
            added.notices += outcome.notices
            added.cacheability = added.cacheability.combined(with: outcome.cacheability)
        }
        return added
    }

    /// Puts what the opening stages gave into the resolution: their openings after the actions' (the user layer's
    /// `hide` and `prefer` applied to them), their claims into the trace, their notices, their cacheability.
    func merge(_ added: AddedOpenings, into openings: inout [Opening], link: Link, _ run: inout Run) {
        run.limit(to: added.cacheability)
        var decisions: [LayerDecision] = []
        if let entry = added.skippedBy {
            decisions.append(LayerDecision(entry: entry, effect: .skippedClaims, target: link.host, rules: []))
        }
        var claimed = added.openings
        if let layer = rules.userLayer, !claimed.isEmpty {
            decisions += layer.applyAppChoices(to: &claimed, host: link.host, sourceApp: run.request.match.sourceApp)
        }
        let index = openings.firstIndex { $0.kind == .browser || $0.kind == .preview } ?? openings.endIndex
        openings.insert(contentsOf: claimed, at: index)
        if run.trace != nil {
            if !decisions.isEmpty {
                let earlier = run.trace?.userLayer ?? []
                run.trace?.userLayer = earlier + decisions
            }
            if request(run.request, ranOpeningStages: added) { run.trace?.claims = added.claims }
        }
        run.notices += added.notices
    }

    private func request(_ request: ResolveRequest, ranOpeningStages added: AddedOpenings) -> Bool {
        request.includesClaims && !stages.openings.isEmpty && added.skippedBy == nil
    }
}
