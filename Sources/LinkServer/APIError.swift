import HTTPTypes
import Hummingbird

/// An error answered as JSON `{"error": {"code", "message", "path"?}}` with its HTTP status.
///
/// Route handlers throw it; Hummingbird's router turns any ``HTTPResponseError`` into its response, which is encoded
/// by the request context's `responseEncoder`, so errors and documents share one JSON setting.
package struct APIError: Error, Sendable, HTTPResponseError {
    /// The HTTP status.
    package var status: HTTPResponse.Status
    /// A stable code (`E_CONTROL_CHAR`, `E_TOO_LONG`, …).
    package var code: String
    /// One sentence for a person.
    package var message: String
    /// The JSON path of the request body's field at fault (`$.urls[3]`), for errors about a body.
    package var path: String?
    /// For `405`: the methods the path accepts (sent as `Allow`).
    package var allowedMethods: [HTTPRequest.Method]

    /// Creates an error.
    package init(
        _ status: HTTPResponse.Status,
        _ code: String,
        _ message: String,
        path: String? = nil,
        allowedMethods: [HTTPRequest.Method] = []
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.path = path
        self.allowedMethods = allowedMethods
    }

    /// The JSON body with the status, `Allow` for `405`, and `Cache-Control: no-store`: an error is never kept
    /// by a cache (the next request may well succeed, on another replica or after a reload).
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let document = ErrorDocument(error: .init(code: code, message: message, path: path))
        var response = try context.responseEncoder.encode(document, from: request, context: context)
        response.status = status
        response.headers[.cacheControl] = HTTPCaching.noStore
        if !allowedMethods.isEmpty {
            response.headers[.allow] = allowedMethods.map(\.rawValue).joined(separator: ", ")
        }
        return response
    }
}

/// `{"error": {"code", "message", "path"?}}`.
struct ErrorDocument: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
        var path: String?
    }
    var error: Detail
}
