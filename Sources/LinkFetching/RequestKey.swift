import HTTPTypes
import WebLinks

/// What makes two requests the same request: the method, the link as sent, whether redirects are followed, the body
/// limit, and every request header (names in lower case, values in order), since any of them may change the answer.
/// The time limit is not part of it: two callers asking the same thing with different patience still want one answer
/// (nor is the fallback freshness, which says how long the answer may be kept, not what it is).
package struct RequestKey: Sendable, Hashable {
    /// The method.
    package var method: FetchRequest.Method
    /// The link as sent on the wire.
    package var url: String
    /// Whether redirects are followed.
    package var followRedirects: Bool
    /// The request's own body limit (nil: the policy's).
    package var maximumBodyBytes: Int?
    /// The prefix of the body read (nil: all of it).
    package var bodyPrefix: Int?
    /// The request headers, by lower-cased name and sorted by it, the values of one name in their order.
    package var headers: [String]

    /// The key of `request`.
    package init(_ request: FetchRequest) {
        method = request.method
        url = request.url.requestText
        followRedirects = request.followRedirects
        maximumBodyBytes = request.maximumBodyBytes
        bodyPrefix = request.bodyPrefix
        var byName: [String: [String]] = [:]
        for field in request.headers { byName[field.name.canonicalName, default: []].append(field.value) }
        headers = byName.keys.sorted().map { name in "\(name): \(byName[name, default: []].joined(separator: ", "))" }
    }
}
