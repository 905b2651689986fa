import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkWrappers
import SwitchyardTestSupport
import Testing
import WebLinks

/// Pages that redirect themselves (a `Refresh` header, `<meta http-equiv="refresh">`), followed through the one
/// redirect layer with every limit a 3xx hop has: a chain of 3xx and refreshes is unwrapped, a page is read only when
/// the request asks or its host is a bounce host, and a long delay or a refresh to the page itself is not a redirect.
@Suite struct ClientRedirectTests {
    static let policy = NetworkPolicy(allowPrivateAddresses: true)

    /// `/a` 301 → `/b`, a page whose meta refresh goes to `/c`, 302 → `/d`, the page itself (which has an action).
    static func chain() async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/a": .redirect(to: "/b", status: 301)
            case "/b":
                .text(
                    #"<!doctype html><title>Leaving</title><!-- <meta http-equiv="refresh" content="0;url=/trap"> -->"#
                        + #"<script>var x = '<meta http-equiv="refresh" content="0;url=/trap">';</script>"#
                        + #"<meta HTTP-EQUIV="Refresh" content="0; URL='c?from=&quot;b&quot;'"><p>You are leaving</p>"#,
                    headers: [.init("Content-Type", "text/html; charset=utf-8")]
                )
            case "/c": .redirect(to: "/d", status: 302)
            case "/header": .text("soon", headers: [.init("Refresh", "1;url=/d")])
            case "/slow-header": .text("later", headers: [.init("Refresh", "30;url=/d")])
            case "/reload": .text("again", headers: [.init("Refresh", "0")])
            default: .text("the page \(request.uri)")
            }
        }
    }

    static func rules(port: Int) throws -> RuleSet {
        try RuleFixture.rules(
            actions:
                #"[{"title": "D", "regex": "^http://127\\.0\\.0\\.1:\#(port)/d$", "formats": [{"appId": "alpha", "format": "alpha://d"}]}]"#
        )
    }

    static func request(followsPages: Bool?) -> ResolveRequest {
        var request = ResolveRequest(match: MatchOptions(includeBrowsers: false))
        request.followsPages = followsPages
        return request
    }

    @Test func aChainOfRedirectsAndAMetaRefreshIsUnwrapped() async throws {
        let server = try await Self.chain()
        defer { Task { await server.stop() } }
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: nil,
            fetcher: LiveFetcher(policy: Self.policy)
        )
        let resolution = try await resolver.resolve(server.url("/a"), Self.request(followsPages: true))
        try #require(
            resolution.steps.map(\.kind) == [.httpRedirect, .metaRefresh, .httpRedirect],
            "\(resolution.steps)"
        )
        #expect(resolution.steps[1].rule == "GET 200, 0 s")
        #expect(resolution.steps[1].to == server.url("/c?from=%22b%22"), "character references decoded, resolved")
        #expect(resolution.unwrapped == server.url("/d"))
        #expect(resolution.openings.map(\.url) == ["alpha://d"])
        #expect(!server.requests.contains { $0.path == "/trap" }, "a refresh in a comment or a script is not markup")
    }

    @Test func aPageIsNotReadWhenNeitherTheRequestNorTheCatalogAsks() async throws {
        let server = try await Self.chain()
        defer { Task { await server.stop() } }
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: nil,
            fetcher: LiveFetcher(policy: Self.policy)
        )
        let resolution = try await resolver.resolve(server.url("/a"), Self.request(followsPages: nil))
        #expect(resolution.steps.map(\.kind) == [.httpRedirect])
        #expect(resolution.unwrapped == server.url("/b"))
        #expect(server.requests.map(\.method) == ["HEAD", "HEAD"], "no GET for a host outside the policy")
    }

    @Test func aRefreshHeaderComesWithTheHeadAndIsFollowedWithinItsDelay() async throws {
        let server = try await Self.chain()
        defer { Task { await server.stop() } }
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: nil,
            fetcher: LiveFetcher(policy: Self.policy)
        )
        let followed = try await resolver.resolve(server.url("/header"), Self.request(followsPages: nil))
        #expect(followed.steps.map(\.kind) == [.refreshHeader])
        #expect(followed.steps.first?.rule == "HEAD 200, 1 s")
        #expect(followed.unwrapped == server.url("/d"))
        let slow = try await resolver.resolve(server.url("/slow-header"), Self.request(followsPages: nil))
        #expect(slow.steps.isEmpty, "a page that waits 30 s refreshes itself: not a bounce")
        var patient = Self.request(followsPages: nil)
        patient.maximumRefreshDelay = 60
        let allowed = try await resolver.resolve(server.url("/slow-header"), patient)
        #expect(allowed.unwrapped == server.url("/d"))
        let reload = try await resolver.resolve(server.url("/reload"), Self.request(followsPages: nil))
        #expect(reload.steps.isEmpty, "a refresh to the page itself is a reload")
        #expect(server.requests.allSatisfy { $0.method == "HEAD" })
    }

    @Test func aMetaRefreshHopHasTheLimitsOfA3xxHop() async throws {
        // Two pages that send each other back: a loop, said at the first repeated link.
        let server = try await LoopbackHTTPServer.start { request in
            let other = request.path == "/p" ? "/q" : "/p"
            return .text(
                "<meta http-equiv=refresh content=\"0;url=\(other)\">",
                headers: [.init("Content-Type", "text/html")]
            )
        }
        defer { Task { await server.stop() } }
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: nil,
            fetcher: LiveFetcher(policy: Self.policy)
        )
        let resolution = try await resolver.resolve(server.url("/p"), Self.request(followsPages: true))
        #expect(resolution.steps.map(\.kind) == [.metaRefresh, .httpRedirect])
        #expect(resolution.steps.last?.refused?.contains("E_REDIRECT_LOOP") == true, "\(resolution.steps)")
        // A refresh to a link the policy refuses is refused as a 3xx's Location would be.
        let blocked = try await LoopbackHTTPServer.start { _ in
            .text(
                "<meta http-equiv=refresh content=\"0;url=http://169.254.169.254/latest\">",
                headers: [.init("Content-Type", "text/html")]
            )
        }
        defer { Task { await blocked.stop() } }
        let policy = NetworkPolicy(allowedAddresses: [.v4(127, 0, 0, 1)], allowedPorts: [80, blocked.port])
        let strict = Resolver(
            rules: try Self.rules(port: blocked.port),
            engine: nil,
            fetcher: LiveFetcher(policy: policy)
        )
        let refused = try await strict.resolve(blocked.url("/"), Self.request(followsPages: true))
        #expect(refused.steps.last?.refused?.contains("E_SSRF_BLOCKED") == true, "\(refused.steps)")
    }

    @Test func theCatalogNamesBouncePagesWhoseLinkOnlyTheirPageKnows() throws {
        let rules = try RuleFixture.rules()
        #expect(rules.wrappers.isBouncePage(try Link("https://href.li/?https://example.com/")))
        #expect(rules.wrappers.isBouncePage(try Link("https://lnkd.in/abc")))
        #expect(!rules.wrappers.isBouncePage(try Link("https://example.com/")))
    }
}
