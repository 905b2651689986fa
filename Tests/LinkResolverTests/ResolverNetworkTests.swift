import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// The resolver against a real HTTP server on 127.0.0.1: scripts that fetch, record and replay, the address
/// policy, short links, `headers` rules, and runaway scripts.
@Suite(.serialized) struct ResolverNetworkTests {
    /// A rule set whose rules point at the test server (its host is 127.0.0.1 with an ephemeral port).
    static func rules(port: Int) throws -> RuleSet {
        let manifest = """
            {"apps": [{"identifier": "app", "name": "App", "scheme": "app"}, {"identifier": "tumbl", "name": "Tumbl", "scheme": "tumbl"}],
             "actions": [
               {"title": "Open Item", "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/item/(\\\\d+)", "formats": [
                 {"appId": "app", "script2": "function process(url, done) { var data = jsonRequest(url.replace('/item/', '/api/')); var page = httpRequest(url.replace('/item/', '/page/')); done('app://item/' + data.id + '?title=' + encodeURIComponent(/<title>(.*)<\\\\/title>/.exec(page)[1])); }"}]},
               {"title": "Final Page", "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/final/(\\\\w+)$", "formats": [{"appId": "app", "format": "app://final/$1"}]},
               {"title": "Open Blog", "headers": true, "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/blog/.*\\\\n.*\\"X-Blog-Name\\":\\"(\\\\w+)\\".*$", "formats": [{"appId": "tumbl", "format": "tumbl://blog/$1"}]},
               {"title": "Spin", "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/spin", "formats": [{"appId": "app", "script2": "function process(u, c) { while (true) {} }"}]}
             ]}
            """
        return try RuleSet.load(manifest)
    }

    static func startServer() async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/api/7": return .text(#"{"id": "seven"}"#, headers: [.init("Content-Type", "application/json")])
            case "/page/7": return .text("<html><title>Lucky & Seven</title></html>")
            case "/short": return .redirect(to: "/hop", status: 301)
            case "/hop": return .redirect(to: "/final/done", status: 302)
            case "/final/done": return .text("final")
            case "/blog/post": return .text("blog", headers: [.init("X-Blog-Name", "karlsblog")])
            default: return .text("not found", status: 404)
            }
        }
    }

    static let loopback = NetworkPolicy(allowPrivateAddresses: true)
    static let noBrowsers = ResolveRequest(match: MatchOptions(includeBrowsers: false))

    @Test func scriptThatFetchesRenders() async throws {
        let server = try await Self.startServer()
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: Self.loopback)
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: ScriptEngine(fetcher: fetcher),
            fetcher: fetcher
        )
        let resolution = try await resolver.resolve(server.url("/item/7"), Self.noBrowsers)
        #expect(resolution.openings.first?.url == "app://item/seven?title=Lucky%20%26%20Seven")
    }

    @Test func recordThenReplayGivesTheSameResultWithTheServerStopped() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent(
            "switchyard-fixtures-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: fixtures) }
        let server = try await Self.startServer()
        let rules = try Self.rules(port: server.port)
        let link = server.url("/item/7")
        let recorder = RecordingFetcher(wrapping: LiveFetcher(policy: Self.loopback), directory: fixtures)
        let recorded = try await Resolver(rules: rules, engine: ScriptEngine(fetcher: recorder), fetcher: recorder)
            .resolve(link, Self.noBrowsers)
        await server.stop()
        let replayer = ReplayingFetcher(directory: fixtures)
        let replayed = try await Resolver(rules: rules, engine: ScriptEngine(fetcher: replayer), fetcher: replayer)
            .resolve(link, Self.noBrowsers)
        #expect(recorded.openings.first?.url == "app://item/seven?title=Lucky%20%26%20Seven")
        #expect(replayed.openings == recorded.openings)
        // Offline, the same script needs the network.
        let offline = try await Resolver(rules: rules, engine: ScriptEngine(fetcher: nil), fetcher: nil).resolve(
            link,
            Self.noBrowsers
        )
        #expect(offline.openings.first?.error?.code == "E_NEEDS_NETWORK")
    }

    @Test func privateAddressesAreRefusedByDefault() async throws {
        let server = try await Self.startServer()
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher()  // the standard policy
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: ScriptEngine(fetcher: fetcher),
            fetcher: fetcher
        )
        let resolution = try await resolver.resolve(server.url("/item/7"), Self.noBrowsers)
        let opening = try #require(resolution.openings.first)
        #expect(opening.url == nil)
        #expect(opening.error?.code == "E_SSRF_BLOCKED", "\(String(describing: opening.error))")
        #expect(server.requestCount == 0)
    }

    @Test func shortLinkRedirectingTwiceResolvesToTheFinalURLsOpenings() async throws {
        let server = try await Self.startServer()
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: Self.loopback)
        let resolver = Resolver(rules: try Self.rules(port: server.port), engine: nil, fetcher: fetcher)
        let resolution = try await resolver.resolve(server.url("/short"), Self.noBrowsers)
        #expect(resolution.unwrapped == server.url("/final/done"))
        #expect(resolution.steps.map(\.kind) == [.httpRedirect, .httpRedirect])
        #expect(resolution.openings.map(\.url) == ["app://final/done"])
    }

    /// Opener's own behaviour with the real v5 rules: the chain is followed one hop at a time, and once a hop lands
    /// on a link an action matches, no further request is made (the last URL is never fetched, so the answer does
    /// not depend on the public internet or on what twitter.com answers today).
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func shortLinkStopsAtTheFirstHopAnActionMatches() async throws {
        let server = try await LoopbackHTTPServer.redirecting([
            "/short/a": ("/short/b", 301), "/short/b": ("https://twitter.com/jack/status/20", 302),
        ])
        defer { Task { await server.stop() } }
        let rules = try RuleFixture.sharedRules("openerManifest-v5.json")
        let fetcher = LiveFetcher(policy: Self.loopback)
        let resolver = Resolver(rules: rules, engine: ScriptEngine(fetcher: nil), fetcher: fetcher)
        let resolution = try await resolver.resolve(server.url("/short/a"), Self.noBrowsers)
        let direct = try await Resolver(rules: rules, engine: ScriptEngine(fetcher: nil), fetcher: nil)
            .resolve("https://twitter.com/jack/status/20", Self.noBrowsers)

        #expect(resolution.unwrapped == "https://twitter.com/jack/status/20")
        #expect(resolution.steps.map(\.kind) == [.httpRedirect, .httpRedirect])
        #expect(resolution.steps.map(\.to) == [server.url("/short/b"), "https://twitter.com/jack/status/20"])
        #expect(resolution.steps.allSatisfy { $0.refused == nil })
        #expect(!direct.openings.isEmpty)
        #expect(resolution.openings == direct.openings)
        #expect(resolution.openings.contains { $0.app?.identifier.lowercased().contains("twitter") == true })
        #expect(server.requests.map(\.path) == ["/short/a", "/short/b"])
    }

    @Test func aRedirectLoopStopsAfterTwoRequests() async throws {
        let server = try await LoopbackHTTPServer.redirecting([
            "/loop/a": ("/loop/b", 302), "/loop/b": ("/loop/a", 302),
        ])
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: Self.loopback)
        let resolver = Resolver(rules: try Self.rules(port: server.port), engine: nil, fetcher: fetcher)
        let resolution = try await resolver.resolve(server.url("/loop/a"), Self.noBrowsers)

        #expect(server.requests.map(\.path) == ["/loop/a", "/loop/b"])
        #expect(resolution.unwrapped == server.url("/loop/b"))
        let last = try #require(resolution.steps.last)
        #expect(last.from == server.url("/loop/b"))
        #expect(last.to == nil)
        #expect(last.refused?.contains("E_REDIRECT_LOOP") == true, "\(String(describing: last.refused))")
    }

    /// A hop that fails keeps the chain so far: the last good link is resolved and the failure is a refused step.
    @Test(arguments: [("/broken/elsewhere", "E_CONNECTION_REFUSED"), ("/broken/location", "E_BAD_LOCATION")])
    func aFailedHopKeepsTheChainSoFar(path: String, code: String) async throws {
        let server = try await LoopbackHTTPServer.redirecting([
            "/broken/location": ("/final/kept", 301), "/final/kept": ("http://exa mple.com/", 302),
            // Port 9 (discard) has no listener here: the connection is refused.
            "/broken/elsewhere": ("http://127.0.0.1:9/final/kept", 301),
        ])
        defer { Task { await server.stop() } }
        // An action only for a link the chain never reaches, so every hop is tried.
        let rules = try RuleFixture.rules(
            actions:
                #"[{"title": "Kept", "regex": "^http://127\\.0\\.0\\.1:\\d+/never/(\\w+)$", "formats": [{"appId": "alpha", "format": "alpha://$1"}]}]"#
        )
        let fetcher = LiveFetcher(policy: Self.loopback)
        let resolver = Resolver(rules: rules, engine: nil, fetcher: fetcher)
        let resolution = try await resolver.resolve(server.url(path), Self.noBrowsers)

        let first = try #require(resolution.steps.first)
        #expect(first.refused == nil)
        #expect(first.kind == .httpRedirect)
        let failed = try #require(resolution.steps.last)
        #expect(resolution.steps.count == 2)
        #expect(failed.to == nil)
        #expect(failed.refused?.contains(code) == true, "\(String(describing: failed.refused))")
        #expect(resolution.unwrapped == first.to)
    }

    @Test func headersActionMatchesOnServedHeaders() async throws {
        let server = try await Self.startServer()
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: Self.loopback)
        let resolver = Resolver(rules: try Self.rules(port: server.port), engine: nil, fetcher: fetcher)
        let resolution = try await resolver.resolve(server.url("/blog/post"), Self.noBrowsers)
        #expect(resolution.openings.map(\.url) == ["tumbl://blog/karlsblog"])
        // No HEAD request is made for links no headers rule could match.
        let before = server.requests.filter { $0.method == "HEAD" }.count
        _ = try await resolver.resolve(server.url("/final/done"), Self.noBrowsers)
        #expect(server.requests.filter { $0.method == "HEAD" }.count == before)
    }

    @Test func runawayScriptTimesOutAndTheNextResolutionWorks() async throws {
        let rules = try Self.rules(port: 9)
        let resolver = Resolver(rules: rules, engine: ScriptEngine(fetcher: nil), fetcher: nil)
        let clock = ContinuousClock()
        let start = clock.now
        let spun = try await resolver.resolve(
            "http://127.0.0.1:9/spin",
            ResolveRequest(match: MatchOptions(includeBrowsers: false), timeLimit: .milliseconds(500))
        )
        #expect(clock.now - start < .milliseconds(500) + .seconds(1))
        #expect(spun.openings.first?.error?.code == "E_SCRIPT_TIMEOUT")
        let next = try await resolver.resolve("http://127.0.0.1:9/final/abc", Self.noBrowsers)
        #expect(next.openings.map(\.url) == ["app://final/abc"])
    }
}
