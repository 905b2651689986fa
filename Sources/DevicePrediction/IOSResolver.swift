import DomainClaims
import WebLinks

/// What a tap on a link opens on iOS and iPadOS: the installed app the domain's apple-app-site-association file claims
/// the link for (DomainClaims' decision: details and components in order, the first match or exclusion deciding),
/// else Safari; and Safari whatever the file says when the link is not https, was typed or pasted into the address
/// bar or reached by a redirect, is tapped on a page of its own domain, is on a domain the user sent to Safari, or
/// the device holds no file for the domain. Of several claimed apps Apple documents no order: all are named, the
/// first in file order given as the one that opens, and the choice said to be the system's. A custom URL scheme
/// opens the app that registers it (of several, which one is undefined).
struct IOSResolver {
    let link: TappedLink
    let device: IOSDevice
    let evidence: PredictionEvidence
    var reasons: [PredictionReason] = []

    mutating func predict() -> Prediction {
        let (outcome, candidates) = decide()
        return Prediction(platform: "ios", link: link.text, outcome: outcome, candidates: candidates, reasons: reasons)
    }

    private mutating func note(_ rule: String, _ text: String, app: String? = nil, pointer: JSONPointer? = nil) {
        reasons.append(PredictionReason(rule, text, app: app, pointer: pointer))
    }

    private mutating func decide() -> (Prediction.Outcome, [String]) {
        guard let web = link.web else { return customScheme() }
        guard web.scheme == "https" else {
            note("not-https", "the link is not https: only https links open apps as universal links")
            return safari()
        }
        let claimed = claimedApps(web)
        guard !claimed.isEmpty else {
            return safari()
        }
        switch device.tappedIn {
        case .addressBar:
            note(
                "address-bar",
                "the link was typed or pasted into the address bar: Safari opens it, whatever the file claims"
            )
            return safari()
        case .redirect:
            note("redirect", "the link was reached by a redirect or a script, not a tap: it stays in the browser")
            return safari()
        case .safari(let domain), .webView(let domain):
            let place = device.tappedIn == .safari(domain: domain) ? "Safari" : "a web view"
            if Self.sameHost(domain, web.hostName) {
                note(
                    "same-domain",
                    "the tap is on a page of \(domain) in \(place), the link's own domain: the link stays in the browser"
                )
                return safari()
            }
            note(
                "other-domain",
                "the tap is on a page of \(domain) in \(place), another domain than the link's: it opens as a tap in an app would"
            )
        case .app:
            note("tap", "the tap is in an app")
        }
        if let chosen = device.openInSafari.first(where: { Self.sameHost($0, web.hostName) }) {
            note(
                "open-in-safari",
                "the user chose \"Open in Safari\" for \(chosen) before: iOS keeps its links in Safari until the user opens one in the app again"
            )
            return safari()
        }
        if claimed.count == 1 {
            note("opens", "\(claimed[0]) opens the link as a universal link", app: claimed[0])
            return (.app(claimed[0]), claimed)
        }
        note(
            "several-claimed",
            "\(claimed.count) installed apps are claimed for the link (\(claimed.joined(separator: ", "))): iOS opens one of them, and which one is the system's choice, not documented (it has changed between releases)"
        )
        note("opens", "\(claimed[0]), the first in the file, is given as the one that opens it", app: claimed[0])
        return (.app(claimed[0]), claimed)
    }

    private mutating func safari() -> (Prediction.Outcome, [String]) {
        note("opens", "Safari opens the link")
        return (.safari, [])
    }

    /// The installed apps the file claims the link for, in the file's order, with a reason for each app the file names.
    private mutating func claimedApps(_ web: Link) -> [String] {
        let file: AppSiteAssociation
        let domain: String
        switch device.association {
        case .file(let given, let served):
            file = given
            domain = served ?? web.hostName
        case .none:
            note(
                "no-file",
                "the device holds no apple-app-site-association file for \(web.hostName): no app claims the link"
            )
            return []
        case .unknown:
            guard let read = evidence.association else {
                note(
                    "no-file",
                    "no apple-app-site-association file is given for \(web.hostName), and none was read: the device is taken to hold none"
                )
                return []
            }
            guard let fetched = read.file else {
                note("no-file", "\(read.source): no app claims the link")
                return []
            }
            note("file", "the apple-app-site-association file was read from \(read.source)")
            file = fetched
            domain = web.hostName
        }
        guard Self.sameHost(domain, web.hostName) else {
            note(
                "other-domain-file",
                "the file was served for \(domain), not for the link's host \(web.hostName): it claims nothing here"
            )
            return []
        }
        var claimed: [String] = []
        for claim in file.claims(for: web, domain: domain) {
            let rule = claim.decision.rule.map { " by \($0)" } ?? ""
            let installed = device.apps.first { $0.appID == claim.appID }
            switch (claim.decision.outcome, installed) {
            case (.match, let app?):
                note(
                    "claim",
                    "the file claims the link for \(claim.appID)\(rule), which is installed",
                    app: claim.appID,
                    pointer: app.pointer
                )
                if !claimed.contains(claim.appID) { claimed.append(claim.appID) }
            case (.match, nil):
                note(
                    "not-installed",
                    "the file claims the link for \(claim.appID)\(rule), which is not installed",
                    app: claim.appID
                )
            case (.exclude, _):
                note("exclude", "the file excludes the link for \(claim.appID)\(rule)", app: claim.appID)
            case (.noMatch, _):
                note("no-match", "no component of the file matches the link for \(claim.appID)", app: claim.appID)
            }
        }
        if file.appIDs.isEmpty { note("no-app", "the file for \(domain) names no app") }
        if claimed.isEmpty { note("unclaimed", "no installed app is claimed for the link") }
        return claimed
    }

    /// A custom scheme: the apps that register it.
    private mutating func customScheme() -> (Prediction.Outcome, [String]) {
        let apps = device.apps.filter { app in app.schemes.contains { $0.lowercased() == link.scheme } }.map(\.appID)
        var unique: [String] = []
        for app in apps where !unique.contains(app) { unique.append(app) }
        switch unique.count {
        case 0:
            note("custom-scheme", "no installed app registers the scheme \(link.scheme)")
            note("opens", "nothing opens the link")
            return (.nothing, [])
        case 1:
            note("custom-scheme", "\(unique[0]) registers the scheme \(link.scheme)", app: unique[0])
            note("opens", "\(unique[0]) opens the link", app: unique[0])
            return (.app(unique[0]), unique)
        default:
            note(
                "custom-scheme",
                "\(unique.joined(separator: ", ")) all register the scheme \(link.scheme): which one opens it is undefined"
            )
            note("opens", "\(unique[0]), the first, is given as the one that opens it", app: unique[0])
            return (.app(unique[0]), unique)
        }
    }

    /// Hosts compared as DNS does: ASCII case and one trailing dot aside.
    static func sameHost(_ lhs: String, _ rhs: String) -> Bool {
        func canonical(_ host: String) -> String {
            let lower = host.lowercased()
            return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
        }
        return canonical(lhs) == canonical(rhs)
    }
}
