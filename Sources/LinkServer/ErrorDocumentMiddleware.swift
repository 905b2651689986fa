import Hummingbird
import Logging

/// Makes every error answer an ``APIError`` document: Hummingbird's own errors (the `404` of an unknown path, which
/// otherwise has an empty body) get a code and a JSON body, and an unexpected error is logged and answered `500`
/// without its text.
struct ErrorDocumentMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError where error.status == .notFound {
            throw APIError(
                .notFound,
                "E_NOT_FOUND",
                "nothing is served at \(request.uri.path.prefix(200)); the API lives under /v1 and the playground at /"
            )
        } catch let error as any HTTPResponseError {
            let message = (error as? HTTPError)?.body ?? error.status.reasonPhrase
            throw APIError(error.status, "E_HTTP_\(error.status.code)", message)
        } catch {
            context.logger.error(
                "request failed",
                metadata: ["path": "\(request.uri.path)", "error": "\(String(reflecting: error))"]
            )
            throw APIError(.internalServerError, "E_INTERNAL", "the server could not answer; the error is logged")
        }
    }
}
