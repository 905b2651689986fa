import LinkMatching
import LinkRules

extension ChoicesStore {
    /// The app type whose remembered default is the default browser (`choose --type browser --set-default chrome`).
    public static let browserType = "browser"

    /// Marks the browser openings of the default browser (the default remembered for ``browserType``) preferred,
    /// `by: remembered-default`, `reason: "browser"`, as ``applyRememberedSite(to:rules:installed:)`` marks the app
    /// remembered for a site; nothing is marked when a browser opening is preferred already (a site choice or the user
    /// layer said which). When the default browser has no opening (not installed, not in the rules) a notice
    /// (``rememberedAppUnavailable``) says so. The browser is the rules' browser whose identifier is the catalog key,
    /// or whose scheme is that app's in the bundled catalog (`chrome`: `googlechrome`). Returns false when the store
    /// could not be read.
    @discardableResult
    public func applyDefaultBrowser(to resolution: inout Resolution, installed: InstalledApps?) -> Bool {
        let choice: Choice?
        do {
            choice = try self.choice(for: Self.browserType)
        } catch {
            let message = "the choices store cannot be read, so no remembered choice is applied: \(error.message)"
            resolution.notices.append(ResolutionNotice(code: Self.choicesUnreadable, message: message))
            return false
        }
        let browsers = resolution.openings.indices.filter { resolution.openings[$0].kind == .browser }
        guard let choice, !browsers.isEmpty,
            !browsers.contains(where: { resolution.openings[$0].preferred != nil })
        else { return true }
        let scheme = Self.bundledBrowserSchemes[choice.app]
        let preference = OpeningPreference(by: .rememberedDefault, reason: Self.browserType)
        var found = false
        for index in browsers {
            guard let app = resolution.openings[index].app,
                app.identifier == choice.app || (scheme != nil && app.scheme.lowercased() == scheme)
            else { continue }
            resolution.openings[index].preferred = preference
            found = true
        }
        guard !found else { return true }
        let subject = "the default browser \"\(choice.app)\" (choose --type browser --set-default)"
        let installedOnes = [choice.app] + (scheme.map { [$0] } ?? [])
        let message =
            if let installed, !installedOnes.contains(where: installed.contains(scheme:)) {
                "\(subject) is not installed"
            } else {
                "\(subject) has no opening for this link: the rules do not list it"
            }
        resolution.notices.append(ResolutionNotice(code: Self.rememberedAppUnavailable, message: message))
        return true
    }

    /// The bundled catalog's browsers, key → URL scheme (lower-cased, without `:`).
    static let bundledBrowserSchemes: [String: String] = {
        let apps = (try? AppCatalog.bundled())?.type(browserType)?.apps ?? []
        var schemes: [String: String] = [:]
        for app in apps {
            var scheme = app.urlScheme.lowercased()
            while scheme.hasSuffix(":") || scheme.hasSuffix("/") { scheme.removeLast() }
            schemes[app.key] = scheme
        }
        return schemes
    }()
}
