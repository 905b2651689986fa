import DomainClaims
import LinkMatching
import LinkRules
import WebLinks

/// The manifest's apps by the names domains' claims files give them (their `claims` key): what a claimed app ID or
/// package opens as. An app the manifest does not name is shown as its bundle ID (the app ID without its team) or its
/// package.
struct ClaimedApps {
    private var byAppID: [String: App] = [:]
    private var byPackage: [String: App] = [:]

    /// No manifest: every app is named by its bundle ID or package.
    init() {}

    /// The apps of `rules`, the user layer's own first.
    init(rules: RuleSet) {
        let apps = (rules.userLayer?.rules.manifest.apps ?? []) + rules.manifest.apps
        for app in apps {
            for appID in app.claims?.appIDs ?? [] where byAppID[appID] == nil { byAppID[appID] = app }
            for package in app.claims?.androidPackages ?? [] where byPackage[package] == nil {
                byPackage[package] = app
            }
        }
    }

    /// The `universal-link` and `app-link` openings of `fetched`: each app that the link matches, in file order, that
    /// `options` list (installed, on the platform: ``notListed(appID:options:)``), as action openings are filtered.
    func openings(for fetched: FetchedClaims, link: Link, options: MatchOptions = MatchOptions()) -> [Opening] {
        var openings: [Opening] = []
        let aasa = fetched.files.first { $0.kind == FetchedClaims.aasaKind }
        for claim in fetched.claims.universalLinks where claim.decision.outcome == .match {
            guard notListed(appID: claim.appID, options: options) == nil else { continue }
            guard let rule = claim.decision.rule, let file = aasa?.url else { continue }
            var opening = Opening(
                kind: .universalLink,
                app: app(appID: claim.appID),
                title: "Universal link",
                url: link.text,
                rule: rule
            )
            opening.claim = OpeningClaim(file: file, rule: rule, age: fetched.ages[file] ?? 0)
            openings.append(opening)
        }
        let list = fetched.files.first { $0.kind == FetchedClaims.assetLinksKind }
        for app in fetched.claims.appLinks where app.decision.outcome == .match {
            guard notListed(package: app.packageName, options: options) == nil else { continue }
            guard let rule = app.decision.rule, let file = app.file ?? list?.url else { continue }
            var opening = Opening(
                kind: .appLink,
                app: self.app(package: app.packageName),
                title: "App Link",
                url: AppLinkIntent.url(for: link, package: app.packageName),
                rule: rule
            )
            opening.claim = OpeningClaim(file: file, rule: rule, age: fetched.ages[file] ?? 0)
            openings.append(opening)
        }
        return openings
    }

    /// The trace of `fetched`: each file with every app's decision, a match that `options` do not list marked with
    /// why (``ClaimTrace/notListed``).
    func trace(of fetched: FetchedClaims, options: MatchOptions = MatchOptions()) -> [ClaimsFileTrace] {
        var files = fetched.files
        let matches = fetched.claims.universalLinks.filter { $0.decision.outcome == .match }.count
        for index in files.indices {
            switch files[index].kind {
            case FetchedClaims.aasaKind:
                files[index].claims = fetched.claims.universalLinks.map { claim in
                    ClaimTrace(
                        app: claim.appID,
                        manifestApp: byAppID[claim.appID]?.identifier,
                        outcome: claim.decision.outcome.rawValue,
                        rule: claim.decision.rule,
                        notListed: claim.decision.outcome == .match
                            ? notListed(appID: claim.appID, options: options) : nil
                    )
                }
                if matches > 1 {
                    files[index].notes.append(
                        "\(matches) apps claim the link: iOS opens one of them, and which one is not documented (it has changed between releases)"
                    )
                }
            case FetchedClaims.assetLinksKind:
                files[index].claims = fetched.claims.appLinks.map { app in
                    ClaimTrace(
                        app: app.packageName,
                        manifestApp: byPackage[app.packageName]?.identifier,
                        outcome: app.decision.outcome.rawValue,
                        rule: app.decision.rule,
                        file: app.file == files[index].url ? nil : app.file,
                        notListed: app.decision.outcome == .match
                            ? notListed(package: app.packageName, options: options) : nil
                    )
                }
                files[index].notes += fetched.claims.notes
            default:
                break
            }
        }
        return files
    }

    /// Why the app an app ID names is not listed, as an action's app is not: `not installed` when `options` list the
    /// installed apps and none is its manifest app's scheme, or its bundle ID; `only on pad` when the manifest app is
    /// limited to the other device family. Nil when it is listed.
    func notListed(appID: String, options: MatchOptions) -> String? {
        Self.notListed(byAppID[appID], identifier: app(appID: appID).identifier, options: options)
    }

    /// Why the app a package names is not listed (``notListed(appID:options:)``; an app the manifest does not name is
    /// installed by its package).
    func notListed(package: String, options: MatchOptions) -> String? {
        Self.notListed(byPackage[package], identifier: package, options: options)
    }

    private static func notListed(_ app: App?, identifier: String, options: MatchOptions) -> String? {
        if let app {
            guard options.allows(app) else {
                if let installed = options.installed, !installed.contains(scheme: app.scheme) { return "not installed" }
                return "only on \(app.platform?.rawValue ?? "another device")"
            }
            return nil
        }
        if let installed = options.installed, !installed.contains(scheme: identifier) { return "not installed" }
        return nil
    }

    /// The app an app ID opens: the manifest's, or one named by its bundle ID.
    func app(appID: String) -> OpeningApp {
        if let app = byAppID[appID] { return OpeningApp(app) }
        let bundle = appID.split(separator: ".", maxSplits: 1).last.map(String.init) ?? appID
        return OpeningApp(identifier: bundle, name: bundle, scheme: "")
    }

    /// The app a package opens: the manifest's, or one named by its package.
    func app(package: String) -> OpeningApp {
        if let app = byPackage[package] { return OpeningApp(app) }
        return OpeningApp(identifier: package, name: package, scheme: "")
    }
}
