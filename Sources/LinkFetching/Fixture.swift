import Foundation
import HTTPTypes
import WebLinks

/// One recorded exchange on disk: readable JSON, one file per method + URL (+ redirect mode).
package struct Fixture: Codable, Sendable, Equatable {
    /// The URL requested.
    package var url: String
    /// The method used.
    package var method: FetchRequest.Method
    /// Whether redirects were followed; part of the key because the answers differ.
    package var followRedirects: Bool
    /// The URL that answered.
    package var finalURL: String
    /// The status code.
    package var status: Int
    /// The response headers in server order.
    package var headers: [Field]
    /// The body when it is valid UTF-8 text, so fixtures stay readable and diffable.
    package var bodyText: String?
    /// The body in base64 when it is not text.
    package var bodyBase64: String?
    /// The redirect hops, oldest first.
    package var redirects: [String]

    /// One header line, as stored: the name as the server sent it.
    package struct Field: Codable, Sendable, Equatable {
        package var name: String
        package var value: String
    }

    package init(request: FetchRequest, response: FetchResponse) {
        url = request.url.text
        method = request.method
        followRedirects = request.followRedirects
        finalURL = response.url.text
        status = response.status
        headers = response.headers.map { Field(name: $0.name.rawName, value: $0.value) }
        if let text = String(validating: response.body, as: UTF8.self) {
            bodyText = text
        } else {
            bodyBase64 = Data(response.body).base64EncodedString()
        }
        redirects = response.redirects.map(\.text)
    }

    package func response() throws(FetchError) -> FetchResponse {
        var body: [UInt8] = []
        if let bodyText {
            body = Array(bodyText.utf8)
        } else if let bodyBase64 {
            guard let data = Data(base64Encoded: bodyBase64) else {
                throw FetchError(
                    .storage,
                    url: url,
                    message: "The fixture for '\(url)' has a bodyBase64 that is not base64."
                )
            }
            body = Array(data)
        }
        var fields = HTTPFields()
        for field in headers {
            guard let name = HTTPField.Name(field.name) else {
                throw FetchError(
                    .storage,
                    url: url,
                    message:
                        "The fixture for '\(url)' has the header name \"\(field.name)\", which HTTP does not allow."
                )
            }
            fields.append(HTTPField(name: name, value: field.value))
        }
        return FetchResponse(
            url: try Self.link(finalURL, in: url),
            status: status,
            headers: fields,
            body: body,
            redirects: try redirects.map { text throws(FetchError) in try Self.link(text, in: url) }
        )
    }

    /// A link the fixture recorded, parsed again.
    private static func link(_ text: String, in fixture: String) throws(FetchError) -> Link {
        do {
            return try Link(text)
        } catch {
            throw FetchError(
                .storage,
                url: fixture,
                message: "The fixture for '\(fixture)' records '\(text)', which is not a link: \(error.message)"
            )
        }
    }

    /// The file name for `request`: method, a readable host, and a stable hash of the key (FNV-1a 64, which,
    /// unlike `Hasher`, is the same in every process).
    package static func fileName(for request: FetchRequest) -> String {
        let key =
            "\(request.method.rawValue) \(request.url.text)" + (request.followRedirects ? "" : " no-follow")
            + (request.bodyPrefix.map { " prefix \($0)" } ?? "")
        let host = request.url.hostName
        let readableHost = String(
            host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(60)
        )
        return "\(request.method.rawValue)-\(readableHost)-\(StableHash.hex(key)).json"
    }
}
