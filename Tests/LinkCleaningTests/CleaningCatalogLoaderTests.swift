import Foundation
import LinkCleaning
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Synchronization
import Testing

/// Downloads over a loopback server: the catalog must match its published hash before it replaces the cached copy.
@Suite struct CleaningCatalogLoaderTests {
    /// What the server publishes: a catalog and the hash it announces for it (changed between loads).
    final class Published: Sendable {
        private let state = Mutex((catalog: "", hash: ""))
        var current: (catalog: String, hash: String) { state.withLock { $0 } }
        func set(catalog: String, hash: String? = nil) {
            state.withLock { $0 = (catalog, hash ?? CleaningCatalog.sha256Hex(Data(catalog.utf8))) }
        }
    }

    static func catalog(rule: String) -> String {
        #"{"providers": {"p": {"urlPattern": "example", "completeProvider": false, "rules": [""# + rule + #""]}}}"#
    }

    /// `/data.json` (with ETag: 304 to a matching If-None-Match) and `/data.hash`.
    static func start(_ published: Published) async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { request in
            let (catalog, hash) = published.current
            switch request.path {
            case "/data.json":
                let tag = "\"\(CleaningCatalog.sha256Hex(Data(catalog.utf8)).prefix(16))\""
                if request.header("If-None-Match") == tag {
                    return LoopbackHTTPServer.Response(status: 304, headers: [.init("ETag", tag)])
                }
                return .text(catalog, headers: [.init("ETag", tag)])
            case "/data.hash": return .text(hash + "\n")
            default: return .text("not found", status: 404)
            }
        }
    }

    static func loader(_ directory: URL) -> CleaningCatalogLoader {
        let fetcher = LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true, timeout: .seconds(5)))
        // Lifetime zero: every load asks the server again (conditional request when a copy is cached).
        return CleaningCatalogLoader(
            downloader: CachedDownloader(stack: FetchingStack(upstream: fetcher), directory: directory, lifetime: .zero)
        )
    }

    static func rules(_ loaded: LoadedCleaningCatalog) -> [String] {
        loaded.catalog.providers.first?.rules.map(\.source) ?? []
    }

    @Test func verifiedDownloadsThenNotModifiedThenBadHashThenServerDown() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clean-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let published = Published()
        published.set(catalog: Self.catalog(rule: "first"))
        let server = try await Self.start(published)
        let loader = Self.loader(directory)
        let source = CleaningCatalogSource.url(server.url("/data.json"))
        let hash = CleaningCatalogSource.url(server.url("/data.hash"))

        // Good hash: downloaded, verified, kept.
        let first = try await loader.load(source, hash: hash)
        #expect(first.download == .network && first.verified && first.warnings.isEmpty)
        #expect(Self.rules(first) == ["first"])

        // Unchanged: a conditional request answered 304.
        let second = try await loader.load(source, hash: hash)
        #expect(second.download == .notModified && second.verified)
        #expect(server.requests.last { $0.path == "/data.json" }?.header("If-None-Match") != nil)

        // A new catalog whose published hash does not match: refused, the last good copy is used with a warning.
        published.set(catalog: Self.catalog(rule: "second"), hash: String(repeating: "0", count: 64))
        let third = try await loader.load(source, hash: hash)
        #expect(third.download == .staleFallback)
        #expect(Self.rules(third) == ["first"])
        #expect(third.warnings.count == 1)
        #expect(third.warnings.first?.contains("the catalog's SHA-256 is") == true)

        // The server is down: the last good copy again.
        await server.stop()
        let fourth = try await loader.load(source, hash: .file(try hashFile(published, in: directory)))
        #expect(fourth.download == .staleFallback)
        #expect(Self.rules(fourth) == ["first"])
        #expect(fourth.warnings.isEmpty == false)
    }

    @Test func aMismatchWithNoCopyIsAnError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clean-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let published = Published()
        published.set(catalog: Self.catalog(rule: "x"), hash: String(repeating: "a", count: 64))
        let server = try await Self.start(published)
        defer { Task { await server.stop() } }
        do {
            _ = try await Self.loader(directory).load(
                .url(server.url("/data.json")),
                hash: .url(server.url("/data.hash"))
            )
            Issue.record("a catalog that does not match its hash was accepted")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("SHA-256"))
            #expect(error.message.hasPrefix(server.url("/data.json") + ": error: "))
        }
        // A hash that is not a SHA-256 is refused before the catalog is fetched (with no earlier hash cached).
        published.set(catalog: Self.catalog(rule: "x"), hash: "<html>")
        let empty = directory.appendingPathComponent("other")
        do {
            _ = try await Self.loader(empty).load(.url(server.url("/data.json")), hash: .url(server.url("/data.hash")))
            Issue.record("a malformed hash was accepted")
        } catch {
            #expect(error.message.contains("is not a SHA-256"))
        }
    }

    @Test func filesAreReadAndCheckedToo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clean-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("data.json")
        try Data(Self.catalog(rule: "f").utf8).write(to: file)
        let loader = CleaningCatalogLoader(downloader: nil)
        let loaded = try await loader.load(.file(file.path))
        #expect(Self.rules(loaded) == ["f"] && !loaded.verified)
        let hash = directory.appendingPathComponent("data.hash")
        try Data(String(repeating: "b", count: 64).utf8).write(to: hash)
        await #expect(throws: CleaningError.self) { try await loader.load(.file(file.path), hash: .file(hash.path)) }
        do {
            _ = try await loader.load(.file(directory.appendingPathComponent("none.json").path))
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.message == "\(directory.path)/none.json: error: the cleaning catalog does not exist")
        }
        #expect(CleaningCatalogLoader.defaultHash(for: .url(CleaningCatalogLoader.officialCatalogURL)) != nil)
        #expect(CleaningCatalogLoader.defaultHash(for: .url("https://example.com/data.json")) == nil)
    }

    /// The hash of the copy last accepted, written to a file (the server that published it is gone).
    private func hashFile(_ published: Published, in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("first.hash")
        try Data(CleaningCatalog.sha256Hex(Data(Self.catalog(rule: "first").utf8)).utf8).write(to: file)
        return file.path
    }
}
