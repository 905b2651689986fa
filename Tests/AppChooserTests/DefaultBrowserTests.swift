import AppChooser
import LinkMatching
import LinkRules
import SwitchyardTestSupport
import Testing

/// ``ChoicesStore/applyDefaultBrowser(to:installed:)``: the default remembered for the `browser` type marks its browser
/// openings, as a remembered site's app is marked, and is part of the store's revision (so of every cache key).
@Suite struct DefaultBrowserTests {
    /// Three browsers; Chrome under another identifier than the catalog's key (`chrome`), with its scheme.
    static func rules() throws -> RuleSet {
        try RuleFixture.rules(
            browsers: #"""
                [{"identifier": "safari", "name": "Safari", "scheme": "https", "regex": "^https?://.+$", "format": "$0"},
                 {"identifier": "google-chrome", "name": "Chrome", "scheme": "googlechrome", "regex": "^http(s?)(://.+)$",
                  "format": "googlechrome$1$2"},
                 {"identifier": "firefox", "name": "Firefox", "scheme": "firefox", "regex": "^https?://.+$",
                  "format": "firefox://open-url?url=$0"}]
                """#
        )
    }

    static func resolved(_ link: String, store: ChoicesStore, installed: InstalledApps? = nil) throws -> Resolution {
        var resolution = try rules().resolve(link, options: MatchOptions(installed: installed))
        store.applyDefaultBrowser(to: &resolution, installed: installed)
        return resolution
    }

    @Test func theDefaultBrowsersOpeningIsMarkedByKeyOrScheme() throws {
        let folder = SiteChoiceTests.Folder()
        let store = try ChoicesStore(path: folder.store)
        #expect(try Self.resolved("https://example.org/", store: store).openings.allSatisfy { $0.preferred == nil })
        try store.setDefault(appType: "browser", app: "chrome", installedApps: [])
        let resolution = try Self.resolved("https://example.org/", store: store)
        let marked = resolution.openings.filter { $0.preferred != nil }
        #expect(marked.map { $0.app?.identifier } == ["google-chrome"])
        #expect(marked.first?.preferred == OpeningPreference(by: .rememberedDefault, reason: "browser"))
        #expect(resolution.notices.isEmpty)
        // Not installed: nothing marked, and a notice says so.
        let without = try Self.resolved("https://example.org/", store: store, installed: InstalledApps(["https"]))
        #expect(without.openings.allSatisfy { $0.preferred == nil })
        #expect(without.notices.map(\.code) == [ChoicesStore.rememberedAppUnavailable])
        // Named by the rules' own identifier, it is found by that too.
        try store.setDefault(appType: "browser", app: "firefox", installedApps: [])
        let firefox = try Self.resolved("https://example.org/", store: store)
        #expect(firefox.openings.filter { $0.preferred != nil }.map { $0.app?.identifier } == ["firefox"])
    }

    @Test func aBrowserAlreadyPreferredForTheSiteWins() throws {
        let folder = SiteChoiceTests.Folder()
        let store = try ChoicesStore(path: folder.store)
        try store.setDefault(appType: "browser", app: "chrome", installedApps: [])
        var resolution = try Self.rules().resolve("https://example.org/", options: MatchOptions())
        _ = resolution.prefer(app: "firefox", OpeningPreference(by: .rememberedSite, reason: "example.org"))
        store.applyDefaultBrowser(to: &resolution, installed: nil)
        #expect(resolution.openings.filter { $0.preferred != nil }.map { $0.app?.identifier } == ["firefox"])
    }

    @Test func theRevisionChangesWithTheDefaultBrowser() throws {
        let folder = SiteChoiceTests.Folder()
        let store = try ChoicesStore(path: folder.store)
        let before = try #require(store.revision())
        try store.setDefault(appType: "maps", app: "waze", installedApps: [])
        #expect(store.revision() == before)
        try store.setDefault(appType: "browser", app: "chrome", installedApps: [])
        let chrome = try #require(store.revision())
        #expect(chrome != before)
        try store.setDefault(appType: "browser", app: "firefox", installedApps: [])
        #expect(store.revision() != chrome)
    }
}
