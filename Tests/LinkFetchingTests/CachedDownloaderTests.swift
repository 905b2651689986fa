import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Synchronization
import Testing

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

/// The downloader on the one cache: the stack's HTTP cache on its clock, a folder kept across runs below it.
@Suite struct CachedDownloaderTests {
    struct NotJSON: Error {}

    let time = TestTime()

    /// A stack over the loopback network on the test clock (a new one stands for a new run of the program).
    func stack(upstream: any LinkFetching = LiveFetcher(policy: testPolicy())) -> FetchingStack {
        FetchingStack(upstream: upstream, limits: nil, clock: time.clock)
    }

    func makeDownloader(
        _ directory: URL,
        lifetime: Duration = .seconds(24 * 3600),
        stack: FetchingStack? = nil
    )
        -> CachedDownloader
    {
        CachedDownloader(stack: stack ?? self.stack(), directory: directory, lifetime: lifetime)
    }

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
        let downloader = makeDownloader(directory, lifetime: .seconds(3600))
        let first = try await downloader.load(url: server.url("/manifest.json"), validate: Self.validate)
        time.advance(60)
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
        let downloader = makeDownloader(directory, lifetime: .seconds(3600))
        let url = server.url("/manifest.json")
        let first = try await downloader.load(url: url, validate: Self.validate)
        time.advance(7200)
        let revalidated = try await downloader.load(url: url, validate: Self.validate)
        time.advance(60)
        let freshAgain = try await downloader.load(url: url, validate: Self.validate)
        served.set("{\"version\": 2}")
        time.advance(7200)
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
        let downloader = makeDownloader(directory, lifetime: .seconds(60))
        let url = server.url("/manifest.json")
        let good = try await downloader.load(url: url, validate: Self.validate)
        served.set(body, status: status)
        time.advance(120)
        let fallback = try await downloader.load(url: url, validate: Self.validate)
        time.advance(120)
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
        let downloader = makeDownloader(directory)
        let invalid = await fetchError { () async throws(FetchError) in
            try await downloader.load(url: server.url("/m.json"), validate: Self.validate)
        }
        await server.stop()
        let offline = await fetchError { () async throws(FetchError) in
            try await makeDownloader(directory, stack: stack(upstream: OfflineFetcher())).load(
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
        let url = server.url("/m.json")
        _ = try await makeDownloader(directory).load(url: url, validate: Self.validate)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let body = try #require(files.first { $0.hasSuffix(".body") })
        try Data("{\"vers".utf8).write(to: directory.appendingPathComponent(body))
        // The next run (a new stack: nothing in memory) finds the copy damaged.
        let reloaded = try await makeDownloader(directory).load(url: url, validate: Self.validate)
        await server.stop()
        #expect(reloaded.source == .network)
        #expect(server.requestCount == 2)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasSuffix(".tmp") }
        )
    }

    @Test func theNextRunUsesTheCopyKeptInTheFolderThenRevalidatesIt() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Self.startServer(Served())
        let url = server.url("/m.json")
        let first = try await makeDownloader(directory, lifetime: .seconds(3600)).load(
            url: url,
            validate: Self.validate
        )
        time.advance(60)
        let nextRun = try await makeDownloader(directory, lifetime: .seconds(3600)).load(
            url: url,
            validate: Self.validate
        )
        time.advance(7200)
        let later = try await makeDownloader(directory, lifetime: .seconds(3600)).load(
            url: url,
            validate: Self.validate
        )
        await server.stop()
        #expect(first.source == .network)
        #expect(nextRun.source == .cache, "fresh in the folder: no request")
        #expect(nextRun.data == first.data)
        #expect(later.source == .notModified, "stale: revalidated with its ETag")
        #expect(server.requestCount == 2)
        #expect(server.requests.last?.header("If-None-Match") != nil)
    }

    @Test func theServersOwnFreshnessIsHeardWhenItSaysLess() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Server.start { _ in
            .text("{\"v\": 1}", headers: [.init("Cache-Control", "max-age=10"), .init("ETag", "\"1\"")])
        }
        let downloader = makeDownloader(directory, lifetime: .seconds(3600))
        let url = server.url("/m.json")
        _ = try await downloader.load(url: url, validate: Self.validate)
        time.advance(5)
        let fresh = try await downloader.load(url: url, validate: Self.validate)
        time.advance(10)
        let asked = try await downloader.load(url: url, validate: Self.validate)
        await server.stop()
        #expect(fresh.source == .cache)
        #expect(asked.source == .network, "max-age=10 passed: asked again (the server sent a new 200)")
        #expect(server.requestCount == 2)
    }
}
