import Foundation
import SwitchyardTestSupport
import Testing

/// Inputs that used to be ignored without a word (issue 35): each is now refused with a hint, or said in a notice.
@Suite struct SilentInputTests {
    static let usage = [
        "Usage: switchyard resolve [<options>] [<url>]", "  See 'switchyard resolve --help' for more information.",
    ]

    @Test func aLinkBesideBatchIsRefusedNotIgnored() async throws {
        let folder = try TemporaryFolder()
        let batch = try folder.write("https://twitter.com/jack\n", named: "links.txt")
        let output = await InProcessCommand.run(["resolve", "--offline", "--batch", batch, "https://x.com/"])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(
            output.stderrLines == [
                #"error: give a link or --batch FILE, not both: "https://x.com/" would be ignored (add it to the file)"#
            ] + Self.usage
        )
    }

    @Test func twoLinksHintAtBatch() async throws {
        let output = await InProcessCommand.run(["resolve", "https://a.example/", "https://b.example/"])
        #expect(output.status == 2)
        #expect(
            output.stderrLines == [
                #"error: resolve takes one link, and "https://b.example/" is another: for several, put them in a file, one per line, and pass --batch FILE (or --batch - to read them from standard input)"#
            ] + Self.usage
        )
    }

    @Test func noLinkPrintsTheUsageLine() async throws {
        let output = await InProcessCommand.run(["resolve"])
        #expect(output.status == 2)
        #expect(output.stderrLines == ["error: give a link to resolve, or --batch FILE"] + Self.usage)
    }

    /// `minify` refuses what `resolve` refuses, with the located errors `lint` gives for the same entries, and writes
    /// nothing; `migrate` likewise.
    @Test(arguments: [["minify", "MANIFEST", "-o", "OUT"], ["migrate", "MANIFEST", "--to", "v3", "-o", "OUT"]])
    func aRewriteOfAManifestWithErrorsIsRefused(_ arguments: [String]) async throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(ToolingCommandTests.broken, named: "rules.json")
        let out = folder.path("out.json")
        let output = await InProcessCommand.run(arguments.map { $0 == "MANIFEST" ? manifest : $0 == "OUT" ? out : $0 })
        #expect(output.status == 2)
        let lint = await InProcessCommand.run(["lint", manifest])
        let templateError = try #require(lint.stdout.split(separator: "\n").first { $0.contains("E_GROUP_REF") })
        // The lint line, without the clause on what a lenient load does with the entry.
        let refused = String(templateError).replacingOccurrences(of: "; this entry is ignored", with: "")
        #expect(
            output.stderrLines == [
                refused,
                "\(manifest): error: the manifest is refused, so none of its rules are used: 1 entry has an error (--lenient uses the rest of the rules)",
            ]
        )
        #expect(folder.names == ["rules.json"])
    }

    @Test func minifyWritesToStandardOutputAsMigrateDoes() async throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(
            ToolingCommandTests.broken.replacingOccurrences(of: "a://$2", with: "a://$1"),
            named: "rules.json"
        )
        let minified = await InProcessCommand.run(["minify", manifest, "--no-verify"])
        #expect(minified.status == 0, "\(minified.stderr)")
        #expect(minified.stdout.hasPrefix("{") && minified.stdout.contains(#""a://$1""#))
        let migrated = await InProcessCommand.run(["migrate", manifest, "--to", "v3", "--no-verify"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.hasPrefix("{"))
        // Nothing beside the input.
        #expect(folder.names == ["rules.json"])
    }

    /// `claims --aasa` on a file `lint --aasa` calls an error: the same line, status 2, not "no app".
    @Test func anAASAFileLintCallsAnErrorIsRefused() async throws {
        let folder = try TemporaryFolder()
        let aasa = try folder.write(#"[{"applinks": {}}]"#, named: "aasa.json")
        let lint = await InProcessCommand.run(["lint", "--aasa", aasa])
        #expect(lint.status == 1)
        let error = try #require(lint.stdout.split(separator: "\n").first.map(String.init))
        #expect(
            error == "\(aasa):1:1: error: the file is an array, not an object: it claims nothing [E_NOT_AN_OBJECT at /]"
        )
        let claims = await InProcessCommand.run(["claims", "https://example.com/buy/1", "--aasa", aasa])
        #expect(claims.status == 2)
        #expect(claims.stdout.isEmpty)
        #expect(claims.stderrLines == [error])
    }

    @Test func offlineAShortLinkIsNotFollowedAndThatIsSaid() async throws {
        let output = await InProcessCommand.run(["resolve", "--offline", "--json", "https://bit.ly/3xyz"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let notices = try #require(document["notices"] as? [[String: String]])
        #expect(
            notices == [
                [
                    "code": "E_OFFLINE",
                    "message":
                        "offline, the server of https://bit.ly/3xyz was not asked where the link leads: if it is a short link, it is not followed",
                ]
            ]
        )
        #expect(output.stderrLines == ["warning: \(notices[0]["message"] ?? "") [E_OFFLINE]"])
        // A link an action opens needs no answer from its server: nothing to say.
        let opened = await InProcessCommand.run(["resolve", "--offline", "--json", "https://twitter.com/jack"])
        #expect(opened.stderr.isEmpty)
    }

    @Test func offlineTheClaimsAreNotReadAndThatIsSaid() async throws {
        let output = await InProcessCommand.run(["resolve", "--offline", "--claims", "https://twitter.com/jack"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderrLines == [
                "warning: offline, the claims of twitter.com (apple-app-site-association, assetlinks.json) were not read [E_OFFLINE]"
            ]
        )
    }

    /// `choose --type browser --set-default chrome` is the default browser `resolve` marks, as a remembered site's app.
    @Test func theRememberedDefaultBrowserIsMarkedByResolve() async throws {
        let folder = try TemporaryFolder()
        let environment = ["XDG_DATA_HOME": folder.path("data"), "HOME": folder.url.path]
        let set = await InProcessCommand.run(
            ["choose", "--type", "browser", "--set-default", "chrome"],
            environment: environment
        )
        #expect(set.status == 0, "\(set.stderr)")
        let json = await InProcessCommand.run(
            ["resolve", "--offline", "--json", "https://example.org/"],
            environment: environment
        )
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let openings = try #require(document["openings"] as? [[String: Any]])
        let marked = openings.filter { $0["preferred"] != nil }
        #expect(marked.compactMap { $0["app"] as? String } == ["chrome"])
        #expect(marked.first?["preferred"] as? [String: String] == ["by": "remembered-default", "reason": "browser"])
        let table = await InProcessCommand.run(
            ["resolve", "--offline", "https://example.org/"],
            environment: environment
        )
        #expect(table.stdout.contains("* preferred: remembered-default browser"))
        #expect(table.stdout.split(separator: "\n").contains { $0.hasPrefix("*") && $0.contains("Chrome") })
        let first = await InProcessCommand.run(
            ["resolve", "--offline", "--first", "https://example.org/"],
            environment: environment
        )
        #expect(first.stdout == "googlechromes://example.org/\n")
        // Not installed: nothing marked, and a notice says so.
        let without = await InProcessCommand.run(
            ["resolve", "--offline", "--json", "--installed", "https,firefox", "https://example.org/"],
            environment: environment
        )
        let other = try #require(try JSONSerialization.jsonObject(with: Data(without.stdout.utf8)) as? [String: Any])
        #expect((other["openings"] as? [[String: Any]])?.contains { $0["preferred"] != nil } == false)
        #expect(
            (other["notices"] as? [[String: String]])?.contains {
                $0["code"] == "E_REMEMBERED_APP_UNAVAILABLE"
                    && $0["message"]
                        == #"the default browser "chrome" (choose --type browser --set-default) is not installed"#
            } == true
        )
    }

    /// `--first` (`--url-only`): the URL of the first opening, for scripts; an action before the browsers.
    @Test func firstPrintsTheURLOfTheFirstOpening() async throws {
        for flag in ["--first", "--url-only"] {
            let output = await InProcessCommand.run([
                "resolve", "--offline", flag, "https://twitter.com/jack/status/20",
            ])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout == "twitter://status?id=20\n")
        }
        let browserOnly = await InProcessCommand.run(["resolve", "--offline", "--first", "https://example.org/"])
        #expect(browserOnly.stdout == "https://example.org/\n")
        let none = await InProcessCommand.run([
            "resolve", "--offline", "--first", "--installed", "nothing", "https://example.org/",
        ])
        #expect(none.status == 1)
        #expect(none.stderrLines.last == "error: no opening of https://example.org/ has a URL")
        let withJSON = await InProcessCommand.run(["resolve", "--first", "--json", "https://example.org/"])
        #expect(withJSON.status == 2)
        #expect(withJSON.stderrLines.first == "error: --first prints one URL: it does not go with --json or --batch")
    }
}
