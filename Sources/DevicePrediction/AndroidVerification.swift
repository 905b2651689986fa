import DomainClaims
import WebLinks

/// Android's domain verification for an app whose verified hosts are not given: each host of its `autoVerify` web
/// filters (every web filter's, for an app that targets an API level below 31 and has one `autoVerify` filter) is
/// verified when the host's assetlinks.json (for `*.root`, the root's) links the app's package and one of its
/// signing certificates for `delegate_permission/common.handle_all_urls`. From Android 15 (API 35), a statement's
/// Dynamic App Links components also decide which of the host's links the verification covers.
enum AndroidVerification {
    /// A host verified for an app, and the statement that verifies it (nil when the host was given as verified).
    struct Verified {
        var host: String
        var statement: (file: String, pointer: JSONPointer)?
        var dynamicDecision: ClaimDecision?
    }

    /// The hosts `app` asks Android to verify that approve `host` (``HostName/covers(_:_:)``).
    static func hostsToVerify(_ app: AndroidApp, covering host: String) -> [String] {
        let webFilters = app.filters.filter { $0.takesViewIntents && $0.hasWebScheme }
        let legacy =
            (app.targetSDK ?? AndroidDevice.minimumSDK) < AndroidDevice.minimumSDK
            && webFilters.contains(where: \.autoVerify)
        var hosts: [String] = []
        for filter in webFilters where filter.autoVerify || legacy {
            for candidate in filter.hosts where HostName.covers(candidate, host) && !hosts.contains(candidate) {
                hosts.append(candidate)
            }
        }
        return hosts
    }

    /// The domains whose assetlinks.json a prediction of `link` on `device` must read: those of the hosts each app
    /// without given verification (and with fingerprints) asks to verify, that would approve the link's host.
    static func domainsToRead(for link: TappedLink, on device: AndroidDevice) -> [String] {
        guard link.isWeb, let host = link.host, HostName.isDomain(host) else { return [] }
        var domains: [String] = []
        for app in device.apps where app.verified == nil && !app.fingerprints.isEmpty {
            for candidate in hostsToVerify(app, covering: host) {
                let domain = HostName.verificationDomain(of: candidate)
                if !domains.contains(domain) { domains.append(domain) }
            }
        }
        return domains
    }

    /// The hosts verified for `app` that approve `host`, derived from `evidence`; and, for the reasons, why each
    /// host asked for is not verified.
    static func derive(
        _ app: AndroidApp,
        host: String,
        link: TappedLink,
        sdk: Int?,
        evidence: PredictionEvidence
    ) -> (verified: [Verified], problems: [String]) {
        var verified: [Verified] = []
        var problems: [String] = []
        let hosts = hostsToVerify(app, covering: host)
        guard !hosts.isEmpty else { return ([], []) }
        guard !app.fingerprints.isEmpty else {
            return (
                [],
                [
                    "no certificate fingerprint is given, so its verification of \(hosts.joined(separator: ", ")) cannot be derived"
                ]
            )
        }
        for candidate in hosts {
            let domain = HostName.verificationDomain(of: candidate)
            guard let lists = evidence.statementLists[domain] else {
                problems.append(
                    "https://\(domain)/.well-known/assetlinks.json was not read, so \(candidate) is not verified"
                )
                continue
            }
            guard lists.isUsable else {
                problems.append(
                    "\(lists.notes.first ?? "the statement list of \(domain) cannot be used"), so \(candidate) is not verified"
                )
                continue
            }
            guard let (file, statement) = linkingStatement(in: lists, app: app) else {
                problems.append(
                    "https://\(domain)/.well-known/assetlinks.json does not link \(app.package) with its certificate (\(app.fingerprints.map(\.text).joined(separator: ", "))), so \(candidate) is not verified"
                )
                continue
            }
            var found = Verified(host: candidate, statement: (file, statement.pointer))
            if let sdk, sdk >= AndroidDevice.dynamicAppLinksSDK, !statement.dynamicComponents.isEmpty,
                let web = link.web
            {
                found.dynamicDecision = statement.dynamicDecision(for: web, domain: web.hostName)
            }
            verified.append(found)
        }
        return (verified, problems)
    }

    /// The first statement of `lists` that delegates handling all URLs to `app` with one of its certificates.
    private static func linkingStatement(
        in lists: AssetStatementLists,
        app: AndroidApp
    ) -> (String, AssetStatement)? {
        for (url, list) in lists.lists {
            for statement in list.statements(for: AssetRelation.handleAllURLs) {
                guard case .androidApp(let package, let fingerprint) = statement.target, package == app.package,
                    app.fingerprints.contains(fingerprint)
                else { continue }
                return (url, statement)
            }
        }
        return nil
    }
}
