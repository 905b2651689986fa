import DomainClaims
import WebLinks

/// What a tap on a link opens on Android 12 and later, as the platform's resolver decides
/// (`ComputerEngine.filterCandidatesWithDomainPreferredActivities` over `DomainVerificationService`):
///
/// 1. The candidates are the enabled apps (and activities) with an intent filter that takes the link: the action
///    `VIEW`, the categories `BROWSABLE` and `DEFAULT`, its scheme (http and https count for each other), its host and
///    path; and, for a web link, every enabled browser.
/// 2. A custom scheme, or a host that is not a valid domain name, is not subject to approval: every candidate app and
///    the browsers are offered (one alone opens directly).
/// 3. Otherwise each app is approved for the host at one level: verified (given, or derived from the domain's
///    assetlinks.json), selected (the user's "Open by default" choice), or none (also when its "Open supported
///    links" switch is off, or it does not declare the host). One app at the highest level above none opens the
///    link directly; of several, the most recently first-installed.
/// 4. No app approved: the browser opens it (the default browser, else the browser chooser); with no browser, the
///    apps that take it are offered.
struct AndroidResolver {
    let link: TappedLink
    let device: AndroidDevice
    let evidence: PredictionEvidence
    var reasons: [PredictionReason] = []

    /// The approval levels, lowest first.
    enum Approval: Int, Comparable {
        case none, selected, verified

        static func < (lhs: Approval, rhs: Approval) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    init(link: TappedLink, device: AndroidDevice, evidence: PredictionEvidence) {
        self.link = link
        self.device = device
        self.evidence = evidence
    }

    mutating func predict() -> Prediction {
        let (handlers, browsers) = candidates()
        let outcome: (Prediction.Outcome, [String])
        if !link.isWeb {
            note(
                "custom-scheme",
                "\(link.scheme): is not a web scheme: no domain approval, every app that takes it is offered"
            )
            outcome = offer(handlers, browsers: [])
        } else if let host = link.host, HostName.isDomain(host) {
            outcome = approve(handlers, browsers: browsers, host: host)
        } else {
            note(
                "invalid-host",
                "\(link.host ?? "the link's host") is not a valid domain name, so no app is approved for it: every app and browser that takes it is offered"
            )
            outcome = offer(handlers, browsers: self.browsers(browsers))
        }
        return Prediction(
            platform: "android",
            link: link.text,
            outcome: outcome.0,
            candidates: outcome.1,
            reasons: reasons
        )
    }

    private mutating func note(_ rule: String, _ text: String, app: String? = nil, pointer: JSONPointer? = nil) {
        reasons.append(PredictionReason(rule, text, app: app, pointer: pointer))
    }

    /// The packages whose activities take the link, apps and browsers apart, each once, in the file's order.
    private mutating func candidates() -> (handlers: [String], browsers: [String]) {
        var handlers: [String] = []
        var browsers: [String] = []
        for app in device.apps {
            guard app.enabled, app.componentEnabled else {
                let what = app.enabled ? "its activity is disabled" : "it is disabled"
                note(
                    "disabled",
                    "\(app.package): \(what), so it is no candidate",
                    app: app.package,
                    pointer: app.pointer
                )
                continue
            }
            if app.isBrowser && link.isWeb {
                note(
                    "browser",
                    "\(app.package) is a browser: it opens any web link",
                    app: app.package,
                    pointer: app.pointer
                )
                if !browsers.contains(app.package) { browsers.append(app.package) }
                continue
            }
            let refusals = app.filters.map { $0.mismatch(scheme: link.scheme, host: link.host, path: link.decodedPath) }
            guard let index = refusals.firstIndex(where: { $0 == nil }) else {
                let why = zip(app.filters, refusals).map { "\($0.pointer): \($1 ?? "")" }.joined(separator: "; ")
                note(
                    "no-filter",
                    "\(app.package): no intent filter takes the link" + (why.isEmpty ? " (it has none)" : ": \(why)"),
                    app: app.package,
                    pointer: app.pointer
                )
                continue
            }
            let filter = app.filters[index]
            note(
                "filter",
                "\(app.package): its intent filter \(filter.pointer) takes the link",
                app: app.package,
                pointer: filter.pointer
            )
            if !handlers.contains(app.package) { handlers.append(app.package) }
        }
        return (handlers, browsers)
    }

    /// The browsers a link no app is approved for goes to: the default browser alone when it is one of them.
    private mutating func browsers(_ browsers: [String]) -> [String] {
        guard let chosen = device.defaultBrowser, browsers.contains(chosen) else { return browsers }
        note("default-browser", "\(chosen) is the default browser: it opens the link without asking", app: chosen)
        return [chosen]
    }

    /// Everything in `handlers` and `browsers` offered: one alone opens directly.
    private mutating func offer(_ handlers: [String], browsers: [String]) -> (Prediction.Outcome, [String]) {
        // A package with a browser activity and another that takes the link is offered once.
        var all: [String] = []
        for package in handlers + browsers where !all.contains(package) { all.append(package) }
        switch (handlers.count, all.count) {
        case (_, 0):
            note("opens", "nothing opens it: no app or browser on the device takes the link")
            return (.nothing, [])
        case (0, _):
            note("opens", "only browsers take it: the browser opens it")
            return (.browser, browsers)
        case (1, 1):
            note("opens", "\(all[0]) is the only app that takes it: it opens the link directly", app: all[0])
            return (.app(all[0]), all)
        default:
            note("opens", "the chooser offers \(all.joined(separator: ", "))")
            return (.chooser, all)
        }
    }

    private mutating func approve(
        _ handlers: [String],
        browsers: [String],
        host: String
    ) -> (Prediction.Outcome, [String]) {
        var levels: [(package: String, level: Approval, order: Int)] = []
        for package in handlers {
            let entries = device.apps.filter { $0.package == package }
            levels.append((package, approval(of: entries, host: host), entries.map(\.firstInstallOrder).max() ?? 0))
        }
        guard let highest = levels.map(\.level).max(), highest > .none else {
            note(
                "no-approval",
                "no app is approved for \(host): since Android 12 an app that is not approved is not offered for a web link"
            )
            let offered = self.browsers(browsers)
            guard offered.isEmpty else {
                note(
                    "opens",
                    offered.count == 1
                        ? "the browser \(offered[0]) opens it"
                        : "the browser chooser offers \(offered.joined(separator: ", "))"
                )
                return (.browser, offered)
            }
            note("no-browser", "there is no browser: the apps that take the link are offered")
            return offer(handlers, browsers: [])
        }
        let top = levels.filter { $0.level == highest }
        if highest == .verified, levels.contains(where: { $0.level == .selected }) {
            note(
                "outranks",
                "verified outranks selected: \(levels.filter { $0.level == .selected }.map(\.package).joined(separator: ", ")) is passed over"
            )
        }
        // The latest first install wins; a tie goes to the first in the file.
        var winner = top[0]
        for candidate in top.dropFirst() where candidate.order > winner.order { winner = candidate }
        if top.count > 1 {
            note(
                "install-order",
                "\(top.map(\.package).joined(separator: ", ")) are all \(highest == .verified ? "verified" : "selected") for \(host): the most recently first-installed, \(winner.package), opens it",
                app: winner.package
            )
        }
        note(
            "opens",
            "\(winner.package) is \(highest == .verified ? "verified" : "selected") for \(host): it opens the link directly, with no chooser",
            app: winner.package
        )
        return (.app(winner.package), [winner.package])
    }

    /// One package's approval for `host`, with the reasons.
    private mutating func approval(of entries: [AndroidApp], host: String) -> Approval {
        let app = entries[0]
        let package = app.package
        if let off = entries.first(where: { !$0.linkHandlingAllowed }) {
            note(
                "switch-off",
                "\(package): its \"Open supported links\" switch is off, so none of its domains is approved",
                app: package,
                pointer: off.pointer.appending("linkHandlingAllowed")
            )
            return .none
        }
        let declared = entries.contains { entry in
            entry.filters.contains { filter in
                filter.takesViewIntents && filter.hasWebScheme && filter.hosts.contains { HostName.covers($0, host) }
            }
        }
        guard declared else {
            note(
                "undeclared",
                "\(package) declares no valid domain in a web intent filter that covers \(host): it cannot be approved for it",
                app: package,
                pointer: app.pointer
            )
            return .none
        }
        if entries.contains(where: { $0.verified != nil }) {
            let given = entries.flatMap { $0.verified ?? [] }
            if let hit = given.first(where: { HostName.covers($0, host) }) {
                note(
                    "verified",
                    "\(package) is verified for \(hit == host ? host : "\(hit), which covers \(host)") (given)",
                    app: package,
                    pointer: app.pointer.appending("verified")
                )
                return .verified
            }
        } else {
            let derived = AndroidVerification.derive(app, host: host, link: link, sdk: device.sdk, evidence: evidence)
            for problem in derived.problems {
                note("not-verified", "\(package): \(problem)", app: package, pointer: app.pointer)
            }
            for found in derived.verified {
                let place = found.statement.map { " (\($0.file) at \($0.pointer))" } ?? ""
                if let decision = found.dynamicDecision, decision.outcome != .match {
                    let rule = decision.rule.map { " by \($0)" } ?? ""
                    note(
                        "dynamic-rules",
                        "\(package) is verified for \(found.host)\(place), but its Dynamic App Links components give \(decision.outcome.rawValue)\(rule) for this link",
                        app: package
                    )
                    continue
                }
                note(
                    "verified",
                    "\(package) is verified for \(found.host == host ? host : "\(found.host), which covers \(host)"): its assetlinks.json links the package and its certificate\(place)",
                    app: package,
                    pointer: app.pointer
                )
                return .verified
            }
        }
        let selected = entries.flatMap(\.userSelected)
        if let hit = selected.first(where: { HostName.covers($0, host) }) {
            note(
                "selected",
                "\(package): the user selected \(hit == host ? host : "\(hit), which covers \(host),") in its \"Open by default\" settings",
                app: package,
                pointer: app.pointer.appending("userSelected")
            )
            return .selected
        }
        note(
            "not-approved",
            "\(package) is neither verified nor selected for \(host)",
            app: package,
            pointer: app.pointer
        )
        return .none
    }
}
