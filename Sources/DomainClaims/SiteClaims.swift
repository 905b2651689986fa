import WebLinks

/// What a site's files claim for one link: each app of the AASA file with its decision, and each Android app the
/// asset-links file trusts for App Links with its decision. What `switchyard claims` shows, and what a resolver
/// stage turns into openings.
public struct SiteClaims: Sendable, Codable, Equatable {
    /// One Android app the statement list trusts to handle the site's links.
    public struct AndroidApp: Sendable, Codable, Equatable {
        /// The package name.
        public var packageName: String
        /// The signing-certificate fingerprints the statements give for it.
        public var fingerprints: [String]
        /// `match` when the statements' Dynamic App Links components match the link, or when there are none (then
        /// the app's own intent filters decide which paths); `exclude` or `no_match` from the components otherwise.
        public var decision: ClaimDecision
        /// The statement list the decision's rule is in, when the lists were read from the network (the site's own
        /// or an include); nil for a file given up front.
        public var file: String?
    }

    /// The link, canonical.
    public var url: String
    /// The domain the files were served for.
    public var domain: String
    /// Each app of the AASA file, in file order (empty without a file).
    public var universalLinks: [AppClaim]
    /// Each Android app the asset-links file trusts for `delegate_permission/common.handle_all_urls`, in file order.
    public var appLinks: [AndroidApp]
    /// What could not be decided offline (includes not followed) and other remarks, in sentences.
    public var notes: [String]

    /// The claims of `association` and `statements` (either may be absent) for `link`, as served for `domain`
    /// (default: the link's host).
    public init(link: Link, domain: String? = nil, association: AppSiteAssociation?, statements: AssetStatementList?) {
        self.init(link: link, domain: domain, association: association, lists: statements.map { [(nil, $0)] } ?? [])
        for include in statements?.includes ?? [] {
            notes.append(
                "the statement list includes \(include.url) (at \(include.pointer)), which is not read offline"
            )
        }
    }

    /// The claims of `association` and of a site's statement lists read from the network, its own and its includes'
    /// (``AssetLinksChecker/statementLists(of:)``): each Android app names the list its decision comes from.
    public init(
        link: Link,
        domain: String? = nil,
        association: AppSiteAssociation?,
        statementLists: AssetStatementLists
    ) {
        self.init(
            link: link,
            domain: domain,
            association: association,
            lists: statementLists.lists.map { ($0.url, $0.list) }
        )
        notes += statementLists.notes
    }

    private init(link: Link, domain: String?, association: AppSiteAssociation?, lists: [(String?, AssetStatementList)])
    {
        let domain = domain ?? link.hostName
        url = link.text
        self.domain = domain
        universalLinks = association?.claims(for: link, domain: domain) ?? []
        var apps: [AndroidApp] = []
        for (file, list) in lists {
            for statement in list.statements(for: AssetRelation.handleAllURLs) {
                guard case .androidApp(let package, let fingerprint) = statement.target else { continue }
                let decision = statement.dynamicDecision(for: link, domain: domain)
                if let index = apps.firstIndex(where: { $0.packageName == package && $0.decision == decision }) {
                    if !apps[index].fingerprints.contains(fingerprint.text) {
                        apps[index].fingerprints.append(fingerprint.text)
                    }
                } else {
                    apps.append(
                        AndroidApp(
                            packageName: package,
                            fingerprints: [fingerprint.text],
                            decision: decision,
                            file: file
                        )
                    )
                }
            }
        }
        appLinks = apps
        notes = []
    }
}

extension AssetStatement {
    /// The statement's decision for `link`: its Dynamic App Links components in order (the first that matches
    /// decides), or a match at the statement itself when it has none; a link that is not https on `domain` never
    /// matches.
    public func dynamicDecision(for link: Link, domain: String) -> ClaimDecision {
        guard AppSiteAssociation.isEligible(link, domain: domain) else { return ClaimDecision(.noMatch) }
        guard !dynamicComponents.isEmpty else { return ClaimDecision(.match, rule: pointer) }
        var parts = URLParts(link)
        for component in dynamicComponents where component.matches(&parts) {
            return ClaimDecision(component.exclude ? .exclude : .match, rule: component.pointer)
        }
        return ClaimDecision(.noMatch)
    }
}
