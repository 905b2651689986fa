import LinkRules

extension RuleSet {
    /// A name of an installed-apps list that no app or browser of the rules has as its scheme.
    public struct UnknownInstalledName: Sendable, Equatable, CustomStringConvertible {
        /// The name, as the list holds it (lower-cased, without `:`).
        public var name: String
        /// The scheme it probably means: that of the app whose identifier it is, else the closest scheme.
        public var suggestion: String?

        /// `no app of the rules has the scheme "nosuchapp"; did you mean "…"?`
        public var description: String {
            "no app of the rules has the scheme \"\(name)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")
        }
    }

    /// The names of `installed` that match no app or browser of the rules (user layer included), in order, each with
    /// the scheme it probably means: such a name lists nothing, and is most likely a typo or an app's identifier
    /// given for its scheme. The CLI warns about each (`resolve --installed nosuchapp`).
    public func unknownSchemes(in installed: InstalledApps) -> [UnknownInstalledName] {
        var schemes: Set<String> = []
        var byIdentifier: [String: String] = [:]
        for format in actions.lazy.flatMap(\.formats) {
            schemes.insert(format.scheme)
            byIdentifier[format.app.identifier.lowercased()] = format.scheme
        }
        for browser in browsers {
            schemes.insert(browser.scheme)
            byIdentifier[browser.browser.app.identifier.lowercased()] = browser.scheme
        }
        for app in manifest.apps {
            schemes.insert(app.scheme.lowercased())
            byIdentifier[app.identifier.lowercased()] = app.scheme.lowercased()
        }
        return installed.schemes.sorted().filter { !schemes.contains($0) }.map { name in
            UnknownInstalledName(
                name: name,
                suggestion: byIdentifier[name] ?? KeySuggestion.closest(to: name, among: schemes)
            )
        }
    }
}
