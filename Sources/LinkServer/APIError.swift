import Foundation
import HTTPTypes
import Hummingbird
import LinkResolver

/// An error answered as JSON `{"error": {"code", "message"}}` with its HTTP status.
public struct APIError: Error, Sendable, HTTPResponseError {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable code (`E_CONTROL_CHAR`, `E_TOO_LONG`, …).
    public var code: String
    /// One sentence for a person.
    public var message: String
    /// For `405`: the methods the path accepts (sent as `Allow`).
    public var allowedMethods: [HTTPRequest.Method]

    /// Creates an error.
    public init(
        _ status: HTTPResponse.Status,
        _ code: String,
        _ message: String,
        allowedMethods: [HTTPRequest.Method] = []
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.allowedMethods = allowedMethods
    }

    /// `Content-Type: application/json`, and `Allow` for `405`.
    public var headers: HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if !allowedMethods.isEmpty { fields[.allow] = allowedMethods.map(\.rawValue).joined(separator: ", ") }
        return fields
    }

    /// The JSON body with the status and headers.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try DocumentEncoder.json().encode(ErrorBody(error: .init(code: code, message: message)))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// `{"error": {"code", "message"}}`.
struct ErrorBody: Codable, Sendable {
    struct Detail: Codable, Sendable {
        var code: String
        var message: String
    }
    var error: Detail
}
