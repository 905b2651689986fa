import AsyncHTTPClient
import LinkFetching
import SwitchyardTestSupport
import Testing
import WebLinks

@testable import LinkFetchingHTTP

/// A hop reuses the connection of an earlier hop to the same checked address (HopClients), instead of a new client,
/// connection and TLS context for each.
@Suite struct KeptConnectionTests {
    @Test func hopsToOneAddressShareAConnection() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("same") }
        let fetcher = LiveFetcher(policy: .loopback)
        for path in ["/a", "/b", "/c"] {
            let response = try await fetcher.fetch(FetchRequest(url: Link(test: server.url(path))))
            #expect(response.text == "same")
        }
        await server.stop()
        #expect(server.requestCount == 3)
        #expect(server.connectionCount == 1)
    }

    @Test func concurrentHopsAreNotQueuedBehindAFewConnections() async throws {
        // Twelve requests at once to one host, each answered after 300 ms: the client's own default of 8
        // connections per host would make the last four wait for a second round (600 ms or more).
        let server = try await LoopbackHTTPServer.start { _ in
            try? await Task.sleep(for: .milliseconds(300))
            return .text("slow")
        }
        let fetcher = LiveFetcher(policy: .loopback)
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                group.addTask { try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/\(index)")))).text }
            }
            for try await text in group { #expect(text == "slow") }
        }
        let elapsed = clock.now - start
        await server.stop()
        #expect(server.requestCount == 12)
        #expect(elapsed < .milliseconds(590), "twelve concurrent requests took \(elapsed)")
    }

    @Test func idleClientsBeyondTheCapacityAreShutDown() async {
        let clients = HopClients(capacity: 2, idleTime: .seconds(60))
        func key(_ host: String) -> HopClients.Key {
            HopClients.Key(host: host, address: "127.0.0.1", port: 80, limit: 1024, timeouts: [], trustRoots: [])
        }
        let first = clients.acquire(key("a.example")) { HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup) }
        let again = clients.acquire(key("a.example")) { HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup) }
        #expect(first === again)
        for host in ["b.example", "c.example"] {
            _ = clients.acquire(key(host)) { HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup) }
        }
        #expect(clients.count == 3)
        // a.example is still in use twice; releasing b and c leaves the least recently used idle one (b) out.
        clients.release(key("b.example"))
        clients.release(key("c.example"))
        #expect(clients.count == 2)
        clients.release(key("a.example"))
        clients.release(key("a.example"))
        #expect(clients.count == 2)
        await clients.shutDownAll()
        #expect(clients.count == 0)
    }

    @Test func keptConnectionsAreShutDownWhenAskedAndMadeAgainAfter() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("kept") }
        let fetcher = LiveFetcher(policy: .loopback)
        #expect(try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/a")))).text == "kept")
        #expect(HopClients.shared.count >= 1)
        await LiveFetcher.shutDownKeptConnections()
        #expect(HopClients.shared.count == 0)
        // A later fetch makes a new client and a new connection.
        #expect(try await fetcher.fetch(FetchRequest(url: Link(test: server.url("/b")))).text == "kept")
        await server.stop()
        #expect(server.connectionCount == 2)
    }
}
