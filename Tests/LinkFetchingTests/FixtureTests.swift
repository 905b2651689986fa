import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing
import WebLinks

@Suite struct FixtureTests {
    @Test func replayGivesTheRecordedResponsesWithTheServerStopped() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Server.start { request in
            switch request.path {
            case "/short": .redirect(to: "/page", status: 301)
            case "/binary":
                Response(headers: [.init("Content-Type", "image/png")], body: .bytes([0x89, 0x50, 0xff, 0x00]))
            default: .text("page ✓", headers: [.init("X-Trace", "1")])
            }
        }
        // Recorded under the redirect layer, as a stack records: each hop is a fixture of its own.
        let recorder = RecordingFetcher(wrapping: LiveFetcher(policy: testPolicy()), directory: directory)
        let requests = [
            FetchRequest(url: Link(test: server.url("/short"))),
            FetchRequest(url: Link(test: server.url("/short")), method: .head, followRedirects: false),
            FetchRequest(url: Link(test: server.url("/binary"))),
        ]
        var recorded: [FetchResponse] = []
        for request in requests { recorded.append(try await RedirectFollower(wrapping: recorder).fetch(request)) }
        await server.stop()

        let replayer = ReplayingFetcher(directory: directory)
        var replayed: [FetchResponse] = []
        for request in requests { replayed.append(try await RedirectFollower(wrapping: replayer).fetch(request)) }
        #expect(replayed == recorded)
        #expect(replayed[0].redirects.map(\.text) == [server.url("/short")])
        #expect(replayed[1].status == 301)
        #expect(replayed[2].body == [0x89, 0x50, 0xff, 0x00])

        // The server is gone: the live fetcher now fails, the replayer does not.
        let live = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: testPolicy()).fetch(requests[0])
        }
        // Refused, or (when a kept connection of the recording is reused) closed before it answered.
        #expect(live?.code == .connectionRefused || live?.code == .transport, "\(live?.message ?? "answered")")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // Each hop is a fixture: GET /short and GET /page (the followed request), HEAD /short, GET /binary.
        #expect(files.count == 4)
        let getFixture = try #require(files.first { $0.hasPrefix("GET-127.0.0.1-") })
        let text = try String(contentsOf: directory.appendingPathComponent(getFixture), encoding: .utf8)
        #expect(text.contains("\"url\""), "fixtures are readable JSON")
    }

    @Test func replayOfAnUnrecordedRequestThrowsNotRecorded() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await fetchError { () async throws(FetchError) in
            try await ReplayingFetcher(directory: directory).fetch(
                FetchRequest(url: Link(test: "https://example.com/x"))
            )
        }
        #expect(error?.code == .notRecorded)
        #expect(error?.message.contains("https://example.com/x") == true)
    }

    @Test func aCorruptFixtureIsAStorageError() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Server.start { _ in .text("x") }
        let request = FetchRequest(url: Link(test: server.url("/")))
        _ = try await RecordingFetcher(wrapping: LiveFetcher(policy: testPolicy()), directory: directory).fetch(request)
        await server.stop()
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent(file))
        let error = await fetchError { () async throws(FetchError) in
            try await ReplayingFetcher(directory: directory).fetch(request)
        }
        #expect(error?.code == .storage)
    }

    @Test func offlineFetcherRefusesEverything() async {
        let error = await fetchError { () async throws(FetchError) in
            try await OfflineFetcher().fetch(FetchRequest(url: Link(test: "https://example.com/")))
        }
        #expect(error?.code == .offline)
    }
}

/// A fresh empty folder under the system's temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("linkfetching-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
