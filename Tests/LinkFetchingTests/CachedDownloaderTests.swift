import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Synchronization
import Testing

/// A settable clock for ageing the cache.
final class FakeNow: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { date.withLock { $0 } }
    func advance(by seconds: TimeInterval) { date.withLock { $0 += seconds } }
}

/// What the test server currently serves, changed by the test between loads.
final class Served: Sendable {
    private let body = Mutex("{\"version\": 1}")
    private let status = Mutex(200)
    var current: (body: String, status: Int) { (body.withLock { $0 }, status.withLock { $0 }) }
    func set(_ text: String, status code: Int = 200) {
        body.withLock { $0 = text }
        status.withLock { $0 = code }
    }
}

@Suite struct CachedDownloaderTests {
    struct NotJSON: Error {}

    /// The validator a manifest download would use: the body must be a JSON object.
    static let validate: @Sendable (Data) throws -> Void = { data in
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else { throw NotJSON() }
    }

    /// A server with ETag support: 304 when If-None-Match matches the current body's tag.
    static func startServer(_ served: Served) async throws -> LoopbackHTTPServer {
        try await Server.start { request in
            let (body, status) = served.current
            let tag = "\"\(body.utf8.count)-\(body.hashValue)\""
            if status != 200 { return .text("failure", status: status) }
            if request.header("If-None-Match") == tag { return Response(status: 304, headers: [.init("ETag", tag)]) }
            return .text(body, headers: [.init("ETag", tag), .init("Last-Modified", "Wed, 21 Oct 2026 07:28:00 GMT")])
        }
    }

    @Test func downloadsThenServesFreshCopiesWithoutRequests() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = Served()
        let server = try await Self.startServer(served)
        let clock = FakeNow()
        let downloader = CachedDownloader(
            fetcher: LiveFetcher(policy: testPolicy()),
            directory: directory,
            lifetime: .seconds(3600),
            now: { clock.now }
        )
        let first = try await downloader.load(url: server.url("/manifest.json"), validate: Self.validate)
        clock.advance(by: 60)
        let second = try await downloader.load(url: server.url("/manifest.json"), validate: Self.validate)
        await server.stop()
        #expect(first.source == .network)
        #expect(second.source == .cache)
        #expect(second.data == first.data)
        #expect(server.requestCount == 1)
    }

    @Test func revalidatesAfterExpiryAndRefreshesOn304() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = Served()
        let server = try await Self.startServer(served)
        let clock = FakeNow()
        let downloader = CachedDownloader(
            fetcher: LiveFetcher(policy: testPolicy()),
            directory: directory,
            lifetime: .seconds(3600),
            now: { clock.now }
        )
        let url = server.url("/manifest.json")
        let first = try await downloader.load(url: url, validate: Self.validate)
        clock.advance(by: 7200)
        let revalidated = try await downloader.load(url: url, validate: Self.validate)
        clock.advance(by: 60)
        let freshAgain = try await downloader.load(url: url, validate: Self.validate)
        served.set("{\"version\": 2}")
        clock.advance(by: 7200)
        let changed = try await downloader.load(url: url, validate: Self.validate)
        await server.stop()
        #expect(revalidated.source == .notModified)
        #expect(revalidated.data == first.data)
        #expect(revalidated.fetchedAt > first.fetchedAt)
        #expect(freshAgain.source == .cache, "the 304 restarted the lifetime")
        #expect(server.requests[1].header("If-None-Match") != nil)
        #expect(server.requests[1].header("If-Modified-Since") == "Wed, 21 Oct 2026 07:28:00 GMT")
        #expect(changed.source == .network)
        #expect(String(decoding: changed.data, as: UTF8.self) == "{\"version\": 2}")
    }

    @Test(arguments: [("{\"version\": 2, \"trunc", 200), ("{}", 500)])
    func aCorruptOrFailedDownloadKeepsTheGoodCopy(_ body: String, _ status: Int) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = Served()
        let server = try await Self.startServer(served)
        let clock = FakeNow()
        let downloader = CachedDownloader(
            fetcher: LiveFetcher(policy: testPolicy()),
            directory: directory,
            lifetime: .seconds(60),
            now: { clock.now }
        )
        let url = server.url("/manifest.json")
        let good = try await downloader.load(url: url, validate: Self.validate)
        served.set(body, status: status)
        clock.advance(by: 120)
        let fallback = try await downloader.load(url: url, validate: Self.validate)
        clock.advance(by: 120)
        let again = try await downloader.load(url: url, validate: Self.validate)
        await server.stop()
        #expect(fallback.source == .staleFallback)
        #expect(fallback.data == good.data)
        #expect(fallback.warning?.contains(url) == true, "\(fallback.warning ?? "no warning")")
        #expect(again.data == good.data, "the corrupt body was never stored")
    }

    @Test func withoutACopyTheErrorReachesTheCaller() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = Served()
        served.set("not json")
        let server = try await Self.startServer(served)
        let downloader = CachedDownloader(fetcher: LiveFetcher(policy: testPolicy()), directory: directory)
        let invalid = await fetchError { () async throws(FetchError) in
            try await downloader.load(url: server.url("/m.json"), validate: Self.validate)
        }
        await server.stop()
        let offline = await fetchError { () async throws(FetchError) in
            try await CachedDownloader(fetcher: OfflineFetcher(), directory: directory).load(
                url: "https://example.com/m"
            )
        }
        #expect(invalid?.code == .invalidContent)
        #expect(offline?.code == .offline)
    }

    @Test func aDamagedCacheFileIsTreatedAsAbsent() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Self.startServer(Served())
        let downloader = CachedDownloader(fetcher: LiveFetcher(policy: testPolicy()), directory: directory)
        let url = server.url("/m.json")
        _ = try await downloader.load(url: url, validate: Self.validate)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let body = try #require(files.first { $0.hasSuffix(".body") })
        try Data("{\"vers".utf8).write(to: directory.appendingPathComponent(body))
        let reloaded = try await downloader.load(url: url, validate: Self.validate)
        await server.stop()
        #expect(reloaded.source == .network)
        #expect(server.requestCount == 2)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasSuffix(".tmp") }
        )
    }
}
