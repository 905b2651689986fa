import HTTPTypes
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing
import WebLinks

@Suite struct RedirectFollowerTests {
    let fetcher = LiveFetcher(policy: testPolicy())

    @Test func resolvesAShortLinkRedirectingTwice() async throws {
        let server = try await Server.start { request in
            switch request.path {
            case "/s/abc": .redirect(to: "/long/intermediate", status: 301)
            case "/long/intermediate": .redirect(to: "/article?id=7", status: 302)
            default: .text("article")
            }
        }
        let follower = RedirectFollower(wrapping: fetcher)
        let resolution = try await follower.follow(Link(test: server.url("/s/abc")), deadline: .now + .seconds(30))
        await server.stop()
        #expect(resolution.final.text == server.url("/article?id=7"))
        #expect(
            resolution.links.map(\.text) == [
                server.url("/s/abc"), server.url("/long/intermediate"), server.url("/article?id=7"),
            ]
        )
        #expect(resolution.last.status == 200)
        #expect(server.requests.allSatisfy { $0.method == "HEAD" })
    }

    /// The stack keeps a host that refused a hop as down: a later hop to another link of the same host is not sent,
    /// and its failure says how long it still stands.
    @Test func remembersAnUnreachableHostInsteadOfAskingAgain() async throws {
        let server = try await Server.start { _ in .text("gone") }
        let link = try Link(test: server.url("/bad"))
        let other = try Link(test: server.url("/other"))
        await server.stop()
        let follower = FetchingStack(upstream: fetcher).follower
        let first = await fetchError { () async throws(FetchError) in
            try await follower.follow(link, deadline: .now + .seconds(30))
        }
        let second = await fetchError { () async throws(FetchError) in
            try await follower.follow(other, deadline: .now + .seconds(30))
        }
        #expect(first?.code == .connectionRefused, "\(first?.message ?? "answered")")
        #expect(second?.code == .hostDown, "\(second?.message ?? "answered")")
        #expect((second?.freshness ?? .zero) > .zero && (second?.freshness ?? .zero) <= .seconds(1))
    }

    @Test(arguments: [405, 501])
    func retriesWithGetWhenHeadIsRefused(_ status: Int) async throws {
        let server = try await Server.start { request in
            if request.method == "HEAD" { return Response(status: status) }
            return request.path == "/short" ? .redirect(to: "/final") : .text("ok")
        }
        let resolution = try await RedirectFollower(wrapping: fetcher).follow(
            Link(test: server.url("/short")),
            deadline: .now + .seconds(30)
        )
        await server.stop()
        #expect(resolution.final.text == server.url("/final"))
        #expect(server.requests.map(\.method) == ["HEAD", "GET", "HEAD", "GET"])
    }

    @Test func stopsAfterTheHopLimit() async throws {
        let server = try await Server.start { request in .redirect(to: request.path + "x") }
        let error = await fetchError { () async throws(FetchError) in
            try await RedirectFollower(wrapping: fetcher, maxHops: 3).follow(
                Link(test: server.url("/x")),
                deadline: .now + .seconds(30)
            )
        }
        await server.stop()
        #expect(error?.code == .tooManyRedirects)
        #expect(server.requestCount == 4)
    }

    @Test func refusesNonHTTPTargets() async throws {
        let server = try await Server.start { _ in .redirect(to: "file:///etc/passwd") }
        let error = await fetchError { () async throws(FetchError) in
            try await RedirectFollower(wrapping: fetcher).follow(
                Link(test: server.url("/x")),
                deadline: .now + .seconds(30)
            )
        }
        await server.stop()
        #expect(error?.code == .forbiddenScheme)
    }

    @Test func checksEveryHopAgainstThePolicy() async throws {
        // The short link's server is exempt (address and port named explicitly); its target is not.
        let server = try await Server.start { _ in .redirect(to: "http://10.0.0.5/internal") }
        let strict = LiveFetcher(
            policy: NetworkPolicy(allowedAddresses: [.v4(127, 0, 0, 1)], allowedPorts: [80, server.port])
        )
        let error = await fetchError { () async throws(FetchError) in
            try await RedirectFollower(wrapping: strict).follow(
                Link(test: "http://127.0.0.1:\(server.port)/s"),
                deadline: .now + .seconds(30)
            )
        }
        await server.stop()
        #expect(error?.code == .blockedAddress)
        #expect(server.requestCount == 1, "the short link itself was asked")
    }

    /// Hops are cached by the HTTP cache below the follower, as the server allows: a permanent redirect by the
    /// heuristic, a page with `max-age`; a temporary redirect without freshness is asked again.
    @Test func hopsAreCachedAsTheHTTPCacheAllows() async throws {
        let server = try await Server.start { request in
            switch request.path {
            case "/permanent": .redirect(to: "/t", status: 301)
            case "/temporary": .redirect(to: "/t", status: 302)
            default: .text("t", headers: [.init("Cache-Control", "max-age=60")])
            }
        }
        let follower = RedirectFollower(wrapping: FetchingStack(upstream: fetcher, limits: nil))
        for _ in 0..<2 {
            for path in ["/permanent", "/temporary"] {
                _ = try await follower.follow(Link(test: server.url(path)), deadline: .now + .seconds(30))
            }
        }
        await server.stop()
        let asked = server.requests.map(\.path)
        #expect(asked.filter { $0 == "/permanent" }.count == 1, "\(asked)")
        #expect(asked.filter { $0 == "/temporary" }.count == 2, "\(asked)")
        #expect(asked.filter { $0 == "/t" }.count == 1, "\(asked)")
        let hop = try await follower.hop(Link(test: server.url("/permanent")), deadline: .now + .seconds(30))
        #expect(hop.cacheStatus == .hit)
        #expect((hop.freshness ?? .zero) > .zero)
    }

    @Test func stopsAtTheFirstRepeatedLink() async throws {
        let server = try await Server.start { request in .redirect(to: request.path == "/a" ? "/b" : "/a") }
        let error = await fetchError { () async throws(FetchError) in
            try await RedirectFollower(wrapping: fetcher).follow(
                Link(test: server.url("/a")),
                deadline: .now + .seconds(30)
            )
        }
        await server.stop()
        #expect(error?.code == .redirectLoop)
        #expect(error?.identifier == "E_REDIRECT_LOOP")
        #expect(server.requestCount == 2, "A and B were asked once each")
    }

    @Test func oneHopDoesNotFollowTheRedirect() async throws {
        let server = try await Server.start { request in
            request.path == "/s" ? .redirect(to: "/t", status: 301) : .text("t", headers: [.init("X-Page", "t")])
        }
        let follower = RedirectFollower(wrapping: fetcher)
        let hop = try await follower.hop(Link(test: server.url("/s")), deadline: .now + .seconds(30))
        let last = try await follower.hop(Link(test: server.url("/t")), deadline: .now + .seconds(30))
        await server.stop()
        #expect(hop.status == 301 && hop.location?.text == server.url("/t") && hop.method == .head)
        #expect(last.isRedirect == false && last.headers[HTTPField.Name("X-Page")!] == "t")
        #expect(server.requests.map(\.path) == ["/s", "/t"])
    }
}
