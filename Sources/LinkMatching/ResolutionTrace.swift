import LinkRules

/// Why each rule did or did not open a link, recorded by the same run that produced the openings: what
/// `switchyard explain` and `GET /v1/explain` show.
public struct ResolutionTrace: Sendable, Equatable, Codable {
    /// Each redirect rule's verdict, in file order.
    public var redirects: [RedirectTrace] = []
    /// Each action's verdict, in manifest order (every action, candidates or not).
    public var actions: [ActionTrace] = []

    /// Creates an empty trace.
    public init() {}
}

/// One redirect rule's verdict.
public struct RedirectTrace: Sendable, Equatable, Codable {
    /// What the rule did.
    public enum Verdict: String, Sendable, Codable {
        /// It matched at the start of the link and gave the next link.
        case applied
        /// Its regex does not match at the start of the link.
        case noMatch = "no match"
        /// It matched, but its result was refused (see ``RedirectTrace/reason``).
        case refused
        /// Its regex ran out of time.
        case timedOut = "timed out"
        /// An earlier rule decided, so it was not tried.
        case notTried = "not tried"
    }

    /// Where the rule is defined.
    public var rule: JSONPointer
    /// What it did.
    public var verdict: Verdict
    /// The link it gave, when applied.
    public var result: String?
    /// Why its result was refused.
    public var reason: String?

    /// Creates a verdict.
    public init(rule: JSONPointer, verdict: Verdict, result: String? = nil, reason: String? = nil) {
        self.rule = rule
        self.verdict = verdict
        self.result = result
        self.reason = reason
    }
}

/// One action's verdict.
public struct ActionTrace: Sendable, Equatable, Codable {
    /// What happened to the action.
    public enum Verdict: String, Sendable, Codable {
        /// Its regex matched: its formats gave openings.
        case matched
        /// The prefilter chose it and its regex did not match.
        case noMatch = "no match"
        /// The prefilter ruled it out: the link lacks a literal every match needs.
        case notCandidate = "not a candidate"
        /// Its regex ran out of time.
        case timedOut = "timed out"
        /// None of its apps is installed or available on the platform, so its regex did not run.
        case noAllowedApp = "no allowed app"
    }

    /// Where the action is defined.
    public var rule: JSONPointer
    /// Its title.
    public var title: String
    /// Its regex.
    public var regex: String
    /// The literals the prefilter looks for (nil: the rule is always confirmed by its regex).
    public var requiredLiterals: [String]?
    /// What happened.
    public var verdict: Verdict
    /// The first match's range in UTF-16 units, `[offset, length]`.
    public var matchRange: [Int]?
    /// The first match's groups, `$0` first (nil entries: the group did not take part).
    public var groups: [String?]?
    /// The openings its formats gave, by their rules.
    public var openings: [JSONPointer] = []

    /// Creates a verdict.
    public init(
        rule: JSONPointer,
        title: String,
        regex: String,
        requiredLiterals: [String]?,
        verdict: Verdict,
        matchRange: [Int]? = nil,
        groups: [String?]? = nil,
        openings: [JSONPointer] = []
    ) {
        self.rule = rule
        self.title = title
        self.regex = regex
        self.requiredLiterals = requiredLiterals
        self.verdict = verdict
        self.matchRange = matchRange
        self.groups = groups
        self.openings = openings
    }
}
