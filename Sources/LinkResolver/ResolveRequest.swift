import HTTPTypes
import LinkMatching
import LinkRules
import WebLinks

/// What a caller asks of a resolution, beside the link: what to list (``match``: installed apps, platform, headers,
/// browsers, previews, the regexes' budget), the time the whole resolution may take, whether scripts run, and whether
/// to explain. Every front end (the CLI's `resolve`, `explain` and batch, each HTTP route) fills one of these.
///
/// The matcher's options read and write through the request (`request.installed`, `request.platform`).
@dynamicMemberLookup
public struct ResolveRequest: Sendable, Equatable {
    /// What to list. Its `headers`, when nil, are looked up with HEAD when a `headers` rule could apply and the
    /// resolver has a network.
    public var match: MatchOptions
    /// Whether scripts run (off: their openings are listed with `needsScript` and no URL).
    public var runsScripts: Bool
    /// The whole resolution's time: redirect rules, HTTP unwrapping, header lookups, matching and every script.
    public var timeLimit: Duration
    /// Whether the resolution records why each rule did or did not open the link (`explain`).
    public var trace: Bool
    /// The longest input link accepted, in UTF-8 bytes.
    public var maximumLinkLength: Int
    /// Whether the resolver's cleaner (ClearURLs' catalog) cleans the link before the rules see it (on by default;
    /// a resolver without a cleaner never cleans).
    public var cleansLinks: Bool = true
    /// Whether cleaning keeps referral-marketing fields (affiliate tags), as ClearURLs' switch does.
    public var allowsReferralMarketing: Bool = false

    /// Creates a request (defaults: every app, both platforms, scripts on, 15 s, no trace).
    public init(
        match: MatchOptions = MatchOptions(),
        runsScripts: Bool = true,
        timeLimit: Duration = .seconds(15),
        trace: Bool = false,
        maximumLinkLength: Int = Link.maximumLength
    ) {
        self.match = match
        self.runsScripts = runsScripts
        self.timeLimit = timeLimit
        self.trace = trace
        self.maximumLinkLength = maximumLinkLength
    }

    /// The matcher's options, read and written through the request.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<MatchOptions, Value>) -> Value {
        get { match[keyPath: keyPath] }
        set { match[keyPath: keyPath] = newValue }
    }

    /// The matcher's options with `headers` (given or looked up).
    func matchOptions(headers: HTTPFields?) -> MatchOptions {
        var options = match
        options.headers = headers
        return options
    }
}
