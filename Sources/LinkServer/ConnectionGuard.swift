import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import LinkResolver
import LinkRules
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// Bounds what one client can hold: connections, header size and count, time to send a request head, body size.
///
/// - More open connections than ``ConnectionLimits/maximumConnections``: the new one gets `503` and is closed, so
///   thousands of idle keep-alive sockets cannot exhaust file descriptors.
/// - A header block (field names and values) over ``ConnectionLimits/maximumHeaderBytes`` or with more than
///   ``ConnectionLimits/maximumHeaderCount`` fields: `431` and close. The request line is not part of the header
///   block: it has room for ``ConnectionLimits/maximumRequestTargetBytes``, so that the longest link the server
///   accepts, percent-encoded in the query, reaches the route, and a longer one is answered there (`414`, JSON).
///   The HTTP decoder cannot tell an over-long request line from an over-long header block, so a request line over
///   that room is refused with `431` too.
/// - Any other malformed request, such as `Content-Length` with `Transfer-Encoding` (a smuggling vector, RFC 9112
///   6.1): `400` and close.
/// - A request head not complete within ``ConnectionLimits/headerTimeout`` of the connection opening or the last
///   response (slowloris, idle keep-alive): the connection is closed.
/// - A declared `Content-Length` over ``ConnectionLimits/maximumBodyBytes``: `413` and close, before the body is read.
package struct ConnectionLimits: Sendable, Equatable {
    /// The most connections open at once.
    package var maximumConnections: Int
    /// The largest header block (field names and values; the request line is not counted).
    package var maximumHeaderBytes: Int
    /// The longest request target (path and query) the decoder takes; `SwitchyardServer` sets it from
    /// ``ServerConfiguration/maximumLinkLength`` (three times it, for percent-encoding, and room for the rest).
    package var maximumRequestTargetBytes: Int
    /// The most header fields.
    package var maximumHeaderCount: Int
    /// How long a client has to send a complete request head.
    package var headerTimeout: Duration
    /// The largest declared request body.
    package var maximumBodyBytes: Int

    /// Creates limits.
    package init(
        maximumConnections: Int = 1024,
        maximumHeaderBytes: Int = 8192,
        maximumRequestTargetBytes: Int = 25_600,
        maximumHeaderCount: Int = 100,
        headerTimeout: Duration = .seconds(10),
        maximumBodyBytes: Int = 1 << 20
    ) {
        self.maximumConnections = maximumConnections
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumRequestTargetBytes = maximumRequestTargetBytes
        self.maximumHeaderCount = maximumHeaderCount
        self.headerTimeout = headerTimeout
        self.maximumBodyBytes = maximumBodyBytes
    }
}

/// Why a connection was refused before routing (the middle of its metric's name).
enum ConnectionRefusal: String, Sendable {
    /// The connection limit was reached (`503`).
    case connections
    /// The header block was too large or had too many fields (`431`).
    case headers
    /// The request could not be parsed (`400`).
    case malformed
    /// The request head did not arrive in time (closed).
    case headerTimeout = "header_timeout"
    /// The declared body was over the limit (`413`).
    case body
}

/// The count of open connections, shared by every connection's guard.
final class ConnectionCounter: Sendable {
    private let open = Mutex(0)

    /// Counts a new connection; false when that would exceed `limit` (the connection is then not counted).
    func enter(limit: Int) -> Bool {
        open.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() {
        open.withLock { $0 -= 1 }
    }

    var current: Int { open.withLock { $0 } }
}

/// The per-connection guard, placed after HTTP decoding (see ``ConnectionLimits``).
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let counter: ConnectionCounter
    private let onRefusal: @Sendable (ConnectionRefusal) -> Void
    private var counted = false
    private var refusing = false
    private var headTimer: Scheduled<Void>?

    init(
        limits: ConnectionLimits,
        counter: ConnectionCounter,
        onRefusal: @escaping @Sendable (ConnectionRefusal) -> Void
    ) {
        self.limits = limits
        self.counter = counter
        self.onRefusal = onRefusal
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    private func start(context: ChannelHandlerContext) {
        guard !counted, !refusing else { return }
        guard counter.enter(limit: limits.maximumConnections) else {
            refusing = true
            onRefusal(.connections)
            refuse(
                context: context,
                status: .serviceUnavailable,
                message: "the server has \(limits.maximumConnections) connections open; try again shortly"
            )
            return
        }
        counted = true
        armHeadTimer(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        headTimer?.cancel()
        if counted {
            counted = false
            counter.leave()
        }
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
        if counted {
            counted = false
            counter.leave()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        let part = unwrapInboundIn(data)
        if case .head(let head) = part {
            headTimer?.cancel()
            headTimer = nil
            // The decoder's limits leave room for a long request line; the header block's own limit is checked here.
            let headerBytes = head.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
            if headerBytes > limits.maximumHeaderBytes {
                onRefusal(.headers)
                refuse(
                    context: context,
                    status: Self.headersTooLarge,
                    message: "the header block has \(headerBytes) bytes, more than \(limits.maximumHeaderBytes)"
                )
                return
            }
            if let length = head.headerFields[.contentLength].flatMap(Int.init), length > limits.maximumBodyBytes {
                onRefusal(.body)
                refuse(
                    context: context,
                    status: .contentTooLarge,
                    message: "the declared body of \(length) bytes is larger than \(limits.maximumBodyBytes) bytes"
                )
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), !refusing {
            // The response is complete: the client has `headerTimeout` to start and finish its next request head.
            armHeadTimer(context: context)
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard !refusing else { return }
        if parserError == .headerOverflow {
            onRefusal(.headers)
            refuse(
                context: context,
                status: Self.headersTooLarge,
                message: "the request head is too large: more than \(limits.maximumHeaderCount) header fields, "
                    + "a header block over \(limits.maximumHeaderBytes) bytes, "
                    + "or a request line over \(limits.maximumRequestTargetBytes) bytes"
            )
        } else {
            onRefusal(.malformed)
            refuse(context: context, status: .badRequest, message: "the request is not valid HTTP/1.1")
        }
    }

    private func armHeadTimer(context: ChannelHandlerContext) {
        headTimer?.cancel()
        let timeout = limits.headerTimeout.components
        let nanoseconds = timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000
        let channel = context.channel
        headTimer = context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { [onRefusal] in
            onRefusal(.headerTimeout)
            channel.close(promise: nil)
        }
    }

    static let headersTooLarge = HTTPResponse.Status(code: 431, reasonPhrase: "Request Header Fields Too Large")

    /// Answers with `status` and `Connection: close`, then closes; nothing more is read from this connection.
    private func refuse(context: ChannelHandlerContext, status: HTTPResponse.Status, message: String) {
        refusing = true
        headTimer?.cancel()
        // The same error document as the routes', written by the same encoder.
        let document = ErrorDocument(error: .init(code: "E_HTTP_\(status.code)", message: message))
        let body = (try? DocumentEncoder.document(document)) ?? Data()
        var fields = HTTPFields()
        fields[.connection] = "close"
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(body.count)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

extension ConnectionLimits {
    /// The HTTP/1 server with these limits: the decoder bounds the whole head (request line and header block, which
    /// it counts together), the guard the header block alone and the rest.
    func serverBuilder(
        counter: ConnectionCounter,
        onRefusal: @escaping @Sendable (ConnectionRefusal) -> Void
    ) -> HTTPServerBuilder {
        let limits = self
        return .http1(
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [
                    ConnectionGuardHandler(limits: limits, counter: counter, onRefusal: onRefusal)
                ],
                idleTimeout: nil,
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: max(limits.maximumHeaderBytes, limits.maximumRequestTargetBytes),
                    maxHeaderListSize: limits.maximumHeaderBytes + limits.maximumRequestTargetBytes,
                    maxHeaderFieldCount: limits.maximumHeaderCount
                )
            )
        )
    }
}
