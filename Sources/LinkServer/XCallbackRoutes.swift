import Hummingbird
import XCallbackURL

/// `POST /v1/xcallback/parse` `{"url": "app://x-callback-url/…"}`: the parts of an x-callback-url, or `400` naming
/// the part at fault.
enum XCallbackRoutes {
    /// The body of `POST /v1/xcallback/parse`.
    struct ParseRequest: Decodable {
        var url: String

        private enum CodingKeys: String, CodingKey { case url }

        /// Decodes the body; another key is `400 E_UNKNOWN_FIELD` (``BodyFields``).
        init(from decoder: any Decoder) throws {
            try BodyFields.requireKnown(["url"], in: decoder)
            url = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .url)
        }
    }

    /// The routes, relative to `/v1`.
    static var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.post("xcallback/parse") { request, context in
            let body = try await request.decode(as: ParseRequest.self, context: context)
            do throws(XCallbackURLError) {
                return try XCallbackRequest(parsing: body.url)
            } catch {
                throw APIError(.badRequest, error.code.rawValue, error.description)
            }
        }
        return routes
    }
}
