import DomainClaims
import Foundation
import WebLinks

/// One way a published file and the routes disagree.
public struct ContractProblem: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The two ways.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A route's link is not claimed (no component matches, or an exclusion does).
        case routeNotClaimed = "route_not_claimed"
        /// A link the file claims is opened by no route.
        case claimNotRouted = "claim_not_routed"
    }

    /// Which way.
    public var kind: Kind
    /// The link that shows it.
    public var url: String
    /// The route, for ``Kind/routeNotClaimed``.
    public var route: String?
    /// The file's decision for the link, and the rule that made it.
    public var decision: ClaimDecision

    /// One sentence.
    public var description: String {
        switch kind {
        case .routeNotClaimed:
            let why =
                decision.outcome == .exclude
                ? "the exclusion at \(decision.rule?.description ?? "?") excludes it" : "no component matches it"
            return "the route \(route ?? "?") is not claimed: \(why) (\(url))"
        case .claimNotRouted:
            return "\(url) is claimed by \(decision.rule?.description ?? "?") but no route opens it"
        }
    }
}

extension AssociationContract {
    /// Checks `file` against the routes both ways: each route's example link must be claimed for the app, and each
    /// link the file's own patterns describe (and the generated components', so that a too-wide pattern shows) that
    /// it claims for the app must be opened by a route. Empty: the file and the routes agree.
    public func check(_ file: AppSiteAssociation) -> [ContractProblem] {
        var problems: [ContractProblem] = []
        for route in routes {
            let url = route.exampleURL(host: domain)
            let decision = file.decision(for: appID, url: url, domain: domain)
            if decision.outcome != .match {
                problems.append(
                    ContractProblem(kind: .routeNotClaimed, url: url, route: route.pattern, decision: decision)
                )
            }
        }
        var samples = AASADiff(old: file, new: file).sampleURLs(host: domain)
        if let generated = try? AppSiteAssociation(bytes: Array(associationFile().utf8)) {
            samples += AASADiff(old: generated, new: generated).sampleURLs(host: domain).filter {
                !samples.contains($0)
            }
        }
        // A segment argument filled with a slash shows what `*` claims beyond the route.
        samples += routes.map { $0.exampleURL(host: domain).replacingOccurrences(of: "a1", with: "a1/b2") }
        var seen: Set<String> = []
        for url in samples where seen.insert(url).inserted {
            let decision = file.decision(for: appID, url: url, domain: domain)
            guard decision.outcome == .match, let parsed = URL(string: url) else { continue }
            if !routes.contains(where: { $0.opens(parsed) }) {
                problems.append(ContractProblem(kind: .claimNotRouted, url: url, route: nil, decision: decision))
            }
        }
        return problems
    }
}
