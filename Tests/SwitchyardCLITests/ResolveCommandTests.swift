import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard resolve` in process: the real v5 manifest, the table and the JSON document; one run of the built binary.
@Suite struct ResolveCommandTests {
    static let tweet = "https://twitter.com/zpower/status/588561590997352448"

    /// The apps the v5 manifest sends a tweet to, with the URL each gets.
    static let tweetApps: [(app: String, name: String, url: String)] = [
        ("twitter", "Twitter", "twitter://status?id=588561590997352448"),
        ("tweetbot", "Tweetbot", "tweetbot:///status/588561590997352448"),
        ("twitterrific", "Twitterrific", "twitterrific:///tweet?id=588561590997352448"),
        ("aviary", "Aviary", "aviary://twitter.com/statuses/588561590997352448"),
    ]

    static func manifestPath() throws -> String {
        try #require(SharedData.url("openerManifest-v5.json")).path
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func printsATableOfOpeningsForATweet() async throws {
        let output = await InProcessCommand.run([
            "resolve", "--no-scripts", "--offline", "--manifest", try Self.manifestPath(), Self.tweet,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let lines = output.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(lines.first == "Input: \(Self.tweet)")
        #expect(lines.contains("KIND APP ACTION URL"))
        for (_, name, url) in Self.tweetApps {
            #expect(lines.contains("action \(name) Open Tweet \(url)"), "no row for \(name)")
        }
        #expect(lines.contains("browser Chrome Chrome googlechromes://twitter.com/zpower/status/588561590997352448"))
        #expect(lines.contains("browser Safari Safari (script: run to get the URL)"))
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func rendersScriptOpeningsOfflineWhenTheyNeedNoNetwork() async throws {
        let output = await InProcessCommand.run([
            "resolve", "--json", "--offline", "--manifest", try Self.manifestPath(), Self.tweet,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let openings = try #require(document["openings"] as? [[String: Any]])
        let safari = try #require(openings.first { $0["app"] as? String == "safari" })
        #expect(safari["url"] as? String == Self.tweet)
        #expect(safari["needsScript"] as? Bool == false)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func printsTheDocumentedJSONShapeForATweet() async throws {
        let output = await InProcessCommand.run([
            "resolve", "--json", "--no-scripts", "--offline", "--manifest", try Self.manifestPath(), Self.tweet,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["input"] as? String == Self.tweet)
        #expect(document["unwrapped"] as? String == Self.tweet)
        let openings = try #require(document["openings"] as? [[String: Any]])
        for opening in openings {
            for key in ["kind", "title", "url", "needsScript"] {
                #expect(opening.keys.contains(key), "an opening lacks \(key): \(opening)")
            }
            #expect(["action", "browser", "preview"].contains(opening["kind"] as? String ?? ""))
        }
        let actions = openings.filter { $0["kind"] as? String == "action" }
        for (app, name, url) in Self.tweetApps {
            let opening = try #require(actions.first { $0["app"] as? String == app }, "no opening for \(app)")
            #expect(opening["appName"] as? String == name)
            #expect(opening["title"] as? String == "Open Tweet")
            #expect(opening["url"] as? String == url)
            #expect(opening["needsScript"] as? Bool == false)
        }
        // Manifest order: the first action's formats, in file order.
        #expect(actions.prefix(3).compactMap { $0["app"] as? String } == ["twitter", "tweetbot", "twitterrific"])
        let browsers = openings.filter { $0["kind"] as? String == "browser" }
        #expect(browsers.count == 44)
        let safari = try #require(browsers.first { $0["app"] as? String == "safari" })
        #expect(safari["url"] is NSNull)
        #expect(safari["needsScript"] as? Bool == true)
        let chrome = try #require(browsers.first { $0["app"] as? String == "chrome" })
        #expect(chrome["url"] as? String == "googlechromes://twitter.com/zpower/status/588561590997352448")
        // Browsers come after every action.
        let kinds = openings.compactMap { $0["kind"] as? String }
        #expect(kinds == kinds.sorted { ($0 == "action" ? 0 : 1) < ($1 == "action" ? 0 : 1) })
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func filtersByInstalledSchemes() async throws {
        let output = await InProcessCommand.run([
            "resolve", "--json", "--installed", "tweetbot,googlechrome", "--manifest", try Self.manifestPath(),
            Self.tweet,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let openings = try #require(document["openings"] as? [[String: Any]])
        #expect(openings.compactMap { $0["app"] as? String } == ["tweetbot", "chrome"])
    }

    /// A name of `--installed` that no app or browser of the rules has as its scheme lists nothing: it is a warning
    /// naming it, with the scheme it probably means (the closest, or that of the app it is the identifier of); before,
    /// nothing was said. Known names (`tweetbot`, `googlechrome`) warn of nothing.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func warnsAboutAnInstalledNameNoAppHas() async throws {
        let output = await InProcessCommand.run([
            "resolve", "--offline", "--no-scripts", "--json", "--installed", "tweetbot,nosuchapp,tweetbott,chrome",
            "--manifest", try Self.manifestPath(), Self.tweet,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderrLines == [
                #"warning: --installed: no app of the rules has the scheme "chrome"; did you mean "googlechrome"?"#,
                #"warning: --installed: no app of the rules has the scheme "nosuchapp""#,
                #"warning: --installed: no app of the rules has the scheme "tweetbott"; did you mean "tweetbot"?"#,
            ]
        )
        let known = await InProcessCommand.run([
            "resolve", "--offline", "--no-scripts", "--installed", "tweetbot,googlechrome", "--manifest",
            try Self.manifestPath(), Self.tweet,
        ])
        #expect(known.stderr.isEmpty, "\(known.stderr)")
    }

    /// The smoke test of the built binary: `main` prints the document on the real standard output and exits 0.
    @Test(arguments: CommandRunner.allCases)
    func resolvesWithTheBundledRulesWhenNoManifestIsGiven(_ runner: CommandRunner) async throws {
        let output = try await runner.run(["resolve", "--json", Self.tweet])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["input"] as? String == Self.tweet)
        #expect((document["openings"] as? [Any])?.isEmpty == false)
    }

    @Test(arguments: ["", "not a url", "https://a.example/\u{01}"])
    func refusesABadLinkWithOneLineAndStatusTwo(_ link: String) async throws {
        let output = await InProcessCommand.run(["resolve", link])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderr.hasPrefix("error: "))
    }

    @Test func resolvesABatchFileWithOneJSONLinePerLink() async throws {
        let directory = try TemporaryDirectory()
        let batch = try directory.write("\(Self.tweet)\n\n  \nnot a url\r\n\(Self.tweet)", named: "links.txt")
        let output = await InProcessCommand.run(["resolve", "--offline", "--no-scripts", "--batch", batch])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        // Every line has its result in its place, blank ones refused as empty; the batch goes on.
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        let documents = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(documents.map { $0["input"] as? String } == [Self.tweet, "", "  ", "not a url", Self.tweet])
        #expect(documents.map { $0["line"] as? Int } == [1, 2, 3, 4, 5])
        #expect((documents[0]["openings"] as? [Any])?.isEmpty == false)
        let error = try #require(documents[3]["error"] as? [String: Any])
        #expect((error["code"] as? String)?.isEmpty == false)
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(lines[4] == lines[0].replacingOccurrences(of: #""line":1"#, with: #""line":5"#))
    }

    @Test func refusesABatchFileThatCannotBeRead() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("absent.txt").path
        let output = await InProcessCommand.run(["resolve", "--offline", "--batch", path])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines == ["\(path): error: the batch input does not exist"])
    }

    /// `--platform` goes through LinkRules' one platform parser, which takes any case and drops apps limited to the
    /// other device family.
    @Test(arguments: [("pad", ["padapp", "both"]), ("PAD", ["padapp", "both"]), ("Phone", ["phoneapp", "both"])])
    func readsThePlatformThroughTheSharedParser(_ platform: String, apps: [String]) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            #"""
            {"apps": [{"identifier": "phoneapp", "name": "P", "scheme": "p", "platform": "phone"},
                      {"identifier": "padapp", "name": "T", "scheme": "t", "platform": "pad"},
                      {"identifier": "both", "name": "B", "scheme": "b"}],
             "actions": [{"regex": "https://x\\.example/(\\w+)", "formats": [
               {"appId": "phoneapp", "format": "p://$1"}, {"appId": "padapp", "format": "t://$1"},
               {"appId": "both", "format": "b://$1"}]}]}
            """#,
            named: "rules.json"
        )
        let output = await InProcessCommand.run([
            "resolve", "--json", "--offline", "--manifest", path, "--platform", platform, "https://x.example/a",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let openings = try #require(document["openings"] as? [[String: Any]])
        #expect(openings.compactMap { $0["app"] as? String } == apps)
    }

    @Test func refusesAnUnknownPlatformAsAUsageErrorWithStatusTwo() async {
        let output = await InProcessCommand.run(["resolve", "--offline", "--platform", "tablet", Self.tweet])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.first?.hasPrefix("error: ") == true, "\(output.stderr)")
        #expect(output.stderrLines.first?.contains("tablet") == true)
        #expect(output.stderrLines.contains { $0.hasPrefix("Usage: switchyard resolve ") })
    }
}
