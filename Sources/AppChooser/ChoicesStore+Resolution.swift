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
            resolution.notices.append(ResolutionNotice(code: Self.choicesUnreadable, message: error.message))
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
        guard let manifest = rules?.manifest else {
            return "\(subject) has no opening for this link: it is not installed or the rules do not list it"
        }
        guard let app = app(choice.app, in: manifest) else {
            return "\(subject) is not in the rules any more: remember another app for the site, or forget it"
        }
        if let installed, !installed.contains(scheme: app.scheme), !installed.contains(scheme: app.identifier) {
            return "\(subject) is not installed"
        }
        return "\(subject) has no opening for this link"
    }

    /// The app of the manifest (listed, inline in a format, or a browser) with this identifier: "always open this
    /// site in Firefox" names a browser.
    package static func app(_ identifier: String, in manifest: Manifest) -> App? {
        manifest.apps.first { $0.identifier == identifier }
            ?? manifest.actions.lazy.flatMap(\.formats).compactMap(\.inlineApp).first { $0.identifier == identifier }
            ?? manifest.browsers.lazy.map(\.app).first { $0.identifier == identifier }
    }
}
