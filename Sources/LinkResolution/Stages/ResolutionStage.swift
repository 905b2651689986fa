import LinkMatching
import WebLinks

/// A part of the resolution that an application plugs into LinkResolver's `Resolver` (``ResolverStages``): the resolver runs
/// the stages it is given, in order, under the resolution's one deadline, for every front end.
///
/// Every stage states what identifies its contribution (``identity``), so that a resolution's ``CacheKey`` covers it
/// without any front end listing it, and each run says how long its contribution may be kept (``Cacheability``).
public protocol ResolutionStage: Sendable {
    /// What identifies this stage's contribution now: the same identity, rules and request give the same
    /// contribution (a catalog's SHA-256, a store's revision). Read once per resolution, so it should be cheap; it is
    /// part of every ``CacheKey``.
    var identity: String { get }
}

/// A stage that rewrites a link before the rules see it: the input link, a redirect rule's target, and every link an
/// HTTP redirect leads to. ClearURLs' cleaner conforms in `LinkCleaning`.
public protocol LinkCleaningStage: ResolutionStage {
    /// Cleans `link` within `context`'s time, or leaves it as it is.
    func clean(_ link: Link, _ context: CleaningContext) -> CleaningOutcome
}

/// A stage that decides over the finished openings of a resolution: marks some preferred, adds notices. The SQLite
/// choices store's remembered site choices conform in `AppChooser`.
public protocol OpeningDecisionStage: ResolutionStage {
    /// Decides over `resolution` (its `unwrapped` link and `openings`) and says how long the decision may be kept.
    func decide(_ resolution: inout Resolution, _ context: DecisionContext) -> Cacheability
}

/// The stages LinkResolver's `Resolver` runs, by kind, each kind in the order given.
public struct ResolverStages: Sendable {
    /// Run on every link before the redirect rules and the matcher see it, in order, unless the request says
    /// `cleansLinks: false`.
    public var cleaning: [any LinkCleaningStage]
    /// Run on the final link, beside the scripts, each adding openings (the domain's claims), unless the request says
    /// `includesClaims: false`.
    public var openings: [any LinkOpeningStage]
    /// Run over the finished openings, in order.
    public var decisions: [any OpeningDecisionStage]

    /// Creates the stages (none by default: the resolver is the rules, the scripts and the network alone).
    public init(
        cleaning: [any LinkCleaningStage] = [],
        openings: [any LinkOpeningStage] = [],
        decisions: [any OpeningDecisionStage] = []
    ) {
        self.cleaning = cleaning
        self.openings = openings
        self.decisions = decisions
    }

    /// Every stage, in the order the resolution meets them.
    public var all: [any ResolutionStage] { cleaning + openings + decisions }
}
