import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 with an ephemeral port, for tests of every module.
///
/// ```swift
/// let server = try await LoopbackHTTPServer.start { request in
///     request.path == "/old" ? .redirect(to: "/new") : .text("hello")
/// }
/// let url = server.url("/old")
/// // … exercise the code under test …
/// await server.stop()
/// ```
/// The handler decides status, headers, body (fixed, streamed or endless) and an optional delay before the
/// answer (for timeout tests). HEAD gets the head without the body. Every request is logged.
///
/// With `tls:` it speaks https with a certificate of ``TestCertificates``: a client reaches it as
/// `https://example.com/…` through `--connect-to example.com:443:127.0.0.1:PORT` (``connectTo(host:)``) and trusts
/// the test authority.
public final class LoopbackHTTPServer: Sendable {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// The port the server listens on.
    public let port: Int
    /// Whether it speaks TLS.
    public let isTLS: Bool
    /// `http://127.0.0.1:PORT` (`https://` with TLS), without a trailing slash.
    public var baseURL: String { "\(isTLS ? "https" : "http")://127.0.0.1:\(port)" }

    /// The `--connect-to` value that sends requests for `https://HOST/` (port 443) here.
    public func connectTo(host: String = "example.com") -> String { "\(host):443:127.0.0.1:\(port)" }

    private let channel: any Channel
    private let serving: Task<Void, Never>
    private let log: RequestLog

    /// Starts a server that answers every request with `handler`; with `tls`, over TLS with its certificate.
    public static func start(
        tls: TestCertificates? = nil,
        _ handler: @escaping @Sendable (Request) async -> Response
    ) async throws -> LoopbackHTTPServer {
        let context = try tls?.serverContext()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    // Header validation is off so tests can send hostile headers (raw non-ASCII Location).
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withOutboundHeaderValidation: false)
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
        guard let port = server.channel.localAddress?.port else {
            try? await server.channel.close()
            throw LoopbackHTTPServerError(message: "the loopback server bound no port")
        }
        return LoopbackHTTPServer(server: server, port: port, isTLS: tls != nil, handler: handler)
    }

    /// Starts a server whose paths redirect as `redirects` says (`"/short/a": ("/short/b", 301)`), and answer 404
    /// otherwise: the short links and loops of the unwrapping tests.
    public static func redirecting(_ redirects: [String: (to: String, status: Int)]) async throws -> LoopbackHTTPServer
    {
        try await start { request in
            guard let redirect = redirects[request.path] else { return .text("not found", status: 404) }
            return .redirect(to: redirect.to, status: redirect.status)
        }
    }

    private init(
        server: NIOAsyncChannel<Connection, Never>,
        port: Int,
        isTLS: Bool,
        handler: @escaping @Sendable (Request) async -> Response
    ) {
        let log = RequestLog()
        self.port = port
        self.isTLS = isTLS
        self.channel = server.channel
        self.log = log
        self.serving = Task {
            await withDiscardingTaskGroup { group in
                try? await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        log.countConnection()
                        group.addTask { await Self.serve(connection, log: log, handler: handler) }
                    }
                }
                // The listener is closed: stop the connections still open (keep-alive, slow handlers).
                group.cancelAll()
            }
        }
    }

    /// The URL of `path` on this server (`path` starts with `/`).
    public func url(_ path: String) -> String { baseURL + path }

    /// Every request received so far, oldest first.
    public var requests: [Request] { log.all }

    /// The number of requests received so far.
    public var requestCount: Int { log.all.count }

    /// The number of connections accepted so far.
    public var connectionCount: Int { log.connections }

    /// Stops listening, ends open connections and waits until everything is closed.
    public func stop() async {
        try? await channel.close()
        serving.cancel()
        await serving.value
    }

    private static func serve(
        _ connection: Connection,
        log: RequestLog,
        handler: @escaping @Sendable (Request) async -> Response
    ) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let received):
                    head = received
                    body = []
                case .body(let chunk):
                    body.append(contentsOf: chunk.readableBytesView)
                case .end:
                    guard let received = head else { continue }
                    let request = Request(head: received, body: body)
                    log.append(request)
                    let response = await handler(request)
                    try await write(response, for: request, keepAlive: received.isKeepAlive, to: outbound)
                    if !received.isKeepAlive { return }
                    head = nil
                }
            }
        }
    }

    private static func write(
        _ response: Response,
        for request: Request,
        keepAlive: Bool,
        to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        if let delay = response.delay { try await Task.sleep(for: delay) }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        if case .bytes(let bytes) = response.body, !headers.contains(name: "Content-Length") {
            headers.add(name: "Content-Length", value: String(bytes.count))
        }
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
        if request.method != "HEAD" {
            switch response.body {
            case .bytes(let bytes):
                if !bytes.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes)))) }
            case .repeated(let chunk, let count):
                let buffer = ByteBuffer(bytes: chunk)
                for _ in 0..<max(0, count) {
                    try Task.checkCancellation()
                    try await outbound.write(.body(.byteBuffer(buffer)))
                }
            case .endless(let chunk):
                // Ends when the client closes the connection (the write fails) or the server stops.
                let buffer = ByteBuffer(bytes: chunk.isEmpty ? [0] : chunk)
                while true {
                    try Task.checkCancellation()
                    try await outbound.write(.body(.byteBuffer(buffer)))
                }
            }
        }
        try await outbound.write(.end(nil))
    }
}

/// Thrown when the loopback server cannot start.
public struct LoopbackHTTPServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// The server's request log, shared with the connection tasks.
final class RequestLog: Sendable {
    private let requests = Mutex<[LoopbackHTTPServer.Request]>([])
    private let connectionsAccepted = Mutex(0)

    var connections: Int { connectionsAccepted.withLock { $0 } }

    func countConnection() {
        connectionsAccepted.withLock { $0 += 1 }
    }

    var all: [LoopbackHTTPServer.Request] { requests.withLock { $0 } }

    func append(_ request: LoopbackHTTPServer.Request) {
        requests.withLock { $0.append(request) }
    }
}
