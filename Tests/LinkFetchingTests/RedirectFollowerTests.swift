import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing

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
        let follower = RedirectFollower(fetcher: fetcher)
        let resolution = try await follower.resolve(server.url("/s/abc"))
        await server.stop()
        #expect(resolution.finalURL == server.url("/article?id=7"))
        #expect(
            resolution.chain == [server.url("/s/abc"), server.url("/long/intermediate"), server.url("/article?id=7")]
        )
        #expect(resolution.hops.count == 2)
        #expect(resolution.status == 200)
        #expect(server.requests.allSatisfy { $0.method == "HEAD" })
    }

    @Test func remembersAFailureForAWhileInsteadOfAskingAgain() async throws {
        let server = try await Server.start { _ in .redirect(to: "gopher://elsewhere/") }
        let follower = RedirectFollower(fetcher: fetcher)
        await #expect(throws: FetchError.self) { try await follower.resolve(server.url("/bad")) }
        await #expect(throws: FetchError.self) { try await follower.resolve(server.url("/bad")) }
        await server.stop()
        #expect(server.requestCount == 1)
    }

    @Test(arguments: [405, 501])
    func retriesWithGetWhenHeadIsRefused(_ status: Int) async throws {
        let server = try await Server.start { request in
            if request.method == "HEAD" { return Response(status: status) }
            return request.path == "/short" ? .redirect(to: "/final") : .text("ok")
        }
        let resolution = try await RedirectFollower(fetcher: fetcher).resolve(server.url("/short"))
        await server.stop()
        #expect(resolution.finalURL == server.url("/final"))
        #expect(server.requests.map(\.method) == ["HEAD", "GET", "HEAD", "GET"])
    }

    @Test func stopsAfterTheHopLimit() async throws {
        let server = try await Server.start { request in .redirect(to: request.path + "x") }
        let error = await fetchError { () async throws(FetchError) in
            try await RedirectFollower(fetcher: fetcher, maxHops: 3).resolve(server.url("/x"))
        }
        await server.stop()
        #expect(error?.code == .tooManyRedirects)
        #expect(server.requestCount == 4)
    }

    @Test func refusesNonHTTPTargets() async throws {
        let server = try await Server.start { _ in .redirect(to: "file:///etc/passwd") }
        let error = await fetchError { () async throws(FetchError) in
            try await RedirectFollower(fetcher: fetcher).resolve(server.url("/x"))
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
            try await RedirectFollower(fetcher: strict).resolve("http://127.0.0.1:\(server.port)/s")
        }
        await server.stop()
        #expect(error?.code == .blockedAddress)
        #expect(server.requestCount == 1, "the short link itself was asked")
    }

    @Test func cachesResultsForTheProcess() async throws {
        let server = try await Server.start { request in
            request.path == "/s" ? .redirect(to: "/t", status: 301) : .text("t")
        }
        let follower = RedirectFollower(fetcher: fetcher, cacheCapacity: 2)
        let first = try await follower.resolve(server.url("/s"))
        let second = try await follower.resolve(server.url("/s"))
        let countAfterRepeat = server.requestCount
        _ = try await follower.resolve(server.url("/a"))
        _ = try await follower.resolve(server.url("/b"))
        _ = try await follower.resolve(server.url("/s"))
        await server.stop()
        #expect(first == second)
        #expect(countAfterRepeat == 2, "the repeat came from the cache")
        #expect(await follower.cachedCount == 2, "the capacity bounds the cache")
        #expect(server.requestCount == 6, "the evicted link was fetched again")
    }

    @Test func expiresCachedResults() async throws {
        let server = try await Server.start { _ in .text("final") }
        let follower = RedirectFollower(fetcher: fetcher, timeToLive: .milliseconds(50))
        _ = try await follower.resolve(server.url("/s"))
        try await Task.sleep(for: .milliseconds(120))
        _ = try await follower.resolve(server.url("/s"))
        await server.stop()
        #expect(server.requestCount == 2)
    }
}
