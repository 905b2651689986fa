import LinkMatching
import LinkResolution
import WebLinks

extension LinkCleaner: LinkCleaningStage {
    /// Cleans one link of a resolution: tracking fields removed and redirect wrappers unwrapped within the context's
    /// time, hosts the user layer leaves alone untouched. A cleaning that changed the link, found it blocked or ran out
    /// of time gives one `clean` step listing what each rule did; running out of time makes the answer uncacheable.
    public func clean(_ link: Link, _ context: CleaningContext) -> CleaningOutcome {
        let options = CleaningOptions(
            allowReferralMarketing: context.request.allowsReferralMarketing,
            timeLimit: context.timeLimit,
            skip: context.skipsHost
        )
        let result = clean(link, options: options)
        let cacheability: Cacheability =
            result.timedOut ? .uncacheable(reason: "a cleaning rule ran out of time") : .unlimited
        guard result.changed || result.blockedBy != nil || result.timedOut else {
            return CleaningOutcome(cacheability: cacheability)
        }
        var details = result.steps.map(\.description)
        if result.timedOut {
            details.append("a cleaning rule ran out of time and was taken as not matching")
        }
        if let blockedBy = result.blockedBy {
            details.append(
                "the complete provider \"\(blockedBy)\" blocks this link in ClearURLs; it is listed as it is"
            )
        }
        var step = UnwrapStep(kind: .clean, rule: "ClearURLs", from: link.text, to: result.link)
        step.details = details
        guard result.changed else {
            step.to = nil
            step.refused =
                result.blockedBy.map { "blocked by \($0)" } ?? "nothing removed: a cleaning rule ran out of time"
            return CleaningOutcome(step: step, cacheability: cacheability)
        }
        guard let cleaned = try? Link(result.link, maximumLength: context.request.maximumLinkLength) else {
            step.to = nil
            step.refused = "the cleaned link is not a web link"
            return CleaningOutcome(step: step, cacheability: cacheability)
        }
        return CleaningOutcome(link: cleaned, step: step, cacheability: cacheability)
    }
}
