import Foundation
import HTTPTypes
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Synchronization
import Testing

/// The cache under pressure: its byte bound, upstream failures (stale-if-error), and fixtures below it.
@Suite struct CacheResilienceTests {
    let time = TestTime()

    @Test func leastRecentlyUsedResponsesLeaveFirstUnderTheByteBound() async throws {
        let body = String(repeating: "x", count: 4000)
        let server = try await Server.start { request in
            request.path == "/huge"
                ? .text(String(repeating: "y", count: 20_000), headers: [.init("Cache-Control", "max-age=600")])
                : .text(body, headers: [.init("Cache-Control", "max-age=600")])
        }
        let cache = HTTPCache(
            configuration: HTTPCache.Configuration(maxBytes: 10_000, maxEntryBytes: 8_000),
            clock: time.clock
        )
        let fetcher = CachingFetcher(wrapping: LiveFetcher(policy: testPolicy()), cache: cache)
        var statuses: [String: [CacheStatus?]] = [:]
        for path in ["/a", "/b", "/a", "/c", "/a", "/b", "/huge", "/huge"] {
            let response = try await fetcher.fetch(request(server, path))
            statuses[path, default: []].append(response.cacheStatus)
            #expect(cache.byteCount <= 10_000)
        }
        await server.stop()
        // Two responses fit: /c pushed out /b, the least recently used, while /a (used again) stayed.
        #expect(statuses["/a"] == [.miss, .hit, .hit])
        #expect(statuses["/b"] == [.miss, .miss])
        #expect(statuses["/huge"] == [.miss, .miss], "larger than an entry may be: never stored")
        #expect(cache.urlCount == 2)
    }

    /// How the server fails once the first answer is stale.
    enum Failure: String, CaseIterable, Sendable {
        case down, status500, status503
    }

    @Test(arguments: Failure.allCases)
    func aFailingServerGetsTheLastGoodAnswerMarkedStale(_ failure: Failure) async throws {
        let failing = Mutex(false)
        let server = try await Server.start { _ in
            guard failing.withLock({ $0 }) else {
                return .text("good", headers: [.init("Cache-Control", "max-age=60")])
            }
            return .text("broken", status: failure == .status503 ? 503 : 500)
        }
        let fetcher = CachingFetcher(
            wrapping: LiveFetcher(policy: testPolicy()),
            cache: HTTPCache(configuration: HTTPCache.Configuration(staleIfError: .seconds(600)), clock: time.clock)
        )
        let url = request(server, "/api")
        _ = try await fetcher.fetch(url)
        failing.withLock { $0 = true }
        if failure == .down { await server.stop() }
        time.advance(120)
        let stale = try await fetcher.fetch(url)
        time.advance(600)
        let error = await fetchError { () async throws(FetchError) in try await fetcher.fetch(url) }
        let tooOld = try? await fetcher.fetch(url)
        await server.stop()
        #expect(stale.cacheStatus == .stale)
        #expect(stale.text == "good")
        #expect(stale.freshness == .zero)
        #expect(stale.headers[.age] == "120")
        // Beyond the allowance the failure itself comes through.
        if failure == .down {
            #expect(error?.code == .connectionRefused)
        } else {
            #expect(error == nil)
            #expect(tooOld?.status == (failure == .status503 ? 503 : 500))
            #expect(tooOld?.cacheStatus == .miss)
        }
    }

    @Test(arguments: [
        ("max-age=60, must-revalidate", false), ("s-maxage=60", false), ("max-age=60, proxy-revalidate", false),
        ("max-age=60, stale-if-error=30", false), ("max-age=60, stale-if-error=300", true),
        ("max-age=60, must-revalidate, stale-if-error=300", true),
    ])
    func staleIfErrorFollowsTheResponse(_ cacheControl: String, _ servedStale: Bool) async throws {
        let failing = Mutex(false)
        let server = try await Server.start { _ in
            failing.withLock { $0 }
                ? .text("broken", status: 502) : .text("good", headers: [.init("Cache-Control", cacheControl)])
        }
        let fetcher = CachingFetcher(
            wrapping: LiveFetcher(policy: testPolicy()),
            cache: HTTPCache(clock: time.clock)
        )
        _ = try await fetcher.fetch(request(server, "/api"))
        failing.withLock { $0 = true }
        time.advance(120)
        let answer = try await fetcher.fetch(request(server, "/api"))
        await server.stop()
        #expect(answer.cacheStatus == (servedStale ? .stale : .miss))
        #expect(answer.status == (servedStale ? 200 : 502))
    }

    @Test func recordedAndReplayedResponsesAreCachedAlike() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Server.start { [time] _ in
            .text("recorded", headers: [.init("Cache-Control", "max-age=300"), .init("Date", time.httpDate)])
        }
        let url = request(server, "/api")
        let recorder = RecordingFetcher(wrapping: LiveFetcher(policy: testPolicy()), directory: directory)
        let recording = CachingFetcher(wrapping: recorder, cache: HTTPCache(clock: time.clock))
        let recorded = try await recording.fetch(url)
        let again = try await recording.fetch(url)
        await server.stop()

        let replaying = CachingFetcher(
            wrapping: ReplayingFetcher(directory: directory),
            cache: HTTPCache(clock: time.clock)
        )
        let replayed = try await replaying.fetch(url)
        try FileManager.default.removeItem(at: directory)  // the second answer can only come from the cache
        let cached = try await replaying.fetch(url)
        #expect(server.requestCount == 1)
        #expect([recorded.cacheStatus, again.cacheStatus] == [.miss, .hit])
        #expect([replayed.cacheStatus, cached.cacheStatus] == [.miss, .hit])
        #expect(replayed.text == "recorded" && cached.text == "recorded")
        #expect(replayed.freshness == .seconds(300))
        #expect(replayed.body == recorded.body && replayed.status == recorded.status)
    }
}
