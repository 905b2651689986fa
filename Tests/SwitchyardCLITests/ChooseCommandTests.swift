import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard choose` in process: the installed apps that can perform an action, and the remembered default.
@Suite struct ChooseCommandTests {
    static func choose(_ arguments: [String], store: String) async -> CommandOutcome {
        await InProcessCommand.run(["choose", "--type", "maps", "--store", store] + arguments)
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
        #expect(set.stdout.isEmpty)
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
            "choose", "--catalog", catalog, "--store", directory.url.appendingPathComponent("c.sqlite").path,
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
            "choose", "--store", directory.url.appendingPathComponent("c.sqlite").path, "--type", "browser",
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
}
