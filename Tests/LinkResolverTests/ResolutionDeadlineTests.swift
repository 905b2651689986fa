import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// One resolution has one deadline: redirect rules, the HTTP hops of a short link and the scripts all spend the same
/// time limit, and no stage starts a clock of its own.
@Suite(.serialized) struct ResolutionDeadlineTests {
    /// A redirect rule that unwraps `/wrap?to=…`, and an action on `/final/…` whose script never ends.
    static func rules(port: Int) throws -> RuleSet {
        try RuleSet.load(
            """
            {"apps": [{"identifier": "app", "name": "App", "scheme": "app"}],
             "actions": [{"title": "Spin", "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/final/(\\\\w+)$",
                          "formats": [{"appId": "app", "script2": "function process(u, c) { while (true) {} }"},
                                      {"appId": "app", "format": "app://final/$1"}]}],
             "redirects": {"http://127\\\\.0\\\\.0\\\\.1:\(port)/wrap.*$": {"param": "to"}}}
            """
        )
    }

    /// `/short` answers a redirect to `/final/x` after `hopDelay`; `/slow` never answers in time.
    static func startServer(hopDelay: Duration) async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/short":
                var response = LoopbackHTTPServer.Response.redirect(to: "/final/x", status: 301)
                response.delay = hopDelay
                return response
            case "/slow":
                var response = LoopbackHTTPServer.Response.redirect(to: "/final/y", status: 301)
                response.delay = .seconds(5)
                return response
            default: return .text("page")
            }
        }
    }

    @Test func redirectsHopsAndScriptsShareOneDeadline() async throws {
        let server = try await Self.startServer(hopDelay: .milliseconds(600))
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true))
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: ScriptEngine(fetcher: fetcher),
            fetcher: fetcher
        )
        let wrapped =
            server.url("/wrap?to=") + server.url("/short").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let limit = Duration.seconds(1)
        let clock = ContinuousClock()
        let start = clock.now
        let resolution = try await resolver.resolve(
            wrapped,
            ResolveRequest(match: MatchOptions(includeBrowsers: false), timeLimit: limit)
        )
        let elapsed = clock.now - start
        // Every stage ran: the redirect rule, the slow HTTP hop, the match on the final URL, the script.
        #expect(resolution.steps.map(\.kind) == [.redirectRule, .httpRedirect])
        #expect(resolution.unwrapped == server.url("/final/x"))
        #expect(resolution.openings.map(\.url) == [nil, "app://final/x"])
        #expect(resolution.openings.first?.error?.code == "E_SCRIPT_TIMEOUT")
        // The script was stopped at the resolution's deadline, not a full limit after the 600 ms hop (1.6 s).
        #expect(elapsed >= .milliseconds(900), "\(elapsed)")
        #expect(elapsed < limit + .milliseconds(300), "the resolution took \(elapsed) with a limit of \(limit)")
    }

    @Test func anHTTPHopLongerThanTheLimitEndsTheUnwrappingAtTheDeadline() async throws {
        let server = try await Self.startServer(hopDelay: .zero)
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true))
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: ScriptEngine(fetcher: fetcher),
            fetcher: fetcher
        )
        let limit = Duration.milliseconds(700)
        let clock = ContinuousClock()
        let start = clock.now
        let resolution = try await resolver.resolve(
            server.url("/slow"),
            ResolveRequest(match: MatchOptions(includeBrowsers: false), timeLimit: limit)
        )
        let elapsed = clock.now - start
        #expect(resolution.unwrapped == server.url("/slow"))
        #expect(resolution.openings.isEmpty)
        // Well before the 5 s the host takes (the margin is for a loaded machine, not for the resolver).
        #expect(elapsed < limit + .seconds(2), "the resolution took \(elapsed) with a limit of \(limit)")
    }
}
