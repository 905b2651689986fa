import HTTPTypes
import LinkRules

/// What to list for a link.
public struct MatchOptions: Sendable, Hashable {
    /// The installed apps; when set, only openings in those apps are listed (as Opener does).
    public var installed: InstalledApps?
    /// The device family; apps limited to the other one are dropped.
    public var platform: Platform?
    /// Response headers of the link, in server order, for actions with `headers`.
    public var headers: HTTPFields?
    /// Whether browsers are listed.
    public var includeBrowsers: Bool
    /// Whether previews are listed.
    public var includePreviews: Bool
    /// Time limits for regexes.
    public var budget: MatchBudget
    /// The app the link came from (a bundle identifier such as `com.tinyspeck.chatlyio`), which the user layer's
    /// `when` entries can match; nil when not said.
    public var sourceApp: String? = nil
    /// Whether browser openings of a wrapped link open the original wrapped link (so that the gateway's click-time
    /// check runs) instead of the link it carries; nil when not said: the user layer's `openWrapped`, else the inner
    /// link. App openings always open the inner link.
    public var opensWrapped: Bool? = nil

    /// Creates options.
    public init(
        installed: InstalledApps? = nil,
        platform: Platform? = nil,
        headers: HTTPFields? = nil,
        includeBrowsers: Bool = true,
        includePreviews: Bool = true,
        budget: MatchBudget = MatchBudget()
    ) {
        self.installed = installed
        self.platform = platform
        self.headers = headers
        self.includeBrowsers = includeBrowsers
        self.includePreviews = includePreviews
        self.budget = budget
    }

    /// Whether openings in `app` are listed.
    package func allows(_ app: App) -> Bool {
        allows(scheme: app.scheme.lowercased(), platform: app.platform)
    }

    /// The hot-path check, on fields the compiled rules precompute (no copy of the whole app).
    @inline(__always)
    package func allows(scheme: String, platform appPlatform: Platform?) -> Bool {
        if let installed, !installed.schemes.contains(scheme) { return false }
        if let platform, let appPlatform, appPlatform != platform { return false }
        return true
    }

    /// Whether either filter is set (without one, every format is allowed and the hot loop skips the check).
    var filtersApps: Bool { installed != nil || platform != nil }
}

/// Time limits for regexes: a pathological rule is skipped for that input (and reported), never a hang.
public struct MatchBudget: Sendable, Hashable {
    /// The most one regex may run on one input.
    public var perRegex: Duration
    /// The most all regexes together may run for one resolution.
    public var perResolution: Duration

    /// Creates a budget (defaults: 50 ms per regex, 250 ms per resolution).
    public init(perRegex: Duration = .milliseconds(50), perResolution: Duration = .milliseconds(250)) {
        self.perRegex = perRegex
        self.perResolution = perResolution
    }
}

/// The time one resolution may take: one deadline for the whole run (redirect rules, HTTP unwrapping, matching,
/// scripts), and within it the share regexes may spend (``MatchBudget``).
///
/// Every stage of a resolution takes the same value, so no stage restarts the clock: regexes stop at
/// `min(now + perRegex, start of the stage + regex time left, deadline)`, and the time a matching stage took is
/// charged to the regex share.
public struct ResolutionBudget: Sendable {
    /// When the whole resolution must be over.
    public let deadline: ContinuousClock.Instant
    /// The regex limits.
    public let limits: MatchBudget
    /// What is left of ``MatchBudget/perResolution``.
    public private(set) var regexTimeLeft: Duration

    /// A budget starting `now`: the run ends after `timeLimit`, its regexes together after the limits' share.
    public init(timeLimit: Duration, limits: MatchBudget = MatchBudget(), now: ContinuousClock.Instant = .now) {
        deadline = now + timeLimit
        self.limits = limits
        regexTimeLeft = limits.perResolution
    }

    /// The time left before the deadline (zero once it has passed).
    public var timeLeft: Duration { max(.zero, deadline - .now) }

    /// Whether the deadline has passed.
    public var isExpired: Bool { ContinuousClock.now >= deadline }

    /// Starts a stage that runs regexes (redirect rules, matching): it may run them until what is left of the regex
    /// share, or the deadline, whichever comes first.
    func startRegexStage() -> RegexStage {
        let start = ContinuousClock.now
        return RegexStage(
            start: start,
            end: min(start + max(regexTimeLeft, .zero), deadline),
            perRegex: limits.perRegex
        )
    }

    /// Charges a stage's time to the regex share.
    mutating func finish(_ stage: RegexStage) {
        regexTimeLeft -= ContinuousClock.now - stage.start
    }
}

/// One stage of a resolution that runs regexes, and its share of the time.
struct RegexStage {
    /// When the stage started.
    let start: ContinuousClock.Instant
    /// When its regexes must stop.
    let end: ContinuousClock.Instant
    /// The most one regex may run.
    let perRegex: Duration

    /// The deadline of a regex that starts now.
    @inline(__always)
    func deadlineOfRegex() -> ContinuousClock.Instant {
        min(ContinuousClock.now + perRegex, end)
    }
}
