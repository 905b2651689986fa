import LinkRules

/// What the caller decides about cleaning: referral marketing, hosts to leave alone, and a time limit.
public struct CleaningOptions: Sendable {
    /// Keep `referralMarketing` fields (the add-on's "allow referral marketing" switch); `rules` still apply.
    public var allowReferralMarketing: Bool
    /// Whether to leave links to a host alone (its lower-case canonical name, as `Link.host` gives it);
    /// asked again for the target of every redirect unwrapped.
    public var skip: @Sendable (_ host: String) -> Bool
    /// The time all regexes of one link may take together; a regex stopped by it counts as not matching and the
    /// result says ``CleaningResult/timedOut``.
    public var timeLimit: Duration

    /// Options with a `skip` decision of the caller's own (a user layer).
    public init(
        allowReferralMarketing: Bool = false,
        timeLimit: Duration = .milliseconds(250),
        skip: @escaping @Sendable (_ host: String) -> Bool
    ) {
        self.allowReferralMarketing = allowReferralMarketing
        self.timeLimit = timeLimit
        self.skip = skip
    }

    /// Options leaving alone the links to `skippedHosts` and their subdomains (`example.com` covers
    /// `www.example.com`, not `badexample.com`).
    public init(
        allowReferralMarketing: Bool = false,
        skippedHosts: [String] = [],
        timeLimit: Duration = .milliseconds(250)
    ) {
        let hosts = skippedHosts.map { $0.lowercased() }
        self.init(allowReferralMarketing: allowReferralMarketing, timeLimit: timeLimit) { host in
            hosts.contains { Self.host(host, isWithin: $0) }
        }
    }

    /// Whether `host` is `domain` or one of its subdomains.
    public static func host(_ host: String, isWithin domain: String) -> Bool {
        host == domain || HostPattern.host(host, isSubdomainOf: domain)
    }
}
