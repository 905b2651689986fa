import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard choose` in process: the installed apps that can perform an action, and the remembered default.
@Suite struct ChooseCommandTests {
    static func choose(_ arguments: [String], store: String) async -> CommandOutcome {
        await InProcessCommand.run(["choose", "--type", "maps", "--choices", store] + arguments)
    }

    @Test func listsTheInstalledAppsWithTheirURLs() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("choices.sqlite").path
        // Keys and schemes both name installed apps, through the one installed-apps parser.
        let output = await Self.choose(
            ["--action", "search", "--param", "query=coffee", "--installed", " comgooglemaps:, waze"],
            store: store
        )
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.first?.hasPrefix("maps / search: ") == true)
        #expect(Array(lines.dropFirst()) == ["Google Maps comgooglemaps://?q=coffee", "Waze waze://?q=coffee"])
    }

    @Test func remembersAndForgetsTheDefault() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("choices.sqlite").path
        let set = await Self.choose(["--set-default", "waze"], store: store)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "the default Maps app is now Waze (waze)\n")
        let chosen = await Self.choose(["--action", "search", "--param", "query=tea", "--json"], store: store)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let model = try #require(try JSONSerialization.jsonObject(with: Data(chosen.stdout.utf8)) as? [String: Any])
        let choices = try #require(model["choices"] as? [[String: Any]])
        #expect(choices.filter { $0["isDefault"] as? Bool == true }.compactMap { $0["app"] as? String } == ["waze"])
        #expect(model["showPicker"] as? Bool == false)
        let text = await Self.choose(["--action", "search", "--param", "query=tea"], store: store)
        #expect(text.stdout.contains("* Waze"))
        let reset = await Self.choose(
            ["--reset", "--action", "search", "--param", "query=tea", "--json"],
            store: store
        )
        let after = try #require(try JSONSerialization.jsonObject(with: Data(reset.stdout.utf8)) as? [String: Any])
        #expect(after["showPicker"] as? Bool == true)
    }

    /// Choosy's own data (`--catalog`): Echofon's key-less query placeholder keeps its value, escaped.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func choosysKeylessQueryPlaceholderKeepsItsValue() async throws {
        let directory = try TemporaryDirectory()
        let catalog = try #require(SharedData.url("choosy")).path
        let output = await InProcessCommand.run([
            "choose", "--catalog", catalog, "--choices", directory.url.appendingPathComponent("c.sqlite").path,
            "--type", "twitter", "--action", "show_profile", "--param", "profile_screenname=Karl&Fog",
            "--installed", "echofon", "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let model = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let choices = try #require(model["choices"] as? [[String: Any]])
        let echofon = try #require(choices.first { $0["app"] as? String == "echofon" })
        #expect(echofon["url"] as? String == "echofon:///user_timeline?Karl%26Fog")
    }

    /// A format that is one placeholder (Safari's `{{url}}`) gives the link itself, openable, not escaped text.
    @Test func aWholeLinkPlaceholderGivesAnOpenableLink() async throws {
        let directory = try TemporaryDirectory()
        let output = await InProcessCommand.run([
            "choose", "--choices", directory.url.appendingPathComponent("c.sqlite").path, "--type", "browser",
            "--action", "browse", "--param", "url=HTTPS://Example.COM/a b?q=1&r=2", "--installed", "safari", "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let model = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let choices = try #require(model["choices"] as? [[String: Any]])
        #expect(
            choices.first { $0["app"] as? String == "safari" }?["url"] as? String == "https://example.com/a%20b?q=1&r=2"
        )
    }

    @Test func refusesAnUnknownAppWithOneLineAndStatusTwo() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("choices.sqlite").path
        let output = await Self.choose(["--set-default", "tweetbot"], store: store)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderr.hasPrefix("error: "))
        #expect(output.stderr.contains("\"tweetbot\""))
    }

    /// `--set-default` with an app the bundled catalog lacks: one line saying what the catalog is and what to pass.
    @Test func anAppTheCatalogLacksSaysWhatToPass() async throws {
        let directory = try TemporaryDirectory()
        let output = await InProcessCommand.run([
            "choose", "--type", "twitter", "--set-default", "tweetbot", "--installed", "tweetbot,twitter",
            "--choices", directory.url.appendingPathComponent("c.sqlite").path,
        ])
        #expect(output.status == 2)
        #expect(
            output.stderrLines == [
                #"error: app type "twitter" has no app "tweetbot" (it has twitter); the catalog is the bundled one: add a Choosy data folder with --catalog DIR, or download the type with --refresh-from URL [E_UNKNOWN_APP]"#
            ]
        )
    }

    /// The documented `--set-default` line, with the Choosy data folder it needs for Tweetbot.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func theDocumentedSetDefaultWorksWithChoosysData() async throws {
        let directory = try TemporaryDirectory()
        let catalog = try #require(SharedData.url("choosy")).path
        let environment = ["XDG_DATA_HOME": directory.url.path]
        let set = await InProcessCommand.run(
            [
                "choose", "--type", "twitter", "--set-default", "tweetbot", "--installed", "tweetbot,twitter",
                "--catalog", catalog,
            ],
            environment: environment
        )
        #expect(set.status == 0, "\(set.stderr)")
        let chosen = await InProcessCommand.run(
            [
                "choose", "--type", "twitter", "--action", "show_profile", "--param", "profile_screenname=KarlTheFog",
                "--installed", "tweetbot,twitter", "--catalog", catalog,
            ],
            environment: environment
        )
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.split(separator: "\n").contains { $0.hasPrefix("* Tweetbot") }, "\(chosen.stdout)")
    }

    /// `--refresh-from`: the type downloaded from a server (here on loopback) over the bundled catalog, cached under
    /// `$XDG_CACHE_HOME`; the next run within a day uses the cache without a request.
    @Test func refreshesTheTypeFromAServer() async throws {
        let body = #"""
            [{"key": "twitter", "name": "Twitter", "apps": [{"key": "tweetbot", "name": "Tweetbot", "app_url_scheme": "tweetbot:",
              "actions": [{"key": "show_profile", "url_format": "tweetbot:///user_profile/{{profile_screenname}}"}]}]}]
            """#
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/types/twitter.json" ? .text(body) : .text("not found", status: 404)
        }
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let environment = ["XDG_CACHE_HOME": directory.url.path, "XDG_DATA_HOME": directory.url.path]
        let arguments = [
            "choose", "--type", "twitter", "--action", "show_profile", "--param", "profile_screenname=jack",
            "--installed", "tweetbot", "--refresh-from", server.url("/types"), "--allow-private-addresses", "--json",
        ]
        for run in 1...2 {
            let output = await InProcessCommand.run(arguments, environment: environment)
            #expect(output.status == 0, "run \(run): \(output.stderr)")
            #expect(output.stderr.isEmpty)
            let model = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            let choices = try #require(model["choices"] as? [[String: Any]])
            #expect(choices.compactMap { $0["url"] as? String } == ["tweetbot:///user_profile/jack"])
        }
        #expect(server.requestCount == 1)
        let cache = directory.url.appendingPathComponent("switchyard/catalog")
        #expect(try !FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty)
    }

    /// A failed download: a warning, and the catalog without it.
    @Test func aFailedRefreshWarnsAndUsesTheCatalog() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("not found", status: 404) }
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let output = await InProcessCommand.run(
            [
                "choose", "--type", "maps", "--action", "search", "--param", "query=tea", "--installed", "waze",
                "--refresh-from", server.baseURL, "--allow-private-addresses",
            ],
            environment: ["XDG_CACHE_HOME": directory.url.path, "XDG_DATA_HOME": directory.url.path]
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderrLines.count == 1)
        #expect(
            output.stderrLines.first?.hasPrefix("warning: \(server.baseURL)/maps.json: ") == true,
            "\(output.stderr)"
        )
        #expect(output.stdout.contains("waze://?q=tea"))
    }

    @Test func refreshingOfflineIsOneError() async throws {
        let directory = try TemporaryDirectory()
        let output = await InProcessCommand.run(
            [
                "choose", "--type", "maps", "--set-default", "waze", "--refresh-from", "https://example.com",
                "--offline",
            ],
            environment: ["XDG_CACHE_HOME": directory.url.path, "XDG_DATA_HOME": directory.url.path]
        )
        #expect(output.status == 2)
        #expect(output.stderrLines == ["error: --refresh-from downloads app types, which --offline forbids"])
    }

    /// An action's parameters are checked, by the picker's one rule (`/v1/choose` too): with none of the parameters its
    /// formats fill it is refused naming them (it printed `twitter://user`, status 0), and a key the type does not
    /// take is refused naming it and the known keys (it was ignored).
    @Test(arguments: [
        (
            ["--type", "twitter", "--action", "show_profile"],
            #"error: action "show_profile" of app type "twitter" needs the parameter profile_screenname; pass --param KEY=VALUE (--list-actions lists what each action needs) [E_MISSING_PARAMETER]"#
        ),
        (
            ["--type", "twitter", "--action", "show_profile", "--param", "profile_screenname="],
            #"error: action "show_profile" of app type "twitter" needs the parameter profile_screenname; pass --param KEY=VALUE (--list-actions lists what each action needs) [E_MISSING_PARAMETER]"#
        ),
        (
            ["--type", "maps", "--action", "directions"],
            #"error: action "directions" of app type "maps" needs one of the parameters from, to; pass --param KEY=VALUE (--list-actions lists what each action needs) [E_MISSING_PARAMETER]"#
        ),
        (
            [
                "--type", "twitter", "--action", "show_profile", "--param", "profile_screenname=jack", "--param",
                "nope=1",
            ],
            #"error: app type "twitter" has no parameter "nope" (known: profile_screenname, text, status_id) [E_UNKNOWN_PARAMETER]"#
        ),
        (
            ["--type", "twitter", "--action", "show_profile", "--param", "profile_screennam=jack"],
            #"error: app type "twitter" has no parameter "profile_screennam" (did you mean "profile_screenname"? known: profile_screenname, text, status_id) [E_UNKNOWN_PARAMETER]"#
        ),
    ])
    func parametersAreCheckedByName(arguments: [String], error: String) async throws {
        let directory = try TemporaryDirectory()
        let output = await InProcessCommand.run(
            ["choose", "--choices", directory.url.appendingPathComponent("c.sqlite").path] + arguments
        )
        #expect(output.status == 2, "\(output.stdout)")
        #expect(output.stderrLines == [error])
        #expect(output.stdout.isEmpty)
    }

    /// `--list-actions` lists a type's actions with the parameters each fills, its parameters and its apps; `--json`
    /// writes what `/v1/app-types` answers (one `AppTypeList`).
    @Test func listsATypesActionsAndParameters() async throws {
        let text = await InProcessCommand.run(["choose", "--type", "twitter", "--list-actions"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "twitter (Twitter)")
        #expect(lines.contains("    show_profile  Show an account; --param profile_screenname=…"))
        #expect(lines.contains("    profile_screenname  Account name"))
        let json = await InProcessCommand.run(["choose", "--list-actions", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let types = try #require(object["types"] as? [[String: Any]])
        #expect(types.compactMap { $0["key"] as? String } == ["browser", "email", "maps", "twitter"])
        let maps = try #require(types.first { $0["key"] as? String == "maps" })
        let actions = try #require(maps["actions"] as? [[String: Any]])
        #expect(actions.first { $0["key"] as? String == "directions" }?["parameters"] as? [String] == ["from", "to"])
        let unknown = await InProcessCommand.run(["choose", "--type", "fax", "--list-actions"])
        #expect(unknown.status == 2)
        #expect(unknown.stderrLines.first?.hasPrefix(#"error: no app type "fax" (known: browser, email"#) == true)
    }
}
