import HTTPTypes
import LinkMatching
import LinkRules
import WebLinks

/// What a caller asks of a resolution, beside the link: the device's apps, the time it may take, and whether to
/// explain. Every front end (the CLI's `resolve`, `explain` and batch, each HTTP route) fills one of these.
public struct ResolveRequest: Sendable, Equatable {
    /// The installed apps; when set, only openings in those apps are listed.
    public var installed: InstalledApps?
    /// The device family; apps limited to the other one are dropped.
    public var platform: Platform?
    /// The link's response headers for `headers` rules (nil: looked up with HEAD when such a rule could apply and
    /// the resolver has a network).
    public var headers: HTTPFields?
    /// Whether browsers are listed.
    public var includeBrowsers: Bool
    /// Whether previews are listed.
    public var includePreviews: Bool
    /// Whether scripts run (off: their openings are listed with `needsScript` and no URL).
    public var runsScripts: Bool
    /// The whole resolution's time: redirect rules, HTTP unwrapping, header lookups, matching and every script.
    public var timeLimit: Duration
    /// The regexes' share of it.
    public var matchBudget: MatchBudget
    /// Whether the resolution records why each rule did or did not open the link (`explain`).
    public var trace: Bool
    /// The longest input link accepted, in UTF-8 bytes.
    public var maximumLinkLength: Int

    /// Creates a request (defaults: every app, both platforms, scripts on, 15 s, no trace).
    public init(
        installed: InstalledApps? = nil,
        platform: Platform? = nil,
        headers: HTTPFields? = nil,
        includeBrowsers: Bool = true,
        includePreviews: Bool = true,
        runsScripts: Bool = true,
        timeLimit: Duration = .seconds(15),
        matchBudget: MatchBudget = MatchBudget(),
        trace: Bool = false,
        maximumLinkLength: Int = Link.maximumLength
    ) {
        self.installed = installed
        self.platform = platform
        self.headers = headers
        self.includeBrowsers = includeBrowsers
        self.includePreviews = includePreviews
        self.runsScripts = runsScripts
        self.timeLimit = timeLimit
        self.matchBudget = matchBudget
        self.trace = trace
        self.maximumLinkLength = maximumLinkLength
    }

    /// The matcher's options for this request, with `headers` (given or looked up).
    func matchOptions(headers: HTTPFields?) -> MatchOptions {
        MatchOptions(
            installed: installed,
            platform: platform,
            headers: headers,
            includeBrowsers: includeBrowsers,
            includePreviews: includePreviews,
            budget: matchBudget
        )
    }
}
