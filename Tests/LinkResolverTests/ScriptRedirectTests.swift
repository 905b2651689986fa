import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import SwitchyardTestSupport
import Testing
import WebLinks

/// A script's request that redirects to a second host goes through the fetching stack's one redirect layer: every
/// hop is a request of its own, cached, counted against its own host, and a host that fails is remembered for the
/// next resolution.
@Suite struct ScriptRedirectTests {
    static let loopback = NetworkPolicy(allowPrivateAddresses: true)

    /// An action whose script asks `subrequest` and opens `alpha://ID/LINK-ID`.
    static func rules(subrequest: String) throws -> RuleSet {
        try RuleFixture.rules(
            actions: #"""
                [{"title": "Item", "regex": "^https://item\\.example/(\\d+)$",
                  "formats": [{"appId": "alpha", "script2": "function process(url, done) { var data = jsonRequest('\#(subrequest)'); done('alpha://' + data.id + '/' + url.split('/').pop()); }"}]}]
                """#,
            scriptChecker: JavaScriptChecker()
        )
    }

    static let request = ResolveRequest(match: MatchOptions(includeBrowsers: false))

    func resolver(_ rules: RuleSet, _ stack: FetchingStack) -> Resolver {
        Resolver(rules: rules, engine: ScriptEngine(fetcher: stack), fetcher: stack)
    }

    @Test func everyHopIsCachedSoTheNextResolutionSendsNothing() async throws {
        let api = try await LoopbackHTTPServer.start { _ in
            .text(#"{"id": "42"}"#, headers: [.init("Cache-Control", "max-age=300")])
        }
        defer { Task { await api.stop() } }
        // A second host: the API's own address by another name, so its hop is counted against its own host.
        let short = try await LoopbackHTTPServer.start { _ in
            LoopbackHTTPServer.Response(
                status: 301,
                headers: [.init("Location", "http://localhost:\(api.port)/api"), .init("Cache-Control", "max-age=300")]
            )
        }
        defer { Task { await short.stop() } }
        let stack = FetchingStack(upstream: LiveFetcher(policy: Self.loopback))
        let resolver = resolver(try Self.rules(subrequest: short.url("/s")), stack)
        let first = try await resolver.resolve("https://item.example/1", Self.request)
        let second = try await resolver.resolve("https://item.example/2", Self.request)
        #expect(first.openings.first?.url == "alpha://42/1", "\(first.openings.first?.error?.message ?? "")")
        #expect(second.openings.first?.url == "alpha://42/2")
        #expect(short.requestCount == 1, "the redirect hop was kept")
        #expect(api.requestCount == 1, "the second host's answer was kept")
        #expect(api.requests.first?.header("Host") == "localhost:\(api.port)")
    }

    @Test func aSecondHostThatFailsIsRememberedForTheNextResolution() async throws {
        let gone = try await LoopbackHTTPServer.start { _ in .text("unused") }
        let gonePort = gone.port
        await gone.stop()
        let short = try await LoopbackHTTPServer.start { _ in
            LoopbackHTTPServer.Response(
                status: 301,
                headers: [.init("Location", "http://localhost:\(gonePort)/api"), .init("Cache-Control", "max-age=300")]
            )
        }
        defer { Task { await short.stop() } }
        let stack = FetchingStack(upstream: LiveFetcher(policy: Self.loopback))
        let resolver = resolver(try Self.rules(subrequest: short.url("/s")), stack)
        let first = try await resolver.resolve("https://item.example/1", Self.request)
        let second = try await resolver.resolve("https://item.example/2", Self.request)
        let refused = try Link("http://localhost:\(gonePort)/api")
        #expect(first.openings.first?.error?.message.contains("E_CONNECTION_REFUSED") == true, "\(first.openings)")
        #expect(stack.isDown(for: FetchRequest(url: refused)))
        #expect(second.openings.first?.error?.code == "E_HOST_DOWN", "\(second.openings)")
        #expect(short.requestCount == 1, "the first hop came from the cache the second time")
    }
}
