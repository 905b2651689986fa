import AppChooser
import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

@Suite struct AppChooserTests {
    static func temporaryStore() throws -> (ChoicesStore, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("choices-\(UUID().uuidString).sqlite")
            .path
        return (try ChoicesStore(path: path), path)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func choosyDataRendersTweetbotsProfileURL() throws {
        let catalog = try AppCatalog.bundled().merging(
            try AppCatalog.load(directory: try #require(SharedData.url("choosy")))
        )
        let picker = AppPicker(catalog: catalog, installed: InstalledApps(["tweetbot", "twitter"]), store: nil)
        let model = try picker.model(
            appType: "twitter",
            action: "show_profile",
            parameters: ["profile_screenname": "KarlTheFog"]
        )
        let tweetbot = try #require(model.choices.first { $0.app == "tweetbot" })
        // The empty optional callback_url pair is dropped.
        #expect(tweetbot.url == "tweetbot:///user_profile/KarlTheFog")
        #expect(model.choices.map(\.app).allSatisfy { ["tweetbot", "twitter"].contains($0) })
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyActionOfEveryTypeRendersWithoutPlaceholders() throws {
        let catalog = try AppCatalog.load(directory: try #require(SharedData.url("choosy")))
        #expect(catalog.types.count >= 4)
        var rendered = 0
        for type in catalog.types {
            let parameters = Dictionary(uniqueKeysWithValues: type.parameters.map { ($0.key, "v \($0.key)&?") })
            for app in type.apps {
                for action in type.actions {
                    let url = app.url(for: action.key, parameters: parameters)
                    #expect(!url.contains("{{") && !url.contains("}}"), "\(type.key)/\(app.key)/\(action.key): \(url)")
                    rendered += 1
                }
            }
        }
        #expect(rendered > 50)
    }

    @Test func choosyURLRules() {
        let mail = CatalogApp(
            key: "mail",
            name: "Mail",
            urlScheme: "mailto:",
            actions: [.init(key: "compose", urlFormat: "mailto:{{to}}?cc={{cc}}&subject={{subject}}&body={{body}}")]
        )
        #expect(
            mail.url(for: "compose", parameters: ["to": "a@b.example", "subject": "Hi & bye"])
                == "mailto:a@b.example?subject=Hi%20%26%20bye"
        )
        #expect(mail.url(for: "compose", parameters: [:]) == "mailto:")
        #expect(mail.url(for: "unknown", parameters: ["to": "x"]) == "mailto:")
    }

    @Test func mergingLetsDownloadedDataWinPerKey() throws {
        let bundled = try AppCatalog.bundled()
        let downloaded = AppCatalog(types: [
            AppType(
                key: "twitter",
                name: "Twitter (new)",
                apps: [
                    CatalogApp(
                        key: "twitter",
                        name: "Twitter",
                        urlScheme: "twitter:",
                        actions: [.init(key: "post", urlFormat: "twitter://compose?text={{text}}")]
                    ),
                    CatalogApp(key: "ivory", name: "Ivory", urlScheme: "ivory:"),
                ]
            )
        ])
        let merged = bundled.merging(downloaded)
        let type = try #require(merged.type("twitter"))
        #expect(type.name == "Twitter (new)")
        #expect(type.apps.map(\.key) == ["twitter", "ivory"])
        #expect(type.app("twitter")?.url(for: "post", parameters: ["text": "hi"]) == "twitter://compose?text=hi")
        #expect(type.app("twitter")?.url(for: "status", parameters: ["status_id": "1"]) == "twitter://status?id=1")
    }

    @Test func defaultsPersistAndANewAppRepromptsAndResetWorks() throws {
        let (_, path) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let catalog = try AppCatalog.bundled()
        let two = AppPicker(
            catalog: catalog,
            installed: InstalledApps(["maps", "comgooglemaps"]),
            store: try ChoicesStore(path: path)
        )
        #expect(try two.model(appType: "maps", action: "search", parameters: ["query": "Zürich"]).showPicker)
        try two.setDefault(appType: "maps", app: "googlemaps")
        // A new store object on the same file (another process) sees the default.
        let again = AppPicker(
            catalog: catalog,
            installed: InstalledApps(["maps", "comgooglemaps"]),
            store: try ChoicesStore(path: path)
        )
        let model = try again.model(appType: "maps", action: "search", parameters: ["query": "Zürich"])
        #expect(!model.showPicker && model.defaultApp == "googlemaps")
        #expect(model.choices.first { $0.isDefault }?.url == "comgooglemaps://?q=Z%C3%BCrich")
        // Waze appears: the picker shows again, the old default still marked.
        let three = AppPicker(
            catalog: catalog,
            installed: InstalledApps(["maps", "comgooglemaps", "waze"]),
            store: try ChoicesStore(path: path)
        )
        let prompted = try three.model(appType: "maps", action: "search", parameters: ["query": "tea"])
        #expect(prompted.showPicker && prompted.reason.contains("new"))
        // The default disappears: the picker shows.
        let gone = AppPicker(catalog: catalog, installed: InstalledApps(["maps"]), store: try ChoicesStore(path: path))
        #expect(try gone.model(appType: "maps", action: "search", parameters: ["query": "tea"]).showPicker)
        try again.reset(appType: "maps")
        #expect(
            try again.model(appType: "maps", action: "search", parameters: ["query": "tea"]).reason.contains(
                "no default"
            )
        )
    }

    @Test func unknownTypesAndActionsAreNamedErrors() throws {
        let picker = AppPicker(catalog: try AppCatalog.bundled(), installed: EveryAppInstalled(), store: nil)
        #expect(throws: ChooserError.self) { try picker.model(appType: "fax", action: "send", parameters: [:]) }
        #expect(throws: ChooserError.self) { try picker.model(appType: "maps", action: "fly", parameters: [:]) }
    }

    @Test func refreshUsesConditionalRequestsExpiresAndKeepsGoodDataOverCorruptDownloads() async throws {
        let body =
            #"[{"key": "twitter", "name": "Twitter", "apps": [{"key": "ivory", "name": "Ivory", "app_url_scheme": "ivory:"}]}]"#
        let state = ServerState()
        let server = try await LoopbackHTTPServer.start { request in
            if await state.corrupt { return .text("[{\"key\": \"twitter\", \"apps\": [") }
            if request.header("If-None-Match") == "\"v1\"" { return LoopbackHTTPServer.Response(status: 304) }
            return .text(body, headers: [.init("ETag", "\"v1\""), .init("Content-Type", "application/json")])
        }
        defer { Task { await server.stop() } }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        // The stack's clock ages its cache.
        let clock = ManualClock()
        let stack = FetchingStack(
            upstream: LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true)),
            limits: nil,
            clock: FetchClock(clock)
        )
        let refresher = CatalogRefresher(
            baseURL: server.baseURL,
            stack: stack,
            cacheDirectory: cache,
            lifetime: .seconds(3600)
        )
        let bundled = try AppCatalog.bundled()
        let first = await refresher.refresh(bundled, types: ["twitter"])
        #expect(first.downloads["twitter"] == .network)
        #expect(first.catalog.type("twitter")?.app("ivory") != nil)
        let fresh = await refresher.refresh(bundled, types: ["twitter"])
        #expect(fresh.downloads["twitter"] == .cache)
        #expect(server.requestCount == 1)
        clock.advance(by: .seconds(7200))
        let revalidated = await refresher.refresh(bundled, types: ["twitter"])
        #expect(revalidated.downloads["twitter"] == .notModified)
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
        await state.setCorrupt()
        clock.advance(by: .seconds(7200))
        let afterCorrupt = await refresher.refresh(bundled, types: ["twitter"])
        #expect(
            afterCorrupt.catalog.type("twitter")?.app("ivory") != nil,
            "the good copy must survive a corrupt download"
        )
        #expect(!afterCorrupt.warnings.isEmpty)
    }

    actor ServerState {
        var corrupt = false
        func setCorrupt() { corrupt = true }
    }
}

@Suite struct OpenerDerivedTypesTests {
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func appsSharingAnOpenerActionFormATypeToChooseFrom() throws {
        let rules = RuleSet(try ManifestLoader().load(Array(try SharedData.data("openerManifest-v5.json"))))
        let catalog = AppCatalog(openerManifest: rules.manifest)
        #expect(catalog.types.count >= 40)
        let tweets = try #require(catalog.type("/actions/0"))
        #expect(tweets.name == "Open Tweet")
        #expect(tweets.apps.map(\.key).prefix(3) == ["twitter", "tweetbot", "twitterrific"])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opener-choices-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let picker = AppPicker(
            catalog: catalog,
            installed: InstalledApps(["tweetbot", "twitter"]),
            store: try ChoicesStore(path: path)
        )
        let resolution = try rules.resolve("https://twitter.com/jack/status/20")
        try picker.setDefault(appType: "/actions/0", app: "tweetbot")
        let model = try picker.model(for: resolution, appType: "/actions/0")
        #expect(model.choices.map(\.url) == ["twitter://status?id=20", "tweetbot:///status/20"])
        #expect(model.defaultApp == "tweetbot" && !model.showPicker)
    }
}
