import DomainClaims
import LinkMatching

/// The document of `switchyard claims URL --json` and `GET /v1/claims`: what the link's domain claims, and why.
///
/// `{"url", "domain", "universalLinks": [{"appID", "decision": {"outcome", "rule"}}], "appLinks": [{"packageName",
/// "fingerprints", "decision", "file"}], "notes", "files"}`: `SiteClaims`' fields, and, when the files were fetched,
/// `files`, each file's trace (`kind`, `url`, `age`, `problem`, `notes`, `claims`).
public struct ClaimsReport: Sendable, Encodable {
    /// What the files claim for the link.
    public var claims: SiteClaims
    /// Each file fetched (nil when the files were given on the command line).
    public var files: [ClaimsFileTrace]?

    /// A report of `claims`, with the `files` they were read from.
    public init(claims: SiteClaims, files: [ClaimsFileTrace]? = nil) {
        self.claims = claims
        self.files = files
    }

    private enum CodingKeys: String, CodingKey {
        case url, domain, universalLinks, appLinks, notes, files
    }

    /// Encodes `SiteClaims`' members, then `files` when there are.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(claims.url, forKey: .url)
        try container.encode(claims.domain, forKey: .domain)
        try container.encode(claims.universalLinks, forKey: .universalLinks)
        try container.encode(claims.appLinks, forKey: .appLinks)
        try container.encode(claims.notes, forKey: .notes)
        try container.encodeIfPresent(files, forKey: .files)
    }
}

extension FetchedClaims {
    /// The document of these claims: the decisions, and each file with every app's decision.
    public func report(rules: RuleSet? = nil) -> ClaimsReport {
        let apps = rules.map(ClaimedApps.init) ?? ClaimedApps()
        return ClaimsReport(claims: claims, files: apps.trace(of: self))
    }
}
