import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard choose --remember-site/--forget-site/--forget-all-sites/--sites`, and `resolve`, `resolve --batch` and
/// `explain` applying the remembered site from the same SQLite file, in process.
@Suite struct SiteChoiceCommandTests {
    /// A user's data folder (the default store lives there) and a manifest where Alpha and Beta open example.com.
    final class Setup {
        let directory: TemporaryDirectory
        let manifest: String
        var environment: [String: String] { ["XDG_DATA_HOME": directory.url.path, "HOME": directory.url.path] }
        var defaultStore: String { directory.url.appendingPathComponent("switchyard/choices.sqlite").path }

        init() throws {
            directory = try TemporaryDirectory()
            manifest = try directory.write(
                RuleFixture.text(
                    actions: #"""
                        [{"title": "Open", "regex": "^https://([a-z]+\\.)?example\\.com/", "formats": [
                          {"appId": "alpha", "format": "alpha://open"}, {"appId": "beta", "format": "beta://open"}]}]
                        """#
                ),
                named: "manifest.json"
            )
        }

        func run(_ arguments: [String]) async -> CommandOutcome {
            await InProcessCommand.run(arguments, environment: environment)
        }

        /// `choose ARGUMENTS` with this setup's manifest: the apps it remembers must be the rules'.
        func choose(_ arguments: [String]) async -> CommandOutcome {
            await run(["choose", "--manifest", manifest] + arguments)
        }

        func resolve(_ arguments: [String]) async -> CommandOutcome {
            await run(["resolve", "--offline", "--no-scripts", "--manifest", manifest] + arguments)
        }
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The apps of the openings marked preferred, and their `preferred` objects.
    static func preferred(_ document: [String: Any]) throws -> [String: [String: String]] {
        let openings = try #require(document["openings"] as? [[String: Any]])
        var marked: [String: [String: String]] = [:]
        for opening in openings {
            if let app = opening["app"] as? String, let preferred = opening["preferred"] as? [String: String] {
                marked[app] = preferred
            }
        }
        return marked
    }

    @Test func aRememberedSiteIsPreferredInJSONAndInTheTable() async throws {
        let setup = try Setup()
        let remember = await setup.choose([
            "--remember-site", "Example.com", "--app", "beta", "--include-subdomains", "--json",
        ])
        #expect(remember.status == 0, "\(remember.stderr)")
        let stored = try Self.object(remember.stdout)
        #expect(stored["site"] as? String == "example.com" && stored["scope"] as? String == "domain")
        #expect(FileManager.default.fileExists(atPath: setup.defaultStore))

        let json = await setup.resolve(["--json", "https://www.example.com/"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.isEmpty)
        #expect(
            try Self.preferred(try Self.object(json.stdout)) == [
                "beta": ["by": "remembered-site", "reason": "example.com"]
            ]
        )

        let table = await setup.resolve(["https://www.example.com/"])
        let lines = table.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("KIND APP ACTION URL"), "\(table.stdout)")
        #expect(lines.contains("* action Beta Open beta://open"), "\(table.stdout)")
        #expect(lines.contains("action Alpha Open alpha://open"), "\(table.stdout)")
        #expect(lines.last == "* preferred: remembered-site example.com")

        let explain = await setup.run([
            "explain", "--offline", "--no-scripts", "--manifest", setup.manifest, "https://www.example.com/",
        ])
        #expect(
            explain.stdout.contains("→ beta: beta://open (preferred: remembered-site example.com)"),
            "\(explain.stdout)"
        )
        #expect(explain.stdout.contains("→ alpha: alpha://open\n"))

        let batchFile = try setup.directory.write(
            "https://www.example.com/\nhttps://example.org/\n",
            named: "links.txt"
        )
        let batch = await setup.resolve(["--batch", batchFile])
        let results = try batch.stdout.split(separator: "\n").map { try Self.object(String($0)) }
        #expect(
            try results.map(Self.preferred) == [["beta": ["by": "remembered-site", "reason": "example.com"]], [:]]
        )
    }

    @Test func sitesAreListedAndForgottenOneByOne() async throws {
        let setup = try Setup()
        #expect(await setup.run(["choose", "--sites"]).stdout == "No site is remembered.\n")
        // Listing an empty store does not create it.
        #expect(!FileManager.default.fileExists(atPath: setup.defaultStore))
        for arguments in [
            ["--remember-site", "example.com", "--app", "alpha", "--include-subdomains"],
            ["--remember-site", "www.example.com", "--app", "beta"],
        ] {
            let output = await setup.choose(arguments)
            #expect(output.status == 0 && output.stdout.split(separator: "\n").count == 1, "\(output.stderr)")
        }
        let list = try Self.object(await setup.run(["choose", "--sites", "--json"]).stdout)
        let sites = try #require(list["sites"] as? [[String: Any]])
        #expect(sites.compactMap { $0["site"] as? String } == ["example.com", "www.example.com"])
        #expect(sites.compactMap { $0["app"] as? String } == ["alpha", "beta"])
        let table = await setup.run(["choose", "--sites"])
        let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(rows == ["SITE SUBDOMAINS APP", "example.com yes alpha", "www.example.com no beta"])

        #expect(
            try Self.preferred(try Self.object(await setup.resolve(["--json", "https://www.example.com/"]).stdout)).keys
                .sorted() == ["beta"]
        )
        let forget = await setup.run(["choose", "--forget-site", "WWW.example.com"])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(
            try Self.preferred(try Self.object(await setup.resolve(["--json", "https://www.example.com/"]).stdout)).keys
                .sorted() == ["alpha"]
        )
        let again = await setup.run(["choose", "--forget-site", "www.example.com"])
        #expect(again.status == 1)
        #expect(
            again.stderrLines == [
                "error: no app is remembered for www.example.com; it opens with alpha as part of example.com and its subdomains: forget example.com"
            ]
        )
        #expect(await setup.run(["choose", "--forget-all-sites"]).status == 0)
        #expect(await setup.run(["choose", "--sites"]).stdout == "No site is remembered.\n")
    }

    @Test func anAppThatIsNotInstalledIsAWarningAndANotice() async throws {
        let setup = try Setup()
        #expect(await setup.choose(["--remember-site", "example.com", "--app", "beta"]).status == 0)
        let table = await setup.resolve(["--installed", "alpha", "https://example.com/"])
        #expect(table.status == 0)
        #expect(
            table.stderrLines == [
                #"warning: the app "beta" remembered for example.com is not installed [E_REMEMBERED_APP_UNAVAILABLE]"#
            ]
        )
        #expect(!table.stdout.contains("*"))
        let json = await setup.resolve(["--json", "--installed", "alpha", "https://example.com/"])
        let document = try Self.object(json.stdout)
        #expect(try Self.preferred(document).isEmpty)
        let notices = try #require(document["notices"] as? [[String: String]])
        #expect(notices.map { $0["code"] } == ["E_REMEMBERED_APP_UNAVAILABLE"])
    }

    /// Resolving reads the store only when it is there; `--choices` names another file, which must exist.
    @Test func resolvingNeverCreatesTheStore() async throws {
        let setup = try Setup()
        let plain = await setup.resolve(["--json", "https://example.com/"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.defaultStore))
        let elsewhere = setup.directory.url.appendingPathComponent("elsewhere.sqlite").path
        let missing = await setup.resolve(["--choices", elsewhere, "https://example.com/"])
        #expect(missing.status == 2)
        #expect(missing.stderrLines.first?.hasPrefix("\(elsewhere): error: ") == true, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
        let remember = await setup.choose(["--choices", elsewhere, "--remember-site", "example.com", "--app", "alpha"])
        #expect(remember.status == 0, "\(remember.stderr)")
        let chosen = await setup.resolve(["--choices", elsewhere, "--json", "https://example.com/"])
        #expect(try Self.preferred(try Self.object(chosen.stdout)).keys.sorted() == ["alpha"])
    }

    @Test(arguments: [
        (
            ["--remember-site", "example.com"],
            "error: --remember-site needs --app ID, the manifest app to open the site with"
        ),
        (["--app", "alpha"], "error: --app, --include-subdomains and --manifest go with --remember-site HOST"),
        (
            ["--sites", "--forget-all-sites"],
            "error: give one of --remember-site, --forget-site, --forget-all-sites and --sites"
        ),
        (
            ["--sites", "--type", "maps"],
            "error: site choices (--remember-site, --forget-site, --forget-all-sites, --sites) take no --type, --action, --param, --set-default or --reset"
        ),
        (
            [],
            "error: --type is required (or manage site choices with --remember-site, --forget-site, --forget-all-sites or --sites)"
        ),
    ])
    func misusedSiteOptionsAreUsageErrors(arguments: [String], message: String) async throws {
        let setup = try Setup()
        let output = await setup.run(["choose"] + arguments)
        #expect(output.status == 2)
        #expect(output.stderrLines.first == message, "\(output.stderr)")
    }

    /// `serve --choices` opens the store before anything else: a folder there stops the command, in the tool's words.
    @Test func serveRefusesAChoicesStoreThatIsAFolder() async throws {
        let setup = try Setup()
        let output = await setup.run(["serve", "--port", "0", "--offline", "--choices", setup.directory.url.path])
        #expect(output.status == 2)
        #expect(output.stderrLines.first?.hasPrefix("\(setup.directory.url.path): error: ") == true, "\(output.stderr)")
    }

    @Test func aPublicSuffixOrALinkIsRefusedNamingIt() async throws {
        let setup = try Setup()
        let suffix = await setup.run(["choose", "--remember-site", "co.uk", "--app", "alpha", "--include-subdomains"])
        #expect(suffix.status == 2)
        #expect(suffix.stderrLines.count == 1)
        #expect(suffix.stderr.hasPrefix("error: co.uk is a public suffix: "), "\(suffix.stderr)")
        #expect(suffix.stderr.contains("[E_PUBLIC_SUFFIX]"))
        let link = await setup.run(["choose", "--remember-site", "https://example.com/", "--app", "alpha"])
        #expect(link.status == 2)
        #expect(link.stderr.contains(#""https://example.com/" is not a host name"#), "\(link.stderr)")
        // A refused site leaves no store behind.
        #expect(!FileManager.default.fileExists(atPath: setup.defaultStore))
    }

    /// The app must be one of the rules `resolve` uses (the bundled rules, or `--manifest`'s): the documented example's
    /// `tweetbot` is not in the bundled rules, and remembering it would only warn on every later resolution.
    @Test(
        arguments: [
            (["--remember-site", "twitter.com", "--app", "tweetbot", "--include-subdomains"], "tweetbot", nil),
            (["--remember-site", "example.com", "--app", "no-such-app"], "no-such-app", nil),
            (["--remember-site", "x.com", "--app", "X"], "X", "x"),
        ] as [([String], String, String?)]
    )
    func anAppTheRulesDoNotHaveIsRefusedByName(arguments: [String], app: String, suggestion: String?) async throws {
        let setup = try Setup()
        let output = await setup.run(["choose"] + arguments)
        #expect(output.status == 2)
        let hint =
            suggestion.map { "; did you mean \"\($0)\"?" }
            ?? " (name an opening's app, as resolve --json and GET /v1/apps list them)"
        #expect(output.stderrLines == ["error: the rules have no app \"\(app)\"\(hint) [E_UNKNOWN_APP]"])
        #expect(!FileManager.default.fileExists(atPath: setup.defaultStore))
    }

    /// Remembering, forgetting and setting a default each say what was done, in one line.
    @Test func successIsConfirmedInOneLine() async throws {
        let setup = try Setup()
        let bundled = await setup.run([
            "choose", "--remember-site", "twitter.com", "--app", "x", "--include-subdomains",
        ])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stdout == "remembered: twitter.com and its subdomains open with X (x)\n")
        let own = await setup.choose(["--remember-site", "www.example.com", "--app", "beta"])
        #expect(own.stdout == "remembered: www.example.com opens with Beta (beta)\n", "\(own.stderr)")
        let forget = await setup.run(["choose", "--forget-site", "www.example.com"])
        #expect(forget.stdout == "forgotten: www.example.com opened with beta\n", "\(forget.stderr)")
        let all = await setup.run(["choose", "--forget-all-sites"])
        #expect(all.stdout == "forgotten: 1 remembered site\n", "\(all.stderr)")
        let setDefault = await setup.run(["choose", "--type", "twitter", "--set-default", "twitter"])
        #expect(setDefault.stdout == "the default Twitter app is now X (twitter)\n", "\(setDefault.stderr)")
        let reset = await setup.run(["choose", "--type", "twitter", "--reset"])
        #expect(reset.stdout == "Twitter has no default app now: the picker shows\n", "\(reset.stderr)")
    }

    /// A choices store that cannot be opened is a warning: every resolution goes on without remembered choices, and
    /// `--no-choices` skips the store altogether.
    @Test func anUnreadableStoreIsAWarningAndTheResolutionGoesOn() async throws {
        let setup = try Setup()
        try FileManager.default.createDirectory(
            atPath: (setup.defaultStore as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: setup.defaultStore))
        let warning =
            "warning: the choices store \(setup.defaultStore) cannot be opened (the file is not a SQLite database), so no remembered choice is applied; --no-choices resolves without it [E_CHOICES_UNREADABLE]"
        let table = await setup.resolve(["https://example.com/"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("alpha://open"))
        #expect(table.stderrLines == [warning])
        let json = await setup.resolve(["--json", "https://example.com/"])
        let notices = try #require(try Self.object(json.stdout)["notices"] as? [[String: String]])
        #expect(notices.map { $0["code"] } == ["E_CHOICES_UNREADABLE"])
        let explain = await setup.run([
            "explain", "--offline", "--no-scripts", "--manifest", setup.manifest, "https://example.com/",
        ])
        #expect(explain.status == 0 && explain.stderrLines == [warning], "\(explain.stderr)")
        let skipped = await setup.resolve(["--no-choices", "--json", "https://example.com/"])
        #expect(skipped.status == 0 && skipped.stderr.isEmpty, "\(skipped.stderr)")
        #expect(try Self.object(skipped.stdout)["notices"] == nil)
        // A store named with --choices that is not a database is read the same way.
        let named = await setup.resolve(["--choices", setup.manifest, "https://example.com/"])
        #expect(named.status == 0)
        #expect(named.stderrLines.first?.contains("the choices store \(setup.manifest) cannot be opened") == true)
        let both = await setup.resolve(["--choices", setup.manifest, "--no-choices", "https://example.com/"])
        #expect(both.status == 2)
        #expect(both.stderrLines.first == "error: --choices and --no-choices cannot be used together")
    }
}
