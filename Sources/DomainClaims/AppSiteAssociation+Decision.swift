import WebLinks

/// What an AASA file says about one app and one link, and the component that said it.
public struct ClaimDecision: Sendable, Equatable, Codable {
    /// The three answers of Apple's matcher.
    public enum Outcome: String, Sendable, Equatable, Codable {
        /// A component matched: the link is eligible to open in the app.
        case match
        /// An exclusion matched first: the link does not open in the app.
        case exclude
        /// No component matched (or the link is not https on the file's domain).
        case noMatch = "no_match"
    }

    /// The answer.
    public var outcome: Outcome
    /// The component that decided, as a JSON pointer into the file; nil for ``Outcome/noMatch``.
    public var rule: JSONPointer?

    /// Creates a decision.
    public init(_ outcome: Outcome, rule: JSONPointer? = nil) {
        self.outcome = outcome
        self.rule = rule
    }
}

/// One app a file names, and its decision for a link.
public struct AppClaim: Sendable, Equatable, Codable {
    /// The app ID (`TEAMID.bundle.id`).
    public var appID: String
    /// The decision for the link.
    public var decision: ClaimDecision
}

extension AppSiteAssociation {
    /// The decision for `appID` and `link`, for a file served for `domain`.
    ///
    /// Details are walked in order, keeping those whose apps include `appID`; in each, components in order. The first
    /// component whose every given part (`/`, `?`, `#`) matches decides: an exclusion excludes, with no fall-through
    /// to later components or details; anything else matches. A link that is not https, or whose host is not
    /// `domain` (compared without case), is ``ClaimDecision/Outcome/noMatch``.
    public func decision(for appID: String, link: Link, domain: String) -> ClaimDecision {
        guard Self.isEligible(link, domain: domain) else { return ClaimDecision(.noMatch) }
        var parts = URLParts(link)
        return decision(for: appID, parts: &parts)
    }

    /// The decision for `appID` and the link text `url`; text that is not a web link is ``ClaimDecision/Outcome/noMatch``.
    public func decision(for appID: String, url: String, domain: String) -> ClaimDecision {
        guard let link = try? Link(url) else { return ClaimDecision(.noMatch) }
        return decision(for: appID, link: link, domain: domain)
    }

    /// Every app the file names, in file order, with its decision for `link`.
    public func claims(for link: Link, domain: String) -> [AppClaim] {
        let eligible = Self.isEligible(link, domain: domain)
        var parts = URLParts(link)
        return appIDs.map { app in
            AppClaim(appID: app, decision: eligible ? decision(for: app, parts: &parts) : ClaimDecision(.noMatch))
        }
    }

    func decision(for appID: String, parts: inout URLParts) -> ClaimDecision {
        for detailIndex in details.indices where details[detailIndex].appIDs.contains(appID) {
            let filters = details[detailIndex].filters
            let matchers = details[detailIndex].matchers
            for index in filters.indices where filters[index].admits(&parts) {
                let matcher = matchers[index]
                if matcher.matches(&parts) {
                    return ClaimDecision(matcher.exclude ? .exclude : .match, rule: matcher.pointer)
                }
            }
        }
        return ClaimDecision(.noMatch)
    }

    /// Whether `link` is https and on `domain` (ASCII case and one trailing dot aside).
    static func isEligible(_ link: Link, domain: String) -> Bool {
        guard link.scheme == "https" else { return false }
        if link.hostName == domain { return true }
        var expected = domain.utf8[...]
        if expected.last == UInt8(ascii: ".") { expected = expected.dropLast() }
        let host = link.hostName.utf8
        guard host.count == expected.count else { return false }
        return zip(host, expected).allSatisfy { lhs, rhs in
            lhs == rhs
                || (lhs | 0x20 == rhs | 0x20 && (lhs | 0x20) >= UInt8(ascii: "a") && (lhs | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
