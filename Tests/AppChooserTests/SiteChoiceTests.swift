import AppChooser
import Foundation
import GRDB
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// "Always open this site with that app": site keys, the store's precedence and reset, the v1 → v2 migration, and
/// the one function that applies a choice to a resolution. Every store is a real SQLite file in a temporary folder.
@Suite struct SiteChoiceTests {
    /// A folder for one test's store, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("site-choices-\(UUID().uuidString)")
        var store: String { url.appendingPathComponent("choices.sqlite").path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// The revision is made from the choices, not from a process: two stores on one file, a store opened again
    /// (a restart) and a store on another file with the same choices all agree; any change gives another one.
    @Test func theRevisionFollowsTheChoicesInAnyProcess() throws {
        let folder = Folder()
        let other = Folder()
        let first = try ChoicesStore(path: folder.store)
        let empty = try #require(first.revision())
        try first.rememberSite("example.com", app: "alpha")
        let one = try #require(first.revision())
        #expect(one != empty)
        #expect(try ChoicesStore(path: folder.store).revision() == one)
        let elsewhere = try ChoicesStore(path: other.store)
        try elsewhere.rememberSite("example.com", app: "alpha")
        #expect(elsewhere.revision() == one)
        try elsewhere.rememberSite("example.com", app: "beta")
        #expect(elsewhere.revision() != one)
        #expect(try first.forgetSite("example.com") != nil)
        #expect(first.revision() == empty)
    }

    @Test(arguments: [
        ("Example.COM", "example.com"), (" example.com. ", "example.com"), ("bücher.de", "xn--bcher-kva.de"),
        ("127.0.0.1", "127.0.0.1"), ("[::1]", "[::1]"), ("localhost", "localhost"),
    ])
    func aSiteIsKeptAsLinksWriteItsHost(text: String, key: String) throws {
        #expect(try SiteChoice.canonicalSite(text, scope: .host) == key)
    }

    @Test(arguments: [
        "", "https://example.com", "example.com/path", "example.com:8080", "user@example.com", "exa mple.com",
        "example.com?q", "%65xample.com",
    ])
    func anythingButAHostIsRefusedNamingIt(text: String) throws {
        let error = try #require(throws: ChooserError.self) { try SiteChoice.canonicalSite(text, scope: .host) }
        #expect(error.code == .invalidSite)
        if !text.isEmpty { #expect(error.message.contains("\"\(text)\"")) }
        #expect(!error.message.contains("Error"))
    }

    /// Subdomains of a domain everyone registers under are refused without a list; a named owner's domain is kept.
    @Test(arguments: ["com", "CO.UK", "com.au", "ne.jp", "gov.br", "192.168.0.1", "[::1]"])
    func aPublicSuffixCannotCoverItsSubdomains(text: String) throws {
        let error = try #require(throws: ChooserError.self) { try SiteChoice.canonicalSite(text, scope: .domain) }
        #expect(error.code == .publicSuffix)
        // The same name is fine as a host of its own.
        #expect(throws: Never.self) { try SiteChoice.canonicalSite(text, scope: .host) }
    }

    @Test(arguments: ["example.co.uk", "example.com", "bbc.co.uk", "github.io", "co.example"])
    func anOwnersDomainCoversItsSubdomains(text: String) throws {
        #expect(try SiteChoice.canonicalSite(text, scope: .domain) == text)
    }

    @Test func theHostWinsThenTheNearestDomain() throws {
        let folder = Folder()
        let store = try ChoicesStore(path: folder.store)
        try store.rememberSite("example.com", app: "alpha", scope: .domain)
        try store.rememberSite("M.Example.com", app: "beta")
        try store.rememberSite("b.example.com", app: "gamma", scope: .domain)
        try store.rememberSite("other.org", app: "delta")
        let expected: [(String, String?)] = [
            ("m.example.com", "beta"), ("example.com", "alpha"), ("www.example.com", "alpha"),
            ("x.m.example.com", "alpha"), ("b.example.com", "gamma"), ("a.b.example.com", "gamma"),
            ("notexample.com", nil), ("other.org", "delta"), ("www.other.org", nil), ("com", nil),
        ]
        for (host, app) in expected {
            #expect(try store.siteChoice(forHost: host)?.app == app, "\(host)")
        }
        #expect(try store.siteChoice(forHost: "a.b.example.com")?.site == "b.example.com")
        // Remembering the domain's own name without subdomains replaces the domain choice: one row per site.
        try store.rememberSite("example.com", app: "epsilon")
        #expect(try store.siteChoice(forHost: "example.com")?.app == "epsilon")
        #expect(try store.siteChoice(forHost: "www.example.com") == nil)
    }

    @Test func rememberingAgainReplacesAndResetIsPerSite() throws {
        let folder = Folder()
        let store = try ChoicesStore(path: folder.store)
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        try store.rememberSite("example.com", app: "alpha", scope: .domain, now: when)
        try store.rememberSite("www.example.com", app: "beta", now: when)
        try store.rememberSite("www.example.com", app: "gamma", now: when)
        // Another store object on the same file (another process) sees the same rows, by site.
        let again = try ChoicesStore(path: folder.store)
        #expect(
            try again.siteChoices() == [
                SiteChoice(site: "example.com", scope: .domain, app: "alpha", chosenAt: when),
                SiteChoice(site: "www.example.com", scope: .host, app: "gamma", chosenAt: when),
            ]
        )
        #expect(try again.forgetSite("WWW.example.com")?.app == "gamma")
        #expect(try again.forgetSite("www.example.com") == nil)
        // The domain choice still covers the host.
        #expect(try again.siteChoice(forHost: "www.example.com")?.site == "example.com")
        try again.rememberSite("other.org", app: "delta")
        #expect(try again.forgetAllSites() == 2)
        #expect(try again.siteChoices().isEmpty)
    }

    /// A store written before site choices existed (only the `v1` migration) opens, keeps its defaults, and gains
    /// the site table.
    @Test func aVersionOneStoreIsMigrated() throws {
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        do {
            let old = try DatabaseQueue(path: folder.store)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.create(table: "defaultApp") { table in
                    table.primaryKey("appType", .text)
                    table.column("app", .text).notNull()
                    table.column("knownApps", .text).notNull()
                    table.column("chosenAt", .double).notNull()
                }
            }
            try migrator.migrate(old)
            try old.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO defaultApp (appType, app, knownApps, chosenAt) VALUES ('maps', 'waze', '[\"waze\"]', 1)"
                )
            }
            try old.close()
        }
        let store = try ChoicesStore(path: folder.store)
        #expect(try store.choice(for: "maps")?.app == "waze")
        #expect(try store.choice(for: "maps")?.knownApps == ["waze"])
        try store.rememberSite("example.com", app: "alpha")
        #expect(try store.siteChoice(forHost: "example.com")?.app == "alpha")
        let applied = try DatabaseQueue(path: folder.store).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        #expect(applied == ["v1", "v2"])
    }

    /// A file that is not a database: the store says so, with the path, in its own words.
    @Test func aFileThatIsNotADatabaseIsNamedWithoutSQLitesText() throws {
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: folder.store))
        let error = try #require(throws: ChooserError.self) { try ChoicesStore(path: folder.store) }
        #expect(error.code == .store)
        #expect(error.message == "cannot open the choices store: the file is not a SQLite database")
        #expect(error.file == folder.store)
    }

    /// Resolving only reads: a store that is not there is an error, never created.
    @Test func aMissingStoreIsNotCreatedWhenAskedNotTo() throws {
        let folder = Folder()
        let error = try #require(throws: ChooserError.self) {
            try ChoicesStore(path: folder.store, createIfMissing: false)
        }
        #expect(error.code == .store)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path))
    }
}

/// ``ChoicesStore/applyRememberedSite(to:rules:installed:)``: the one function every front end calls.
@Suite struct RememberedSiteResolutionTests {
    /// Alpha and Beta both open `https://*.example.com/…`.
    static func rules() throws -> RuleSet {
        try RuleFixture.rules(
            actions: #"""
                [{"title": "Open", "regex": "^https://([a-z]+\\.)?example\\.com/", "formats": [
                  {"appId": "alpha", "format": "alpha://open"}, {"appId": "beta", "format": "beta://open"}]}]
                """#
        )
    }

    static func resolved(
        _ link: String,
        store: ChoicesStore,
        installed: InstalledApps? = nil
    ) throws -> Resolution {
        let rules = try rules()
        var resolution = try rules.resolve(link, options: MatchOptions(installed: installed))
        store.applyRememberedSite(to: &resolution, rules: rules, installed: installed)
        return resolution
    }

    @Test func theRememberedAppsOpeningsArePreferredForTheSite() throws {
        let folder = SiteChoiceTests.Folder()
        let store = try ChoicesStore(path: folder.store)
        try store.rememberSite("example.com", app: "beta", scope: .domain)
        let resolution = try Self.resolved("https://www.example.com/a", store: store)
        let preferred = resolution.openings.filter { $0.preferred != nil }
        #expect(preferred.map { $0.app?.identifier } == ["beta"])
        #expect(preferred.first?.preferred == OpeningPreference(by: .rememberedSite, reason: "example.com"))
        #expect(resolution.notices.isEmpty)
        let document = String(decoding: try DocumentEncoder.document(resolution), as: UTF8.self)
        #expect(document.contains(#""preferred":{"by":"remembered-site","reason":"example.com"}"#))
        #expect(!document.contains("notices"))
        // Another site: nothing marked, nothing reported.
        let other = try Self.resolved("https://example.org/", store: store)
        #expect(other.openings.allSatisfy { $0.preferred == nil } && other.notices.isEmpty)
    }

    @Test func anAppThatIsNotInstalledIsReportedNotMarked() throws {
        let folder = SiteChoiceTests.Folder()
        let store = try ChoicesStore(path: folder.store)
        try store.rememberSite("example.com", app: "beta")
        let resolution = try Self.resolved("https://example.com/", store: store, installed: InstalledApps(["alpha"]))
        #expect(resolution.openings.allSatisfy { $0.preferred == nil })
        #expect(
            resolution.notices == [
                ResolutionNotice(
                    code: "E_REMEMBERED_APP_UNAVAILABLE",
                    message: #"the app "beta" remembered for example.com is not installed"#
                )
            ]
        )
        let document = String(decoding: try DocumentEncoder.document(resolution), as: UTF8.self)
        #expect(document.contains(#""notices":[{"code":"E_REMEMBERED_APP_UNAVAILABLE","#))
    }

    /// A store that cannot be read while resolving: the resolution stands, with a notice in the store's words.
    @Test func anUnreadableStoreIsANoticeNotAFailure() throws {
        let folder = SiteChoiceTests.Folder()
        let store = try ChoicesStore(path: folder.store)
        try DatabaseQueue(path: folder.store).write { db in try db.execute(sql: "DROP TABLE siteChoice") }
        let resolution = try Self.resolved("https://example.com/", store: store)
        #expect(resolution.openings.count == 2)
        #expect(
            resolution.notices == [
                ResolutionNotice(
                    code: "E_CHOICES_UNREADABLE",
                    message:
                        "the choices store cannot be read, so no remembered choice is applied: cannot read the app remembered for example.com: the database does not have the expected tables (was it written by another program?)"
                )
            ]
        )
    }

    @Test func anAppTheRulesNoLongerListIsReported() throws {
        let folder = SiteChoiceTests.Folder()
        let store = try ChoicesStore(path: folder.store)
        try store.rememberSite("example.com", app: "gone", scope: .domain)
        let resolution = try Self.resolved("https://m.example.com/", store: store)
        #expect(resolution.openings.allSatisfy { $0.preferred == nil })
        #expect(
            resolution.notices.map(\.message) == [
                #"the app "gone" remembered for example.com and its subdomains is not in the rules any more: remember another app for the site, or forget it"#
            ]
        )
        // An app of the rules without an opening for this link.
        try store.rememberSite("example.com", app: "phoneonly", scope: .domain)
        #expect(
            try Self.resolved("https://m.example.com/", store: store).notices.map(\.message) == [
                #"the app "phoneonly" remembered for example.com and its subdomains has no opening for this link"#
            ]
        )
    }
}

/// ``ChoicesStore/requireApp(_:in:)``: the one check of a remembered site's app, for `choose --remember-site` and
/// `PUT /v1/choices/sites/{host}` alike.
@Suite struct SiteChoiceAppTests {
    /// The fixture's apps, a browser and an app named only inline in a format, with a user layer that adds `mine`.
    static func rules() throws -> RuleSet {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"title": "Open", "regex": "^https://example\\.com/", "formats": [
                  {"appId": "alpha", "format": "alpha://open"},
                  {"app": {"identifier": "inline", "name": "Inline", "scheme": "inline"}, "format": "inline://x"}]}]
                """#,
            browsers:
                #"[{"identifier": "firefox", "name": "Firefox", "scheme": "firefox", "regex": "^https?://", "format": "firefox://open-url?url=$0"}]"#
        )
        let layer = try UserLayerLoader().load(
            #"{"switchyardUserLayer": 1, "apps": [{"identifier": "mine", "name": "Mine", "scheme": "mine"}]}"#,
            file: "layer.json"
        )
        return rules.applying(layer, scriptChecker: nil)
    }

    @Test(arguments: ["alpha", "inline", "firefox", "mine"])
    func anAppOfTheRulesOrOfTheLayerIsAccepted(identifier: String) throws {
        #expect(try ChoicesStore.requireApp(identifier, in: try Self.rules()).identifier == identifier)
    }

    @Test(arguments: [
        (
            "tweetbot",
            #"the rules have no app "tweetbot" (name an opening's app, as resolve --json and GET /v1/apps list them)"#
        ),
        ("Alpha", #"the rules have no app "Alpha"; did you mean "alpha"?"#),
        ("alhpa", #"the rules have no app "alhpa"; did you mean "alpha"?"#),
    ])
    func anUnknownAppIsRefusedByName(identifier: String, message: String) throws {
        let error = try #require(throws: ChooserError.self) {
            try ChoicesStore.requireApp(identifier, in: try Self.rules())
        }
        #expect(error == ChooserError(.unknownApp, message))
    }
}
