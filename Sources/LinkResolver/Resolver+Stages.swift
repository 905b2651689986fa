import LinkMatching
import LinkResolution
import WebLinks

extension Resolver {
    /// The link wrappers around `link`, decoded offline (``RuleSet/wrappers``): each wrapper's step is added to `steps`,
    /// the notices of one left as it is to the resolution's (an opaque one only offline: online it is followed as a
    /// short link), and the first wrapped link of the resolution is kept for browsers that open it.
    func decodeWrappers(_ link: Link, steps: inout [UnwrapStep], _ run: inout Run) -> Link {
        let decoded = rules.decodeWrappers(
            link,
            maximumLength: run.request.maximumLinkLength,
            offline: redirectFollower == nil
        )
        guard !decoded.steps.isEmpty || !decoded.notices.isEmpty else { return decoded.link }
        steps += decoded.steps
        for notice in decoded.notices where !run.notices.contains(notice) { run.notices.append(notice) }
        if run.wrapped == nil, let wrapped = decoded.wrapped {
            run.wrapped = wrapped
            run.browserLink = rules.opensWrapped(run.request.match) ? wrapped : nil
        }
        return decoded.link
    }

    /// The cleaning stages, in order, on one link, within what is left of the budget (at most a quarter second each);
    /// a site the user layer leaves alone (`skipCleaning`) is not touched. Each stage's step is added to `steps`.
    func clean(_ link: Link, steps: inout [UnwrapStep], _ run: inout Run) -> Link {
        guard run.request.cleansLinks, !stages.cleaning.isEmpty else { return link }
        let layer = rules.userLayer
        var link = link
        for stage in stages.cleaning {
            let context = CleaningContext(
                request: run.request,
                timeLimit: min(run.budget.timeLeft, .milliseconds(250))
            ) { host in layer?.skipsCleaning(host: host) ?? false }
            let outcome = stage.clean(link, context)
            run.limit(to: outcome.cacheability)
            if let step = outcome.step { steps.append(step) }
            if let cleaned = outcome.link { link = cleaned }
        }
        return link
    }

    /// The decision stages, in order, over the finished resolution of `link`.
    func decide(_ resolution: inout Resolution, link: Link, _ run: inout Run) {
        guard !stages.decisions.isEmpty else { return }
        let context = DecisionContext(rules: rules, request: run.request, link: link)
        for stage in stages.decisions {
            run.limit(to: stage.decide(&resolution, context))
        }
    }
}
