import LinkMatching
import LinkResolution
import WebLinks

/// One line of a batch: the resolution of an input, or why the input was refused. The CLI prints one per line,
/// the HTTP API returns them as `{"results": [...]}`; a refused input never stops the batch.
public enum BatchResult: Sendable, Equatable, Encodable {
    /// The input resolved.
    case resolved(Resolution)
    /// The input is not a link the resolver accepts: `{"input", "error": {"code", "message"}}`.
    case refused(input: String, error: LinkError)

    private enum CodingKeys: String, CodingKey { case input, error }

    /// Encodes the resolution document, or the refusal.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .resolved(let resolution):
            try resolution.encode(to: encoder)
        case .refused(let input, let error):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Resolver {
    /// Resolves each input in order and hands each result to `body` as soon as it is ready (a stream, not a list).
    public func resolve(
        each inputs: some Sequence<String>,
        _ request: ResolveRequest = ResolveRequest(),
        _ body: (BatchResult) async throws -> Void
    ) async rethrows {
        for input in inputs {
            try await body(await batchResult(for: input, request))
        }
    }

    /// One input's batch result: its resolution, or why it was refused.
    public func batchResult(for input: String, _ request: ResolveRequest = ResolveRequest()) async -> BatchResult {
        do {
            return .resolved(try await resolve(input, request))
        } catch {
            return .refused(input: input, error: error)
        }
    }
}
