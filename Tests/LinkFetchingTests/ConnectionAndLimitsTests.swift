import HTTPTypes
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing
import WebLinks

/// `--connect-to` (``ConnectionOverride``), an extra trusted CA, a request's own body limit, and a request's fallback
/// freshness, against loopback servers.
@Suite struct ConnectionAndLimitsTests {
    @Test(arguments: [
        (
            "example.com:443:127.0.0.1:8443",
            ConnectionOverride(host: "example.com", port: 443, address: "127.0.0.1", addressPort: 8443)
        ),
        (
            "EXAMPLE.com:80:localhost:80",
            ConnectionOverride(host: "example.com", port: 80, address: "localhost", addressPort: 80)
        ),
        ("[::1]:443:[::1]:9000", ConnectionOverride(host: "::1", port: 443, address: "::1", addressPort: 9000)),
    ])
    func readsCurlsConnectTo(text: String, expected: ConnectionOverride) {
        #expect(ConnectionOverride(parsing: text) == expected)
    }

    @Test(arguments: [
        "example.com:443:127.0.0.1", "example.com:443:127.0.0.1:", ":443:127.0.0.1:1", "example.com:0:127.0.0.1:1",
        "example.com:443:127.0.0.1:65536", "example.com:x:127.0.0.1:1", "a:1:b:2:c", "[::1:443:b:1",
    ])
    func refusesWhatIsNotHostPortAddressPort(text: String) {
        #expect(ConnectionOverride(parsing: text) == nil)
    }

    /// A policy that sends `example.com:PORT` of the URL to the loopback server.
    static func policy(to server: LoopbackHTTPServer, port: Int = 80, allowPrivate: Bool = true) -> NetworkPolicy {
        var policy = NetworkPolicy(allowPrivateAddresses: allowPrivate)
        policy.connectTo = [
            ConnectionOverride(host: "example.com", port: port, address: "127.0.0.1", addressPort: server.port)
        ]
        return policy
    }

    @Test func aConnectToOverrideKeepsTheRequestsHostAndURL() async throws {
        let server = try await LoopbackHTTPServer.start { request in .text("host \(request.header("Host") ?? "-")") }
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: Self.policy(to: server))
        let response = try await fetcher.fetch(FetchRequest(url: Link("http://example.com/x?y=1")))
        #expect(response.text == "host example.com")
        #expect(response.url.text == "http://example.com/x?y=1")
        #expect(server.requests.map(\.uri) == ["/x?y=1"])
    }

    @Test func aConnectToLoopbackIsStillRefusedByThePolicy() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("never") }
        defer { Task { await server.stop() } }
        var policy = Self.policy(to: server, allowPrivate: false)
        policy.allowedPorts.insert(server.port)
        let url = try Link("http://example.com/")
        let error = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: policy).fetch(FetchRequest(url: url))
        }
        #expect(error?.code == .blockedAddress)
        #expect(server.requestCount == 0)
    }

    @Test func tlsChecksTheRequestsHostAgainstTheTrustedAuthority() async throws {
        let certificates = try TestCertificates(hosts: ["example.com"])
        let server = try await LoopbackHTTPServer.start(tls: certificates) { _ in .text("secure") }
        defer { Task { await server.stop() } }
        let policy = Self.policy(to: server, port: 443)
        let trusting = try LiveFetcher(policy: policy, trustingPEM: Array(certificates.authorityPEM.utf8))
        #expect(try await trusting.fetch(FetchRequest(url: Link("https://example.com/"))).text == "secure")
        // Without the authority, the certificate is refused.
        let url = try Link("https://example.com/")
        let error = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: policy).fetch(FetchRequest(url: url))
        }
        #expect(error?.code == .tlsFailure)
        #expect(
            error?.message
                == "The TLS handshake with the host of 'https://example.com/' failed: its certificate is not trusted."
        )
    }

    @Test func aPEMWithoutACertificateIsRefused() {
        #expect(throws: FetchError.self) { try LiveFetcher(trustingPEM: Array("nothing here".utf8)) }
    }

    @Test func aRequestsBodyLimitRefusesALargerBody() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text(String(repeating: "x", count: 2000)) }
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: .loopback)
        let url = try Link(server.url("/"))
        let error = await fetchError { () async throws(FetchError) in
            try await fetcher.fetch(FetchRequest(url: url, maximumBodyBytes: 1000))
        }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("limit of 1000 bytes") == true)
        #expect(try await fetcher.fetch(FetchRequest(url: url, maximumBodyBytes: 2000)).body.count == 2000)
    }

    @Test(arguments: [false, true])
    func aFallbackFreshnessKeepsAnAnswerThatSaysNothing(fallback: Bool) async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("gone", status: 404) }
        defer { Task { await server.stop() } }
        let stack = FetchingStack(upstream: LiveFetcher(policy: .loopback))
        let request = FetchRequest(url: try Link(server.url("/f")), fallbackFreshness: fallback ? .seconds(60) : nil)
        let first = try await stack.fetch(request)
        _ = try await stack.fetch(request)
        #expect(server.requestCount == (fallback ? 1 : 2))
        #expect(first.isReusable == fallback)
    }
}
