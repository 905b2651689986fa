import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing
import WebLinks

#if os(Linux)
import Glibc
#endif

/// Hosts that fail as the web's do, over loopback: nobody listening, a connection that is never accepted, a server
/// that accepts and never answers. Each fails in bounded time with a code that says what happened, and the stack
/// then takes the host for down.
@Suite struct HostFaultTests {
    let clock = ContinuousClock()

    @Test func aRefusedConnectionFailsAtOnceAndTheHostIsThenDown() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("gone soon") }
        let port = server.port
        await server.stop()
        let stack = FetchingStack(upstream: LiveFetcher(policy: testPolicy(timeout: .seconds(10))))
        let start = clock.now
        let refused = await fetchError { () async throws(FetchError) in
            try await stack.fetch(FetchRequest(url: Link(test: "http://127.0.0.1:\(port)/a"), timeout: .seconds(10)))
        }
        let elapsed = clock.now - start
        #expect(refused?.code == .connectionRefused, "\(refused?.message ?? "answered")")
        #expect(refused?.identifier == "E_CONNECTION_REFUSED")
        #expect(elapsed < .seconds(1), "one attempt, no retry until the time limit (\(elapsed))")
        let down = await fetchError { () async throws(FetchError) in
            try await stack.fetch(FetchRequest(url: Link(test: "http://127.0.0.1:\(port)/b")))
        }
        #expect(down?.code == .hostDown)
        #expect(down?.identifier == "E_HOST_DOWN")
    }

    #if os(Linux)
    // The listener below fills a Linux accept queue; other systems answer a full queue differently.
    @Test func aConnectionThatIsNeverAcceptedEndsAtTheConnectTimeLimit() async throws {
        let listener = try UnacceptingListener()
        defer { listener.close() }
        var policy = testPolicy(timeout: .seconds(10))
        policy.connectTimeout = .milliseconds(300)
        let start = clock.now
        let error = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: policy).fetch(
                FetchRequest(url: Link(test: "http://127.0.0.1:\(listener.port)/"))
            )
        }
        let elapsed = clock.now - start
        #expect(error?.code == .connectTimeout, "\(error?.message ?? "connected")")
        #expect(error?.message.contains("within 0.3 seconds") == true, "\(error?.message ?? "")")
        #expect(elapsed < .seconds(3), "the connect limit, not the request's 10 s (\(elapsed))")
    }
    #endif

    @Test func aServerThatNeverAnswersEndsAtTheReadTimeLimit() async throws {
        let server = try await LoopbackHTTPServer.start { _ in
            LoopbackHTTPServer.Response(status: 200, body: .bytes([]), delay: .seconds(30))
        }
        var policy = testPolicy(timeout: .seconds(10))
        policy.readTimeout = .milliseconds(300)
        let start = clock.now
        let error = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: policy).fetch(FetchRequest(url: Link(test: server.url("/slow"))))
        }
        let elapsed = clock.now - start
        await server.stop()
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("sent nothing for 0.3 seconds") == true, "\(error?.message ?? "")")
        #expect(elapsed < .seconds(3), "the read limit, not the request's 10 s (\(elapsed))")
    }
}

#if os(Linux)
/// A TCP listener on 127.0.0.1 that never accepts, its queue filled, so that the next connection is never made.
final class UnacceptingListener: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let fillers: [Int32]

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        var fillers: [Int32] = []
        // Connections the kernel completes into the queue nobody empties; beyond them, a new one is left unanswered.
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(filler)
        }
        self.fillers = fillers
        usleep(50_000)
    }

    func close() {
        for filler in fillers { _ = Glibc.close(filler) }
        _ = Glibc.close(listener)
    }
}
#endif
