import HTTPTypes
import LinkMatching
import LinkRules
import WebLinks

/// What a caller asks of a resolution, beside the link: what to list (``match``: installed apps, platform, headers,
/// browsers, previews, the regexes' budget, the app the link came from), the time the whole resolution may take,
/// whether scripts run, whether links are cleaned, and whether to explain.
///
/// One value for every front end, decoded the same way by each (`Codable`, ``Field``): the CLI's options (`resolve`,
/// `explain`, `--batch`), the HTTP query string (`/v1/resolve?installed=…`) and the batch body
/// (`{"urls": […], "installed": […]}`). Its encoding is canonical (sorted lists, fixed key order), and it is the
/// request's part of a resolution's ``CacheKey``: every field reaches the key.
///
/// The matcher's options read and write through the request (`request.installed`, `request.platform`).
@dynamicMemberLookup
public struct ResolveRequest: Sendable, Hashable {
    /// What to list. Its `headers`, when nil, are looked up with HEAD when a `headers` rule could apply and the
    /// resolver has a network.
    public var match: MatchOptions
    /// Whether scripts run (off: their openings are listed with `needsScript` and no URL).
    public var runsScripts: Bool
    /// The whole resolution's time: cleaning, redirect rules, HTTP unwrapping, header lookups, matching, every script
    /// and every decision (see ``validTimeLimits``).
    public var timeLimit: Duration
    /// Whether the resolution records why each rule did or did not open the link (`explain`).
    public var trace: Bool
    /// The longest input link accepted, in UTF-8 bytes, as written and in its canonical form (`Link.maximumLength`).
    public var maximumLinkLength: Int
    /// Whether the resolver's cleaning stages (ClearURLs' catalog) clean the link before the rules see it (on by
    /// default; a resolver without cleaning stages never cleans).
    public var cleansLinks: Bool = true
    /// Whether cleaning keeps referral-marketing fields (affiliate tags), as ClearURLs' switch does.
    public var allowsReferralMarketing: Bool = false
    /// Whether the resolver's opening stages (the domain's claims: universal links and app links) run (on by default;
    /// a resolver without such stages never reads claims).
    public var includesClaims: Bool = true
    /// Whether the pages of links on the way are read for the redirects they make themselves (a GET of a page's start,
    /// for a `<meta http-equiv="refresh">`), for every host and not only the bounce hosts the wrapper catalog and the
    /// user layer name; nil when not said (off). A `Refresh` header is followed either way.
    public var followsPages: Bool? = nil
    /// The longest delay of a refresh that is followed as a redirect, in seconds; nil when not said (5: a page that
    /// waits longer refreshes itself rather than bouncing).
    public var maximumRefreshDelay: Int? = nil

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

    /// The time limits a resolution may be given: more than zero, at most ten minutes (`--timeout`, `serve
    /// --timeout`).
    public static let validTimeLimits: ClosedRange<Duration> = .milliseconds(1) ... .seconds(600)

    /// The matcher's options, read and written through the request.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<MatchOptions, Value>) -> Value {
        get { match[keyPath: keyPath] }
        set { match[keyPath: keyPath] = newValue }
    }

    /// The matcher's options with `headers` (given or looked up).
    package func matchOptions(headers: HTTPFields?) -> MatchOptions {
        var options = match
        options.headers = headers
        return options
    }
}
