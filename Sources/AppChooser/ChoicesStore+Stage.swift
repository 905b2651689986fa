import LinkMatching
import LinkResolution

extension ChoicesStore: OpeningDecisionStage {
    /// `choices:` and the store's ``revision()``: remembering, replacing or forgetting a site anywhere (this process,
    /// another one, a replica on the same file) changes it, and with it every cache key.
    public var identity: String { "choices:" + (revision() ?? "unreadable") }

    /// Marks the openings of the app remembered for the resolution's site preferred, or adds a notice when it has
    /// none (``applyRememberedSite(to:rules:installed:)``), then the default browser's
    /// (``applyDefaultBrowser(to:installed:)``); a store that cannot be read makes the answer uncacheable.
    public func decide(_ resolution: inout Resolution, _ context: DecisionContext) -> Cacheability {
        let installed = context.request.match.installed
        guard applyRememberedSite(to: &resolution, rules: context.rules, installed: installed),
            applyDefaultBrowser(to: &resolution, installed: installed)
        else { return .uncacheable(reason: "the choices store cannot be read") }
        return .unlimited
    }
}
