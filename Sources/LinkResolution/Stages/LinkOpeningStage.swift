import LinkFetching
import LinkMatching
import WebLinks

/// A stage that adds openings for the final link, asynchronously and with the network: after the cleaning stages, the
/// redirect rules, HTTP unwrapping and the matcher have decided which link the openings are for, beside the scripts and
/// before the decision stages, inside the resolution's deadline. The domain claims (`DomainClaimsStage`: the apps a
/// site's apple-app-site-association and assetlinks.json files claim the link for) conform.
///
/// The resolver runs them unless the request says ``ResolveRequest/includesClaims`` false or the user layer leaves the
/// link's site alone (`sites` with `skipClaims`); it puts their openings after the actions' (before browsers and
/// previews) and applies the user layer's `hide` and `prefer` to them.
public protocol LinkOpeningStage: ResolutionStage {
    /// The openings `link` gets from this stage, within `context`'s deadline and network.
    func openings(for link: Link, _ context: OpeningContext) async -> OpeningStageOutcome
}

/// What an opening stage is given besides the link.
public struct OpeningContext: Sendable {
    /// The rules the link was resolved with (a stage names its openings' apps after the manifest's).
    public let rules: RuleSet
    /// The request being resolved.
    public let request: ResolveRequest
    /// The resolution's network: each distinct request of the resolution made once, through the resolver's fetching
    /// stack (its HTTP cache, per-host limits and host state) and its network policy; nil when the resolver is
    /// offline.
    public let fetcher: (any LinkFetching)?
    /// When the resolution must be done.
    public let deadline: ContinuousClock.Instant

    /// Creates a context.
    public init(
        rules: RuleSet,
        request: ResolveRequest,
        fetcher: (any LinkFetching)?,
        deadline: ContinuousClock.Instant
    ) {
        self.rules = rules
        self.request = request
        self.fetcher = fetcher
        self.deadline = deadline
    }
}

/// What an opening stage gave for one link.
public struct OpeningStageOutcome: Sendable {
    /// The openings to add, in order.
    public var openings: [Opening]
    /// What the stage read and decided, for the trace (`ResolutionTrace.claims`).
    public var claims: [ClaimsFileTrace]
    /// What a front end should report (a stale file used because its server failed).
    public var notices: [ResolutionNotice]
    /// How long the contribution may be kept: the shortest freshness of what the stage fetched.
    public var cacheability: Cacheability

    /// Creates an outcome.
    public init(
        openings: [Opening] = [],
        claims: [ClaimsFileTrace] = [],
        notices: [ResolutionNotice] = [],
        cacheability: Cacheability = .unlimited
    ) {
        self.openings = openings
        self.claims = claims
        self.notices = notices
        self.cacheability = cacheability
    }
}
