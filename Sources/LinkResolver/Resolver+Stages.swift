import LinkMatching
import WebLinks

extension Resolver {
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
