import Foundation
import SwitchyardTestSupport
import Testing

/// The classes of hostile and equivalent links (``LinkClassCases``) through `switchyard resolve`: refusals as one
/// line and status 2 (and an error object per line in a batch), one canonical link, refused decoding steps, no raw
/// invisible characters, and short links unwrapped hop by hop with the bundled rules.
@Suite struct LinkClassesOnTheCommandLineTests {
    static func document(_ output: CommandOutcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    static func openingURLs(_ document: [String: Any]) throws -> [String?] {
        try #require(document["openings"] as? [[String: Any]]).map { $0["url"] as? String }
    }

    /// One action whose script asks for `/count` three times.
    static func counting(port: Int) -> String {
        """
        {"apps": [{"identifier": "app", "name": "App", "scheme": "app"}],
         "actions": [{"title": "Count", "regex": "^http://127\\\\.0\\\\.0\\\\.1:\(port)/item$",
           "formats": [{"appId": "app", "script2": "function process(u, c) { for (var i = 0; i < 3; i++) httpRequest('http://127.0.0.1:\(port)/count'); c('app://counted'); }"}]}]}
        """
    }

    /// `--max-script-requests` bounds one script run's requests: the request past it throws, and the opening
    /// carries `E_TOO_MANY_SUBREQUESTS`; within it, the script runs as written. The same URL asked three times is one
    /// request on the network (identical requests of one resolution are made once), whatever the limit.
    @Test(arguments: [(2, "E_TOO_MANY_SUBREQUESTS"), (3, nil)])
    func scriptRequestsAreBounded(limit: Int, code: String?) async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("ok") }
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.counting(port: server.port), named: "rules.json")
        let output = await InProcessCommand.run([
            "resolve", "--json", "--manifest", path, "--allow-private-addresses", "--max-script-requests", "\(limit)",
            server.url("/item"),
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let opening = try #require(try Self.document(output)["openings"] as? [[String: Any]]).first
        #expect((opening?["error"] as? [String: Any])?["code"] as? String == code)
        #expect(opening?["url"] as? String == (code == nil ? "app://counted" : nil))
        #expect(server.requests.count == 1)
    }

    @Test func theScriptRequestLimitIsValidated() async {
        let output = await InProcessCommand.run(["resolve", "--max-script-requests", "100000", "https://a.example/"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--max-script-requests"))
    }

    @Test(arguments: LinkClassCases.refused)
    func refusedLinksExitTwoWithTheCode(link: String, code: String) async throws {
        let output = await InProcessCommand.run(["resolve", "--offline", link])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.count == 1, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("error: "))
        #expect(output.stderr.contains("[\(code)]"), "\(output.stderr)")
        // `explain` refuses it alike.
        let explained = await InProcessCommand.run(["explain", "--offline", link])
        #expect(explained.status == 2)
        #expect(explained.stderr.contains("[\(code)]"))
    }

    /// A link without its scheme is refused with the link it probably stands for (issue 30 item 9), by `resolve`,
    /// `explain` and a batch alike.
    @Test func aLinkWithoutItsSchemeGetsASuggestion() async throws {
        let line =
            "\"twitter.com/jack/status/20\" is not an absolute URL: it needs a scheme such as https; did you mean \"https://twitter.com/jack/status/20\"?"
        for command in ["resolve", "explain"] {
            let output = await InProcessCommand.run([command, "--offline", "twitter.com/jack/status/20"])
            #expect(output.status == 2)
            #expect(output.stdout.isEmpty)
            #expect(output.stderrLines == ["error: \(line) [E_NOT_ABSOLUTE]"])
        }
        let directory = try TemporaryDirectory()
        let batch = try directory.write("twitter.com/jack/status/20\n", named: "links.txt")
        let output = await InProcessCommand.run(["resolve", "--offline", "--batch", batch])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "E_NOT_ABSOLUTE")
        #expect(error["message"] as? String == line)
    }

    @Test func aBatchReportsEachRefusedLineAndGoesOn() async throws {
        let directory = try TemporaryDirectory()
        // Tabs and newlines cannot stand inside one line of a batch file: those cases are for single links.
        let cases = LinkClassCases.refused.filter { !$0.link.contains("\t") && !$0.link.contains("\n") }
        let batch = try directory.write(
            (cases.map(\.link) + ["https://twitter.com/jack"]).joined(separator: "\n"),
            named: "links.txt"
        )
        let output = await InProcessCommand.run(["resolve", "--offline", "--batch", batch])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == cases.count + 1)
        for (line, expected) in zip(lines, cases) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((object["error"] as? [String: Any])?["code"] as? String == expected.code, "\(line)")
        }
        #expect(lines.last?.contains("\"openings\"") == true)
    }

    @Test(arguments: LinkClassCases.equivalent)
    func spellingsOfOneLinkGetItsOpenings(variant: String, canonical: String) async throws {
        let expected = await InProcessCommand.run(["resolve", "--offline", "--json", canonical])
        let actual = await InProcessCommand.run(["resolve", "--offline", "--json", variant])
        #expect(expected.status == 0 && actual.status == 0, "\(actual.stderr)")
        let expectedDocument = try Self.document(expected)
        let actualDocument = try Self.document(actual)
        #expect(actualDocument["unwrapped"] as? String == canonical)
        #expect(try !Self.openingURLs(expectedDocument).isEmpty)
        #expect(try Self.openingURLs(actualDocument) == Self.openingURLs(expectedDocument))
    }

    @Test func aRedirectValueThatDoesNotDecodeIsShownAsRefused() async throws {
        let (link, reason) = LinkClassCases.undecodable
        let json = await InProcessCommand.run(["resolve", "--offline", "--json", link])
        #expect(json.status == 0, "\(json.stderr)")
        let document = try Self.document(json)
        #expect(document["unwrapped"] as? String == link)
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect((steps.first?["refused"] as? String)?.contains(reason) == true)
        // The table and `explain` say it in words.
        let table = await InProcessCommand.run(["resolve", "--offline", link])
        #expect(table.stdout.contains("stays (") && table.stdout.contains(reason), "\(table.stdout)")
        let explained = await InProcessCommand.run(["explain", "--offline", link])
        #expect(explained.stdout.contains("refused") && explained.stdout.contains(reason), "\(explained.stdout)")
    }

    /// The table and `explain` are for people: nothing in them is invisible, the input included. The JSON document
    /// echoes `input` exactly as given (a caller matches answers to questions by it); every URL in it is clean.
    @Test func noOutputCarriesRawInvisibleCharacters() async throws {
        for command in ["resolve", "explain"] {
            let output = await InProcessCommand.run([command, "--offline", LinkClassCases.spoofing])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("%E2%80%AE"))
            #expect(!LinkClassCases.hasInvisibleFormatCharacter(output.stdout), "\(output.stdout)")
        }
        let json = await InProcessCommand.run(["resolve", "--offline", "--json", LinkClassCases.spoofing])
        let document = try Self.document(json)
        #expect(document["input"] as? String == LinkClassCases.spoofing)
        let urls = try Self.openingURLs(document).compactMap { $0 } + [document["unwrapped"] as? String ?? ""]
        #expect(urls.count > 1)
        #expect(!urls.contains(where: LinkClassCases.hasInvisibleFormatCharacter), "\(urls)")
    }

    /// The acceptance case of the issue with the bundled rules: `/short/a` → 301 `/short/b` → 302 a tweet resolves to
    /// the tweet's openings, both hops shown, and the tweet itself is never fetched.
    @Test func aShortLinkIsUnwrappedHopByHopAndStopsAtTheFirstMatch() async throws {
        let tweet = "https://twitter.com/jack/status/20"
        let server = try await LoopbackHTTPServer.redirecting([
            "/short/a": ("/short/b", 301), "/short/b": (tweet, 302),
        ])
        defer { Task { await server.stop() } }
        let direct = try Self.document(await InProcessCommand.run(["resolve", "--offline", "--json", tweet]))
        let output = await InProcessCommand.run([
            "resolve", "--json", "--allow-private-addresses", server.url("/short/a"),
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try Self.document(output)
        #expect(document["unwrapped"] as? String == tweet)
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(steps.map { $0["to"] as? String } == [server.url("/short/b"), tweet])
        #expect(try Self.openingURLs(document) == Self.openingURLs(direct))
        #expect(try Self.openingURLs(document).contains { $0?.hasPrefix("twitter://") == true })
        #expect(server.requests.map(\.path) == ["/short/a", "/short/b"])

        let table = await InProcessCommand.run(["resolve", "--allow-private-addresses", server.url("/short/a")])
        #expect(table.stdout.contains("http-redirect HEAD 301: \(server.url("/short/a")) → \(server.url("/short/b"))"))
        #expect(table.stdout.contains("http-redirect HEAD 302: \(server.url("/short/b")) → \(tweet)"))
    }
}
