import NIOHTTP1

extension LoopbackHTTPServer {
    /// A request as the server received it.
    public struct Request: Sendable, Hashable {
        /// The method (`GET`, `HEAD`, …).
        public var method: String
        /// The request target as sent (path and query).
        public var uri: String
        /// The header lines in the order received.
        public var headers: [Header]
        /// The request body.
        public var body: [UInt8]

        init(head: HTTPRequestHead, body: [UInt8]) {
            method = head.method.rawValue
            uri = head.uri
            headers = head.headers.map { Header($0.name, $0.value) }
            self.body = body
        }

        /// The path without the query.
        public var path: String { String(uri.prefix { $0 != "?" }) }

        /// The first value of the header `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// One header line.
    public struct Header: Sendable, Hashable {
        /// The name as sent.
        public var name: String
        /// The value as sent.
        public var value: String

        /// Creates a header line.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// What the server sends back.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The header lines (Content-Length is added for fixed bodies when missing).
        public var headers: [Header]
        /// The body.
        public var body: Body
        /// A pause before the answer, for timeout tests.
        public var delay: Duration?

        /// Creates a response.
        public init(status: Int = 200, headers: [Header] = [], body: Body = .bytes([]), delay: Duration? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        /// A text response.
        public static func text(_ text: String, status: Int = 200, headers: [Header] = []) -> Response {
            Response(
                status: status,
                // Plain text unless the headers given say otherwise (one Content-Type, as a server sends).
                headers: (headers.contains { $0.name.lowercased() == "content-type" }
                    ? [] : [Header("Content-Type", "text/plain; charset=utf-8")]) + headers,
                body: .bytes(Array(text.utf8))
            )
        }

        /// A redirect to `location` (sent exactly as given, relative or not).
        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [Header("Location", location)])
        }
    }

    /// How the body is produced.
    public enum Body: Sendable {
        /// A fixed body, sent with Content-Length.
        case bytes([UInt8])
        /// `chunk` sent `count` times with chunked encoding (large bodies without holding them in memory).
        case repeated(chunk: [UInt8], count: Int)
        /// `chunk` sent again and again until the client goes away or the server stops.
        case endless(chunk: [UInt8])
    }
}
