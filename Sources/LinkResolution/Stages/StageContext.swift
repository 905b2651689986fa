import LinkMatching
import WebLinks

/// What a cleaning stage is given besides the link.
public struct CleaningContext: Sendable {
    /// The request being resolved (``ResolveRequest/allowsReferralMarketing`` and the rest).
    public let request: ResolveRequest
    /// The time the stage may take for this link: what is left of the resolution's, at most a quarter second.
    public let timeLimit: Duration
    /// Whether the user's layer leaves links to this host alone (`sites` with `skipCleaning`): a stage that follows a
    /// link to another host asks again for that host.
    public let skipsHost: @Sendable (String) -> Bool

    /// Creates a context.
    public init(request: ResolveRequest, timeLimit: Duration, skipsHost: @escaping @Sendable (String) -> Bool) {
        self.request = request
        self.timeLimit = timeLimit
        self.skipsHost = skipsHost
    }
}

/// What a cleaning stage did to one link.
public struct CleaningOutcome: Sendable {
    /// The link to go on with (nil: the link stays as it was).
    public var link: Link?
    /// The step the resolution shows (a `clean` step listing what was removed, or why nothing was); nil when there is
    /// nothing to say.
    public var step: UnwrapStep?
    /// How long the cleaning's result may be kept (`uncacheable` when a rule ran out of time).
    public var cacheability: Cacheability

    /// Creates an outcome.
    public init(link: Link? = nil, step: UnwrapStep? = nil, cacheability: Cacheability = .unlimited) {
        self.link = link
        self.step = step
        self.cacheability = cacheability
    }

    /// Nothing changed, nothing to say.
    public static let unchanged = CleaningOutcome()
}

/// What a decision stage is given besides the resolution.
public struct DecisionContext: Sendable {
    /// The rules the link was resolved with (to tell an app they no longer list from one that is not installed).
    public let rules: RuleSet
    /// The request being resolved (its installed apps and platform).
    public let request: ResolveRequest
    /// The link the openings are for: the resolution's `unwrapped` link.
    public let link: Link

    /// Creates a context.
    public init(rules: RuleSet, request: ResolveRequest, link: Link) {
        self.rules = rules
        self.request = request
        self.link = link
    }
}
