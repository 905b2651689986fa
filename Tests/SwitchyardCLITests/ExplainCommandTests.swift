import Foundation
import LinkMatching
import SwitchyardTestSupport
import Testing

/// `switchyard explain` in process: the same resolution as `resolve`, with its trace, short links unwrapped over
/// HTTP (a server on 127.0.0.1 plays the link shortener).
@Suite struct ExplainCommandTests {
    /// One action for the final page the short link leads to; no browsers, so every opening is that action's.
    static func manifest(port: Int) -> String {
        """
        {"apps": [{"identifier": "app", "name": "App", "scheme": "app"}],
         "actions": [{"title": "Final Page", "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/final/(\\\\w+)$",
                      "formats": [{"appId": "app", "format": "app://final/$1"}]}]}
        """
    }

    /// `/short` → `/hop` → `/final/done`, and `/loop` → `/loop/back` → `/loop`.
    static func startShortener() async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/short": .redirect(to: "/hop", status: 301)
            case "/hop": .redirect(to: "/final/done", status: 302)
            case "/final/done": .text("final")
            case "/loop": .redirect(to: "/loop/back", status: 302)
            case "/loop/back": .redirect(to: "/loop", status: 302)
            default: .text("not found", status: 404)
            }
        }
    }

    static func resolution(_ output: CommandOutcome) throws -> Resolution {
        try JSONDecoder().decode(Resolution.self, from: Data(output.stdout.utf8))
    }

    @Test func explainAndResolveGiveTheSameOpeningsForAShortLink() async throws {
        let server = try await Self.startShortener()
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.manifest(port: server.port), named: "rules.json")
        let common = ["--json", "--manifest", path, "--allow-private-addresses", server.url("/short")]
        let resolved = await InProcessCommand.run(["resolve"] + common)
        let explained = await InProcessCommand.run(["explain"] + common)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(explained.status == 0, "\(explained.stderr)")
        let resolution = try Self.resolution(resolved)
        let explanation = try Self.resolution(explained)
        // Unwrapped over HTTP by both: the openings are the final page's.
        #expect(resolution.unwrapped == server.url("/final/done"))
        #expect(resolution.openings.map(\.url) == ["app://final/done"])
        #expect(explanation.openings == resolution.openings)
        #expect(explanation.unwrapped == resolution.unwrapped)
        #expect(explanation.steps == resolution.steps)
        #expect(explanation.steps.map(\.kind) == [.httpRedirect, .httpRedirect])
        #expect(resolution.trace == nil)
        let trace = try #require(explanation.trace)
        #expect(trace.actions.map(\.verdict) == [.matched])
    }

    @Test func explainsAShortLinkInWords() async throws {
        let server = try await Self.startShortener()
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.manifest(port: server.port), named: "rules.json")
        let output = await InProcessCommand.run([
            "explain", "--manifest", path, "--allow-private-addresses", server.url("/short"),
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Input:     \(server.url("/short"))")
        #expect(lines.contains("http-redirect HEAD 301: \(server.url("/short")) → \(server.url("/hop"))"))
        #expect(lines.contains("http-redirect HEAD 302: \(server.url("/hop")) → \(server.url("/final/done"))"))
        #expect(lines.contains("Unwrapped: \(server.url("/final/done"))"))
        #expect(lines.contains("Prefilter: 1 of 1 action is a candidate"))
        #expect(lines.contains("  → app: app://final/done"))
        #expect(lines.last == "1 opening (0 browsers).")
    }

    /// A chain that stops (here a loop) is shown as far as it went, with the refused hop and its reason, by both
    /// `explain` and `resolve`.
    @Test(arguments: ["explain", "resolve"])
    func aLoopingShortLinkShowsTheRefusedHop(_ command: String) async throws {
        let server = try await Self.startShortener()
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.manifest(port: server.port), named: "rules.json")
        let output = await InProcessCommand.run([
            command, "--manifest", path, "--allow-private-addresses", server.url("/loop"),
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("http-redirect HEAD 302: \(server.url("/loop")) → \(server.url("/loop/back"))"))
        let refused = try #require(
            lines.first { $0.hasPrefix("http-redirect HEAD: \(server.url("/loop/back")) stays (") }
        )
        #expect(refused.contains("E_REDIRECT_LOOP"))
        #expect(lines.contains { $0.hasPrefix("Unwrapped:") && $0.hasSuffix(server.url("/loop/back")) })
        #expect(server.requests.map(\.path) == ["/loop", "/loop/back"])
    }

    @Test func offlineExplainDoesNotUnwrap() async throws {
        let server = try await Self.startShortener()
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.manifest(port: server.port), named: "rules.json")
        let output = await InProcessCommand.run([
            "explain", "--json", "--offline", "--manifest", path, server.url("/short"),
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let explanation = try Self.resolution(output)
        #expect(explanation.unwrapped == server.url("/short"))
        #expect(explanation.openings.isEmpty)
        #expect(server.requestCount == 0)
    }

    @Test func refusesABadLinkWithOneLineAndStatusTwo() async {
        let output = await InProcessCommand.run(["explain", "--offline", "not a url"])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderr.hasPrefix("error: "))
    }
}

/// `resolve` and `explain` are one resolution: every option that changes the answer is in both, and values are
/// checked the same way (the request's one decoder), naming the option at fault.
@Suite struct ResolutionOptionsTests {
    /// The long options a help text lists.
    static func options(_ help: String) -> Set<String> {
        Set(
            help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "|" }).compactMap { word in
                let word = word.drop { $0 == "[" || $0 == "(" }
                guard word.hasPrefix("--") else { return nil }
                return String(word.prefix { $0 == "-" || $0.isLetter || $0.isNumber })
            }
        )
    }

    @Test func explainTakesEveryOptionOfResolveThatChangesTheAnswer() async {
        let resolve = Self.options(await InProcessCommand.run(["resolve", "--help"]).stdout)
        let explain = Self.options(await InProcessCommand.run(["explain", "--help"]).stdout)
        // Output and input shapes only: a batch of lines, JSON instead of a table, only the first URL.
        let notAnswer: Set<String> = ["--batch", "--json", "--first", "--url-only"]
        #expect(resolve.isSuperset(of: ["--installed", "--platform", "--source-app", "--timeout", "--no-clean"]))
        #expect(resolve.subtracting(notAnswer).subtracting(explain).isEmpty, "\(resolve.subtracting(explain))")
    }

    @Test(arguments: [
        (
            ["resolve", "--offline", "--platform", "watch", "https://twitter.com/jack"],
            "The value 'watch' is invalid for '--platform <platform>'. Please provide one of 'phone' and 'pad'."
        ),
        (
            ["explain", "--offline", "--platform", "watch", "https://twitter.com/jack"],
            "The value 'watch' is invalid for '--platform <platform>'. Please provide one of 'phone' and 'pad'."
        ),
        (
            ["resolve", "--offline", "--timeout", "0", "https://twitter.com/jack"],
            #"--timeout takes seconds, at least 0.001 and at most 600, not "0""#
        ),
        (
            ["explain", "--offline", "--source-app", "two words", "https://twitter.com/jack"],
            "--source-app takes the bundle identifier"
        ),
        (["serve", "--timeout", "0"], #"--timeout takes seconds, at least 0.001 and at most 600, not "0""#),
        (["serve", "--timeout", "601"], #"--timeout takes seconds, at least 0.001 and at most 600, not "601""#),
    ])
    func aValueThatDoesNotFitNamesItsOption(arguments: [String], message: String) async {
        let output = await InProcessCommand.run(arguments)
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains("error: " + message), "\(output.stderr)")
    }

    @Test func explainListsOnlyTheInstalledApps() async throws {
        let output = await InProcessCommand.run([
            "explain", "--offline", "--json", "--installed", "twitter", "https://twitter.com/jack/status/20",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        )
        let openings = try #require(document["openings"] as? [[String: Any]])
        #expect(!openings.isEmpty)
        #expect(openings.allSatisfy { ($0["scheme"] as? String) == "twitter" })
    }

    @Test func serveTakesTheOneTimeLimitOption() async {
        let help = Self.options(await InProcessCommand.run(["serve", "--help"]).stdout)
        #expect(help.contains("--timeout"))
        #expect(!help.contains("--script-budget"))
    }
}
