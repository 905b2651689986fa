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
        #expect(lines.contains("Prefilter: 1 of 1 actions are candidates"))
        #expect(lines.contains("  → app: app://final/done"))
        #expect(lines.last == "1 openings (0 browsers).")
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
