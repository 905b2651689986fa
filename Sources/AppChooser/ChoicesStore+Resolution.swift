import LinkMatching
import LinkRules
import WebLinks

extension ChoicesStore {
    /// The notice of a remembered app that was not marked: not installed, no longer in the rules, or without an
    /// opening for the link.
    public static let rememberedAppUnavailable = "E_REMEMBERED_APP_UNAVAILABLE"
    /// The notice of a store that could not be read while resolving (the resolution stands without its choices).
    public static let choicesUnreadable = "E_CHOICES_UNREADABLE"

    /// Applies the app remembered for the site of `resolution`'s unwrapped link: its openings are marked preferred
    /// (`by: remembered-site`, `reason`: the site), or, when it has none, nothing is marked and a notice
    /// (``rememberedAppUnavailable``) says why. A resolver with the store among its decision stages calls it for every
    /// front end (``decide(_:_:)``). Returns false when the store could not be read (a ``choicesUnreadable`` notice
    /// says so, and the resolution stands without its choices).
    ///
    /// - Parameters:
    ///   - resolution: A resolution of any front end; its unwrapped link's host picks the site choice.
    ///   - rules: The rules the link was resolved with, to tell an app they no longer list from one that is not
    ///     installed (nil: the notice does not tell them apart).
    ///   - installed: The request's installed apps (`MatchOptions.installed`), nil when every app counts as installed.
    @discardableResult
    public func applyRememberedSite(to resolution: inout Resolution, rules: RuleSet?, installed: InstalledApps?) -> Bool
    {
        guard let link = try? Link(resolution.unwrapped) else { return true }
        let choice: SiteChoice?
        do {
            choice = try siteChoice(for: link)
        } catch {
            // The store's file is not named: a server's answers carry no path of its own.
            let message = "the choices store cannot be read, so no remembered choice is applied: \(error.message)"
            resolution.notices.append(ResolutionNotice(code: Self.choicesUnreadable, message: message))
            return false
        }
        guard let choice else { return true }
        let preference = OpeningPreference(by: .rememberedSite, reason: choice.site)
        if resolution.prefer(app: choice.app, preference) { return true }
        resolution.notices.append(
            ResolutionNotice(
                code: Self.rememberedAppUnavailable,
                message: Self.unavailability(of: choice, rules: rules, installed: installed)
            )
        )
        return true
    }

    /// Why the remembered app has no opening, as precisely as the rules and the installed list tell.
    static func unavailability(of choice: SiteChoice, rules: RuleSet?, installed: InstalledApps?) -> String {
        let subject = "the app \"\(choice.app)\" remembered for \(choice.siteDescription)"
        guard let rules else {
            return "\(subject) has no opening for this link: it is not installed or the rules do not list it"
        }
        guard let app = app(choice.app, in: rules) else {
            return "\(subject) is not in the rules any more: remember another app for the site, or forget it"
        }
        if let installed, !installed.contains(scheme: app.scheme), !installed.contains(scheme: app.identifier) {
            return "\(subject) is not installed"
        }
        return "\(subject) has no opening for this link"
    }

    /// The app of the rules with this identifier: one of the user layer's own apps, or the manifest's (listed, inline
    /// in a format, or a browser: "always open this site in Firefox" names a browser).
    public static func app(_ identifier: String, in rules: RuleSet) -> App? {
        if let own = rules.userLayer?.rules.manifest.apps.first(where: { $0.identifier == identifier }) { return own }
        return apps(of: rules.manifest).first { $0.identifier == identifier }
    }

    /// The app a site choice names, which must be one of the rules' (``app(_:in:)``): the one check of
    /// `choose --remember-site` and `PUT /v1/choices/sites/{host}`. An unknown identifier is ``ChooserError/Code/unknownApp``
    /// naming it, with the closest identifier of the rules when one is near (`"X"` → `"x"`).
    public static func requireApp(_ identifier: String, in rules: RuleSet) throws(ChooserError) -> App {
        if let app = app(identifier, in: rules) { return app }
        let own = rules.userLayer?.rules.manifest.apps ?? []
        let known = Set((apps(of: rules.manifest) + own).map(\.identifier))
        let hint =
            KeySuggestion.closest(to: identifier, among: known).map { "; did you mean \"\($0)\"?" }
            ?? " (name an opening's app, as resolve --json and GET /v1/apps list them)"
        throw ChooserError(.unknownApp, "the rules have no app \"\(identifier.prefix(100))\"\(hint)")
    }

    /// Every app of a manifest: listed, inline in a format, and browsers.
    static func apps(of manifest: Manifest) -> [App] {
        manifest.apps + manifest.actions.flatMap(\.formats).compactMap(\.inlineApp) + manifest.browsers.map(\.app)
    }
}
