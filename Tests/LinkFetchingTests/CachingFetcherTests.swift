import Foundation
import HTTPTypes
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Synchronization
import Testing

/// The cache's RFC 9111 behaviour against a loopback server, on a manual clock.
@Suite struct CachingFetcherTests {
    let time = TestTime()

    func caching(_ configuration: HTTPCache.Configuration = HTTPCache.Configuration()) -> CachingFetcher {
        CachingFetcher(
            wrapping: LiveFetcher(policy: testPolicy()),
            cache: HTTPCache(configuration: configuration, clock: time.clock)
        )
    }

    @Test func aFreshResponseAnswersWithoutARequest() async throws {
        let server = try await Server.start { [time] _ in
            .text("v1", headers: [.init("Cache-Control", "max-age=60"), .init("Date", time.httpDate)])
        }
        let fetcher = caching()
        let first = try await fetcher.fetch(request(server, "/song"))
        time.advance(30)
        let second = try await fetcher.fetch(request(server, "/song"))
        let head = try await fetcher.fetch(request(server, "/song", method: .head))
        await server.stop()
        #expect(first.cacheStatus == .miss)
        #expect(first.freshness == .seconds(60))
        #expect(second.cacheStatus == .hit)
        #expect(second.text == "v1")
        #expect(second.freshness == .seconds(30))
        #expect(second.headers[.age] == "30")
        #expect(head.cacheStatus == .hit, "a stored GET answers a HEAD")
        #expect(head.body.isEmpty)
        #expect(server.requestCount == 1)
    }

    @Test func aStaleResponseIsRevalidatedOnceAndItsHeadersRefreshed() async throws {
        let server = try await Server.start { [time] request in
            let common: [Header] = [.init("Cache-Control", "max-age=60"), .init("Date", time.httpDate)]
            if request.header("If-None-Match") == "\"v1\"" {
                return Response(status: 304, headers: common + [.init("ETag", "\"v1\""), .init("X-Checked", "again")])
            }
            return .text("v1", headers: common + [.init("ETag", "\"v1\""), .init("X-Checked", "first")])
        }
        let fetcher = caching()
        _ = try await fetcher.fetch(request(server, "/song"))
        time.advance(61)
        let revalidated = try await fetcher.fetch(request(server, "/song"))
        time.advance(10)
        let hit = try await fetcher.fetch(request(server, "/song"))
        await server.stop()
        #expect(server.requestCount == 2)
        #expect(server.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(revalidated.cacheStatus == .revalidated)
        #expect(revalidated.status == 200)
        #expect(revalidated.text == "v1")
        #expect(revalidated.headers[HTTPField.Name("X-Checked")!] == "again")
        #expect(revalidated.freshness == .seconds(60))
        #expect(hit.cacheStatus == .hit)
        #expect(hit.freshness == .seconds(50))
    }

    @Test func lastModifiedRevalidatesWithIfModifiedSince() async throws {
        let modified = HTTPDate.format(time.now.addingTimeInterval(-86_400))
        let server = try await Server.start { [time] request in
            if request.header("If-Modified-Since") == modified {
                return Response(status: 304, headers: [.init("Date", time.httpDate)])
            }
            return .text("page", headers: [.init("Last-Modified", modified), .init("Date", time.httpDate)])
        }
        let fetcher = caching()
        let first = try await fetcher.fetch(request(server, "/page"))
        time.advance(8641)  // heuristic freshness: 10% of a day
        let second = try await fetcher.fetch(request(server, "/page"))
        await server.stop()
        #expect(first.freshness == .seconds(8640))
        #expect(second.cacheStatus == .revalidated)
        #expect(second.text == "page")
        #expect(server.requests.last?.header("If-Modified-Since") == modified)
    }

    @Test func noStoreIsAlwaysSent() async throws {
        let server = try await Server.start { _ in .text("live", headers: [.init("Cache-Control", "no-store")]) }
        let fetcher = caching()
        for _ in 0..<3 {
            let response = try await fetcher.fetch(request(server, "/live"))
            #expect(response.cacheStatus == .miss)
            #expect(response.freshness == nil)
            #expect(!response.isReusable)
        }
        await server.stop()
        #expect(server.requestCount == 3)
    }

    @Test func noCacheIsStoredButRevalidatedBeforeEveryUse() async throws {
        let server = try await Server.start { request in
            let tag: [Header] = [.init("ETag", "\"a\""), .init("Cache-Control", "no-cache, max-age=600")]
            return request.header("If-None-Match") == "\"a\""
                ? Response(status: 304, headers: tag) : .text("a", headers: tag)
        }
        let fetcher = caching()
        let first = try await fetcher.fetch(request(server, "/a"))
        let second = try await fetcher.fetch(request(server, "/a"))
        let third = try await fetcher.fetch(request(server, "/a"))
        await server.stop()
        #expect(first.freshness == .zero)
        #expect([second.cacheStatus, third.cacheStatus] == [.revalidated, .revalidated])
        #expect(third.text == "a")
        #expect(third.freshness == .zero, "must not be reused without asking")
        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, "\"a\"", "\"a\""])
    }

    @Test func varySelectsOneVariantPerRequestHeaderValue() async throws {
        let server = try await Server.start { request in
            .text(
                request.header("Accept-Language") ?? "none",
                headers: [.init("Cache-Control", "max-age=600"), .init("Vary", "Accept-Language")]
            )
        }
        let fetcher = caching()
        var answers: [String] = []
        var statuses: [CacheStatus?] = []
        for language in ["en", "fr", "en", "fr"] {
            let response = try await fetcher.fetch(request(server, "/x", headers: [("Accept-Language", language)]))
            answers.append(response.text)
            statuses.append(response.cacheStatus)
        }
        let none = try await fetcher.fetch(request(server, "/x"))
        await server.stop()
        #expect(answers == ["en", "fr", "en", "fr"])
        #expect(statuses == [.miss, .miss, .hit, .hit])
        #expect(none.text == "none" && none.cacheStatus == .miss, "a request without the field is another variant")
        #expect(server.requestCount == 3)
    }

    @Test(arguments: [(301, true), (308, true), (302, false), (307, false)])
    func permanentRedirectsAreCachedHeuristically(_ status: Int, _ cached: Bool) async throws {
        let server = try await Server.start { [time] _ in
            Response(status: status, headers: [.init("Location", "/target"), .init("Date", time.httpDate)])
        }
        let fetcher = caching(HTTPCache.Configuration(permanentRedirectLifetime: .seconds(3600)))
        let short = request(server, "/s/abc", method: .head, followRedirects: false)
        let first = try await fetcher.fetch(short)
        let second = try await fetcher.fetch(short)
        time.advance(3601)
        let third = try await fetcher.fetch(short)
        await server.stop()
        #expect(first.status == status)
        #expect(first.freshness == (cached ? .seconds(3600) : nil))
        #expect(second.cacheStatus == (cached ? .hit : .miss))
        #expect(third.cacheStatus == .miss, "stale without validators: asked again")
        #expect(server.requestCount == (cached ? 2 : 3))
    }
}

typealias Header = LoopbackHTTPServer.Header
