import Foundation
import Hummingbird
import HummingbirdTesting
import LinkServer
import SwitchyardTestSupport
import Testing
import WebLinks

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `http-api` cases of `bad-inputs.json`, each played against a live server over raw loopback sockets (a
/// well-behaved HTTP client could not send most of them).
@Suite struct HostileHTTPTests {
    /// A small connection cap; the defaults are 1,024 connections and a 10 s header timeout. The header timeout is
    /// 1 s in the timing cases and long elsewhere, so that a test delayed by a busy machine is not cut off.
    static let limits = ConnectionLimits(maximumConnections: 12, headerTimeout: .seconds(30))

    static func withLiveServer(
        headerTimeout: Duration = limits.headerTimeout,
        _ body: @Sendable @escaping (Int) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(port: 0, maximumBodyBytes: 1 << 20, networkEnabled: false)
        configuration.connectionLimits = limits
        configuration.connectionLimits.headerTimeout = headerTimeout
        let server = try await SwitchyardServer(configuration: configuration)
        try await server.application().test(.live) { client in
            try await body(try #require(client.port))
        }
    }

    static let cases: [String] = BadInputs.cases(area: "http-api").compactMap { $0["id"] as? String }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyHTTPCaseOfTheFileHasAScenario() {
        #expect(
            Set(Self.cases) == Set(Self.scenarios.keys),
            "cases in bad-inputs.json without a scenario here: \(Set(Self.cases).subtracting(Self.scenarios.keys))"
        )
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason), arguments: cases)
    func answersTheHostileRequest(_ id: String) async throws {
        let scenario = try #require(Self.scenarios[id], "no scenario for \(id)")
        try await Self.withLiveServer(headerTimeout: id == "H06" ? .seconds(1) : Self.limits.headerTimeout) { port in
            try await scenario(port)
        }
    }

    static let scenarios: [String: @Sendable (Int) async throws -> Void] = [
        "H02": { port in
            // 64 KiB of header in one field, then 101 small fields: 431 and the connection closes.
            let big = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "a", count: 65536))\r\n\r\n"
            let reply = await (try RawConnection(port: port)).exchange(big)
            #expect(reply.text.hasPrefix("HTTP/1.1 431"), "\(reply.text.prefix(200))")
            #expect(reply.closed)
            let many = "GET /healthz HTTP/1.1\r\nHost: x\r\n" + (0..<101).map { "X-H\($0): v\r\n" }.joined() + "\r\n"
            let second = await (try RawConnection(port: port)).exchange(many)
            #expect(second.text.hasPrefix("HTTP/1.1 431"), "\(second.text.prefix(200))")
            #expect(second.closed)
        },
        "H03": { port in
            let request =
                "POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            let reply = await (try RawConnection(port: port)).exchange(request)
            #expect(reply.text.hasPrefix("HTTP/1.1 400"), "\(reply.text.prefix(200))")
            #expect(reply.closed)
        },
        "H05": { port in
            // 100 MB announced: refused from the head, before any of the body is read.
            let head =
                "POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n[\"https://a.example/\""
            let reply = await (try RawConnection(port: port)).exchange(head)
            #expect(reply.text.hasPrefix("HTTP/1.1 413"), "\(reply.text.prefix(200))")
            #expect(reply.closed)
            // Chunked (no length announced): the route stops reading at the cap and answers 413 too.
            let chunk = String(repeating: "a", count: 65536)
            let chunked =
                "POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + String(repeating: "10000\r\n\(chunk)\r\n", count: 20) + "0\r\n\r\n"
            let second = await (try RawConnection(port: port)).exchange(chunked)
            #expect(second.text.hasPrefix("HTTP/1.1 413"), "\(second.text.prefix(200))")
        },
        "H06": { port in
            // One byte every 200 ms: the head is never complete, so the connection closes at the header timeout.
            let connection = try RawConnection(port: port)
            let start = ContinuousClock.now
            var closedAfter: Duration?
            for byte in "GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8 {
                guard connection.send([byte]) else { break }
                try await Task.sleep(for: .milliseconds(200))
                if connection.peerClosed() {
                    closedAfter = ContinuousClock.now - start
                    break
                }
            }
            let elapsed = try #require(closedAfter, "the slow client was never disconnected")
            // Sending the whole head would take 6.6 s; the 1 s timeout cuts it (slack for a busy machine).
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(3), "closed after \(elapsed)")
        },
        "H08": { port in
            // Fill every slot with idle connections; the next one is answered 503 and closed; the server lives on.
            var idle: [RawConnection] = []
            for _ in 0..<limits.maximumConnections { idle.append(try RawConnection(port: port)) }
            try await Task.sleep(for: .milliseconds(200))
            let extra = await (try RawConnection(port: port)).exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(extra.text.hasPrefix("HTTP/1.1 503"), "\(extra.text.prefix(200))")
            #expect(extra.closed)
            idle.removeAll()
            try await Task.sleep(for: .milliseconds(300))
            let after = await (try RawConnection(port: port)).exchange(
                "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(after.text.hasPrefix("HTTP/1.1 200"), "\(after.text.prefix(200))")
            // Many more than the cap at once: each is answered or refused, none hangs, the server keeps answering.
            let burst = try (0..<200).map { _ in try RawConnection(port: port) }
            var answers: [Substring] = []
            for connection in burst.prefix(40) {
                answers.append(
                    await connection.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").text
                        .prefix(12)
                )
            }
            #expect(answers.allSatisfy { $0 == "HTTP/1.1 200" || $0 == "HTTP/1.1 503" || $0.isEmpty })
            _ = burst
        },
        "H09": { port in
            let delete = await (try RawConnection(port: port)).exchange(
                "DELETE /v1/resolve HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(delete.text.hasPrefix("HTTP/1.1 405"), "\(delete.text.prefix(200))")
            #expect(delete.text.lowercased().contains("allow: get, head, post"))
            let traversal = await (try RawConnection(port: port)).exchange(
                "GET /v1/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(traversal.text.hasPrefix("HTTP/1.1 404"), "\(traversal.text.prefix(200))")
            #expect(!traversal.text.contains("root:"))
        },
    ]

    /// The request line has room for a link of the longest length the server accepts as written, percent-encoded: a
    /// link longer as written, or once its own non-ASCII characters are percent-encoded, reaches the route and gets
    /// its `414` JSON error; only a header block over its own limit is `431`.
    @Test func aLinkOverTheLimitIs414AndOnlyAHeaderBlockOverItsLimitIs431() async throws {
        try await Self.withLiveServer { port in
            func get(_ link: String, headers: String = "") async throws -> RawConnection.Reply {
                let query = try #require(link.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                return await (try RawConnection(port: port)).exchange(
                    "GET /v1/resolve?url=\(query) HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n"
                )
            }
            // The longest link: 8,192 bytes in its canonical form (1,362 "é", six bytes each once percent-encoded).
            let longest = "https://example.com/" + String(repeating: "é", count: 1362)
            #expect(try Link(longest).text.utf8.count == ServerConfiguration().maximumLinkLength)
            let accepted = try await get(longest)
            #expect(accepted.text.hasPrefix("HTTP/1.1 200"), "\(accepted.text.prefix(300))")
            // 8,192 bytes as written, 24,532 in canonical form: 24,604 bytes on the wire, which the request line has
            // room for, so the route answers with its 414.
            let encodedTooLong = "https://example.com/" + String(repeating: "é", count: 4086)
            #expect(encodedTooLong.utf8.count == ServerConfiguration().maximumLinkLength)
            let refused = try await get(encodedTooLong)
            #expect(refused.text.hasPrefix("HTTP/1.1 414"), "\(refused.text.prefix(300))")
            #expect(refused.text.contains(#""code":"E_TOO_LONG""#), "\(refused.text.prefix(600))")
            // 9 KB: the route refuses it with the documented 414 and its JSON error.
            let tooLong = try await get("https://example.com/" + String(repeating: "a", count: 9000))
            #expect(tooLong.text.hasPrefix("HTTP/1.1 414"), "\(tooLong.text.prefix(300))")
            #expect(tooLong.text.contains(#""code":"E_TOO_LONG""#), "\(tooLong.text.prefix(600))")
            // 9 KB of headers (nine fields of 1,000 bytes) is over the header block's 8 KiB: 431, and the connection
            // closes; 7 KB of headers is not.
            let field = String(repeating: "h", count: 990)
            let nine = (0..<9).map { "X-Pad-\($0): \(field)\r\n" }.joined()
            let abuse = try await get("https://example.com/", headers: nine)
            #expect(abuse.text.hasPrefix("HTTP/1.1 431"), "\(abuse.text.prefix(300))")
            #expect(abuse.text.contains(#""code":"E_HTTP_431""#))
            #expect(abuse.closed)
            let seven = (0..<7).map { "X-Pad-\($0): \(field)\r\n" }.joined()
            let fine = try await get("https://example.com/", headers: seven)
            #expect(fine.text.hasPrefix("HTTP/1.1 200"), "\(fine.text.prefix(300))")
        }
    }

    @Test func idleKeepAliveConnectionsCloseAfterTheHeaderTimeout() async throws {
        try await Self.withLiveServer(headerTimeout: .seconds(1)) { port in
            let connection = try RawConnection(port: port)
            let reply = await connection.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", waitForClose: false)
            #expect(reply.text.hasPrefix("HTTP/1.1 200"))
            try await Task.sleep(for: .milliseconds(1600))
            #expect(connection.peerClosed())
        }
    }
}

/// A blocking TCP connection to 127.0.0.1 with short receive timeouts, for sending bytes no HTTP client would.
final class RawConnection: @unchecked Sendable {
    struct Reply {
        var text: String
        /// Whether the server closed the connection after answering.
        var closed: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var noSignal: Int32 = 1
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = noSignal
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect() failed: \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends bytes; false once the peer has gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Whether the peer closed the connection (a read returns end of file, or the connection was reset).
    func peerClosed() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Sends `request` and reads the reply on a dispatch thread: the server under test runs in this process on
    /// Swift's cooperative threads, which a blocking read must not occupy.
    func exchange(_ request: String, waitForClose: Bool = true) async -> Reply {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.blockingExchange(request, waitForClose: waitForClose))
            }
        }
    }

    /// Sends `request` (as much as the server takes) and reads until the server closes or goes quiet for 2 s.
    func blockingExchange(_ request: String, waitForClose: Bool) -> Reply {
        send(Array(request.utf8))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var quiet = ContinuousClock.now
        while ContinuousClock.now - quiet < .seconds(2) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
                quiet = ContinuousClock.now
                if !waitForClose, let text = String(bytes: received, encoding: .utf8), text.contains("\r\n\r\n") {
                    break
                }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                return Reply(text: String(decoding: received, as: UTF8.self), closed: true)
            }
        }
        return Reply(text: String(decoding: received, as: UTF8.self), closed: false)
    }
}
