import Foundation
import Hummingbird
import LinkResolver

/// What every request of the service carries: Hummingbird's core storage, the upload limit, and the JSON settings
/// for bodies in (``JSONBodyDecoder``) and documents out (``DocumentResponseEncoder``, the CLI's encoding).
struct SwitchyardRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The largest body a route decodes; set per application by ``UploadLimitMiddleware`` (the context is made from
    /// the channel alone, before any route runs).
    var maxUploadSize: Int

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        maxUploadSize = 1 << 20  // ServerConfiguration's default; UploadLimitMiddleware sets the configured one
    }

    var requestDecoder: JSONBodyDecoder { JSONBodyDecoder() }

    var responseEncoder: DocumentResponseEncoder { DocumentResponseEncoder() }
}

/// Sets the configured upload limit on every request's context.
struct UploadLimitMiddleware: RouterMiddleware {
    typealias Context = SwitchyardRequestContext

    /// The largest body accepted, in bytes.
    let limit: Int

    func handle(
        _ request: Request,
        context: SwitchyardRequestContext,
        next: (Request, SwitchyardRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }
}
