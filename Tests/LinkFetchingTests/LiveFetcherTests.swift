import HTTPTypes
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing
import WebLinks

typealias Server = LoopbackHTTPServer
typealias Response = LoopbackHTTPServer.Response

@Suite struct LiveFetcherTests {
    let fetcher = LiveFetcher(policy: testPolicy())
    /// The one redirect layer over it, which follows redirects by sending each hop through it again.
    var following: RedirectFollower { RedirectFollower(wrapping: fetcher) }

    @Test func getsBodyStatusAndHeaders() async throws {
        let server = try await Server.start { request in
            .text("hello \(request.path)", headers: [.init("ETag", "\"v1\"")])
        }
        let response = try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/greeting"))))
        await server.stop()
        #expect(response.status == 200)
        #expect(response.text == "hello /greeting")
        #expect(response.headers[.eTag] == "\"v1\"")
        #expect(response.url.text == server.url("/greeting"))
        #expect(response.redirects.isEmpty)
    }

    @Test func headReturnsHeadersWithoutBody() async throws {
        let server = try await Server.start { _ in .text("ignored body") }
        let response = try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/")), method: .head))
        await server.stop()
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(server.requests.map(\.method) == ["HEAD"])
    }

    @Test func theRedirectLayerFollowsChainsAndRelativeLocations() async throws {
        let server = try await Server.start { request in
            switch request.path {
            case "/a": .redirect(to: "/b", status: 301)
            case "/b": .redirect(to: "c", status: 302)
            case "/c": .redirect(to: "../d?x=1", status: 307)
            default: .text("end of \(request.uri)")
            }
        }
        let response = try await following.fetch(FetchRequest(url: Link(test: server.url("/a"))))
        let unfollowed = try await following.fetch(
            FetchRequest(url: Link(test: server.url("/a")), followRedirects: false)
        )
        // The live fetcher itself makes exactly one exchange, whatever the request says.
        let single = try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/a"))))
        await server.stop()
        #expect(single.status == 301)
        #expect(single.redirects.isEmpty)
        #expect(response.text == "end of /d?x=1")
        #expect(response.url.text == server.url("/d?x=1"))
        #expect(response.redirects.map(\.text) == [server.url("/a"), server.url("/b"), server.url("/c")])
        #expect(unfollowed.status == 301)
        #expect(unfollowed.headers[.location] == "/b")
    }

    @Test func stopsAfterTooManyRedirects() async throws {
        let server = try await Server.start { request in
            let hop = Int(request.path.dropFirst()) ?? 0
            return .redirect(to: "/\(hop + 1)")
        }
        let error = await fetchError { () async throws(FetchError) in
            try await following.fetch(FetchRequest(url: Link(test: server.url("/0"))))
        }
        await server.stop()
        #expect(error?.code == .tooManyRedirects)
        #expect(server.requestCount == 6, "the start plus the 5 allowed redirects")
    }

    @Test(arguments: [
        "file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "javascript:alert(1)", "http://user@a.example/",
    ])
    func refusesHostileRedirectTargets(_ location: String) async throws {
        let server = try await Server.start { _ in .redirect(to: location) }
        let error = await fetchError { () async throws(FetchError) in
            try await following.fetch(FetchRequest(url: Link(test: server.url("/start"))))
        }
        await server.stop()
        // A location the link parser refuses (a user name before the host) is a bad location; another scheme is
        // forbidden.
        let expected: FetchError.Code = location.hasPrefix("http") ? .badLocation : .forbiddenScheme
        #expect(error?.code == expected, "\(error?.message ?? "no error")")
        #expect(server.requestCount == 1)
    }

    @Test func abortsBodiesOverTheLimit() async throws {
        let server = try await Server.start { request in
            request.path == "/fixed"
                ? Response(body: .bytes(Array(repeating: 65, count: 2 * 1024 * 1024)))
                : Response(body: .endless(chunk: Array(repeating: 66, count: 64 * 1024)))
        }
        for path in ["/fixed", "/endless"] {
            let error = await fetchError { () async throws(FetchError) in
                try await fetcher.fetch(FetchRequest(url: Link(test: server.url(path))))
            }
            #expect(error?.code == .responseTooLarge, "\(path): \(error?.message ?? "no error")")
        }
        await server.stop()
    }

    @Test func decompressesGzipAndAbortsAGzipBomb() async throws {
        let small = GzipZeros.make(count: 100_000)
        let bomb = GzipZeros.make(count: 16 * 1024 * 1024)
        let server = try await Server.start { request in
            Response(headers: [.init("Content-Encoding", "gzip")], body: .bytes(request.path == "/bomb" ? bomb : small))
        }
        let response = try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/small"))))
        #expect(response.body == Array(repeating: 0, count: 100_000))
        #expect(response.headers[.contentEncoding] == nil, "the body is handed back decoded")
        #expect(server.requests.first?.header("Accept-Encoding")?.contains("gzip") == true)
        let error = await fetchError { () async throws(FetchError) in
            try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/bomb"))))
        }
        await server.stop()
        #expect(bomb.count < 1024 * 1024, "the bomb itself is under the limit; only its decoded size is not")
        #expect(error?.code == .responseTooLarge, "\(error?.message ?? "no error")")
    }

    @Test func timesOutSlowServers() async throws {
        let server = try await Server.start { _ in Response(body: .bytes([1]), delay: .seconds(5)) }
        let clock = ContinuousClock()
        let start = clock.now
        let error = await fetchError { () async throws(FetchError) in
            try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/slow")), timeout: .milliseconds(300)))
        }
        let elapsed = clock.now - start
        await server.stop()
        #expect(error?.code == .timeout)
        #expect(elapsed < .seconds(3), "stopped at \(elapsed)")
    }
}
