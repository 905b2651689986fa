import Foundation
import HTTPTypes
import Hummingbird
import LinkResolver
import LinkRules

/// Writes every JSON response of the service (documents and errors) through ``DocumentEncoder/document(_:pretty:)``,
/// the function the CLI writes its documents with: the same settings, and the same `"version"` first.
struct DocumentResponseEncoder: ResponseEncoder {
    func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let body = try DocumentEncoder.documentBytes(value)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(body.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
