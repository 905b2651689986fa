import LinkRules

/// Why each rule did or did not open a link, recorded by the same run that produced the openings: what
/// `switchyard explain` and `GET /v1/explain` show.
public struct ResolutionTrace: Sendable, Equatable, Codable {
    /// Each redirect rule's verdict, in file order.
    public var redirects: [RedirectTrace] = []
    /// Each action's verdict, in manifest order (every action, candidates or not); the user layer's own actions
    /// come first.
    public var actions: [ActionTrace] = []
    /// What the user layer decided for this link (nil without a layer): which of its entries disabled, hid or
    /// preferred which openings.
    public var userLayer: [LayerDecision]? = nil
    /// What the final link's domain claims, file by file (nil when no claims stage ran): every claim and exclusion
    /// with its rule, the file's URL and its age, or why a file gave no claims.
    public var claims: [ClaimsFileTrace]? = nil
    /// The gateways of a wrapped link (nil when no wrapper was decoded): which link browsers open, and the app
    /// openings that open the inner link directly.
    public var gateway: GatewayTrace? = nil

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
        /// The user layer leaves this manifest rule out for this link (``RedirectTrace/reason`` says which entry).
        case disabled
    }

    /// Where the rule is defined.
    public var rule: JSONPointer
    /// The layer the rule comes from (nil: the manifest).
    public var layer: RuleLayer? = nil
    /// What it did.
    public var verdict: Verdict
    /// The link it gave, when applied.
    public var result: String?
    /// Why its result was refused.
    public var reason: String?

    /// Creates a verdict.
    public init(
        rule: JSONPointer,
        verdict: Verdict,
        result: String? = nil,
        reason: String? = nil,
        layer: RuleLayer? = nil
    ) {
        self.rule = rule
        self.layer = layer
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
    /// The layer the action comes from (nil: the manifest).
    public var layer: RuleLayer? = nil
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

/// One decision of the user layer for a link: which of its entries did what to which openings.
public struct LayerDecision: Sendable, Equatable, Codable {
    /// What the entry did.
    public enum Effect: String, Sendable, Codable {
        /// A `disable` entry left manifest rules out (at load for the top-level list: ``LayerDecision/rules`` are
        /// the rules it removed; for a `when` entry, the openings it removed from this link).
        case disabled
        /// A `sites` entry left the link to the manifest's browsers: its actions' openings were removed and its
        /// redirect rules not tried.
        case site
        /// A `when` entry's `browserOnly` removed every action opening.
        case browserOnly = "browser only"
        /// A `hide` entry removed an app's openings.
        case hidden
        /// A `prefer` entry marked an app's openings preferred.
        case preferred
        /// A `sites` entry's `skipClaims` left the domain's claims unread.
        case skippedClaims = "claims skipped"
    }

    /// The layer entry that decided (`/disable/0`, `/when/1/browserOnly`, `/prefer/0`).
    public var entry: JSONPointer
    /// What it did.
    public var effect: Effect
    /// What it names: `app "twitter"`, a host pattern, a source app.
    public var target: String
    /// The manifest rules of the openings it removed or marked (for a load-time `disable`, the rules it left out).
    public var rules: [JSONPointer]
    /// The layer's own rules of the openings it removed or marked (pointers into the layer file), when there are.
    public var layerRules: [JSONPointer]?
    /// The claims of the openings it removed or marked, as `FILE#POINTER` (the claims file's URL and the rule's JSON
    /// pointer in it), when there are.
    public var claims: [String]? = nil

    /// Creates a decision.
    public init(
        entry: JSONPointer,
        effect: Effect,
        target: String,
        rules: [JSONPointer],
        layerRules: [JSONPointer]? = nil
    ) {
        self.entry = entry
        self.effect = effect
        self.target = target
        self.rules = rules
        self.layerRules = layerRules
    }
}

/// What one claims file of the final link's domain said (an apple-app-site-association or assetlinks.json file): where
/// it was looked for, how old the copy was, why it gave no claims when it gave none, and each app's decision.
public struct ClaimsFileTrace: Sendable, Equatable, Codable {
    /// `apple-app-site-association` or `assetlinks`.
    public var kind: String
    /// The file's URL: the one read, or the last one tried.
    public var url: String
    /// How old the copy read was, in whole seconds (nil: nothing was read).
    public var age: Int?
    /// Why the file gives no claims (not found, a redirect, too large, not JSON, refused by the network policy, out
    /// of time), nil when it was read.
    public var problem: String?
    /// Remarks: a wrong `Content-Type`, the other places tried, includes dropped.
    public var notes: [String]
    /// Each app the file names, in file order, with its decision for the link.
    public var claims: [ClaimTrace]

    /// Creates a file's trace.
    public init(
        kind: String,
        url: String,
        age: Int? = nil,
        problem: String? = nil,
        notes: [String] = [],
        claims: [ClaimTrace] = []
    ) {
        self.kind = kind
        self.url = url
        self.age = age
        self.problem = problem
        self.notes = notes
        self.claims = claims
    }
}

/// One app's claim on the link: `match`, `exclude` or `no_match`, and the rule that decided.
public struct ClaimTrace: Sendable, Equatable, Codable {
    /// The app as the file names it: an app ID (`TEAMID.bundle.id`) or an Android package.
    public var app: String
    /// The manifest app it is, when the manifest names it (its `claims` key).
    public var manifestApp: String?
    /// `match`, `exclude` or `no_match`.
    public var outcome: String
    /// The rule that decided, a JSON pointer into ``file`` (nil for `no_match`).
    public var rule: JSONPointer?
    /// The file the rule is in, when it is not the file this claim is listed under (an assetlinks include).
    public var file: String?
    /// Why a claim that matches gives no opening, as an action's `no allowed app`: its app is `not installed` (the
    /// request's installed apps) or `only on pad`/`only on phone` (its platform); nil when it is listed.
    public var notListed: String?

    /// Creates a claim's trace.
    public init(
        app: String,
        manifestApp: String? = nil,
        outcome: String,
        rule: JSONPointer?,
        file: String? = nil,
        notListed: String? = nil
    ) {
        self.app = app
        self.manifestApp = manifestApp
        self.outcome = outcome
        self.rule = rule
        self.file = file
        self.notListed = notListed
    }
}
