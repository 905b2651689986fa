/// Routes received x-callback-url requests to the app's handlers and answers with the right callback URL.
///
/// Handlers that change data or post outward can require confirmation, as the spec's security section advises:
/// the dispatcher asks the confirmation hook first, and a refusal answers with `x-cancel`. Unknown actions and
/// failing handlers answer with `x-error`. URLs with unsafe callbacks (see ``CallbackPolicy``) are rejected
/// before any handler runs, and nothing is opened for them.
public actor XCallbackDispatcher {
    /// A handler: returns the result parameters appended to `x-success`. A thrown ``XCallbackHandlerError`` becomes
    /// `errorCode`/`errorMessage`; any other error becomes `errorCode=handlerFailed` with its description.
    public typealias Handler = @Sendable (XCallbackRequest) async throws -> [XCallbackRequest.Parameter]

    private struct Registration {
        var requiresConfirmation: Bool
        var handler: Handler
    }

    /// What handling a URL produced.
    public enum Outcome: Sendable, Equatable {
        /// The handler succeeded: open `x-success` with the results (nil: the request named no `x-success`).
        case succeeded(callback: String?)
        /// Unknown action or failing handler: open `x-error` (nil: none named); `code` is the `errorCode` sent.
        case failed(callback: String?, code: String)
        /// The user declined the confirmation: open `x-cancel` (nil: none named).
        case cancelled(callback: String?)
        /// The URL was refused before any handler ran (not an x-callback-url for this app, unsafe callbacks).
        case rejected(XCallbackURLError)

        /// The URL the app should open now, if any.
        public var callback: String? {
            switch self {
            case .succeeded(let callback), .failed(let callback, _), .cancelled(let callback): callback
            case .rejected: nil
            }
        }
    }

    private let scheme: String
    private let policy: CallbackPolicy
    private let confirm: @Sendable (XCallbackRequest) async -> Bool
    private var registrations: [String: Registration] = [:]

    /// Creates a dispatcher for the app's `scheme`; `confirm` is asked before handlers that need confirmation and
    /// answers false by default, so a confirmation-only action never runs without a hook.
    public init(
        scheme: String,
        policy: CallbackPolicy = .standard,
        confirm: @escaping @Sendable (XCallbackRequest) async -> Bool = { _ in false }
    ) {
        self.scheme = scheme.lowercased()
        self.policy = policy
        self.confirm = confirm
    }

    /// Registers the handler of an action (replacing any earlier one).
    public func register(_ action: String, requiresConfirmation: Bool = false, handler: @escaping Handler) {
        registrations[action] = Registration(requiresConfirmation: requiresConfirmation, handler: handler)
    }

    /// Registers a handler that receives the action parameters decoded into `Parameters`: a missing or
    /// unconvertible parameter answers with `x-error` (`errorCode=invalidParameter`) without calling it.
    public func register<Parameters: Decodable & Sendable>(
        _ action: String,
        parameters: Parameters.Type,
        requiresConfirmation: Bool = false,
        handler: @escaping @Sendable (Parameters, XCallbackRequest) async throws -> [XCallbackRequest.Parameter]
    ) {
        register(action, requiresConfirmation: requiresConfirmation) { request in
            try await handler(try XCallbackParameterDecoder.decode(Parameters.self, from: request.parameters), request)
        }
    }

    /// The actions that have a handler, sorted.
    public var actions: [String] { registrations.keys.sorted() }

    /// Handles a received URL: parse and check it, confirm when needed, run the handler, answer.
    public func handle(_ url: String) async -> Outcome {
        let request: XCallbackRequest
        do {
            request = try XCallbackRequest(parsing: url, policy: policy)
        } catch {
            return .rejected(error)
        }
        guard request.scheme.lowercased() == scheme else {
            return .rejected(
                XCallbackURLError(
                    .badScheme,
                    part: "scheme",
                    "this app handles \"\(scheme)\", not \"\(request.scheme.prefix(80))\""
                )
            )
        }
        guard let registration = registrations[request.action] else {
            return failure(.unknownAction(request.action), for: request)
        }
        if registration.requiresConfirmation, await !confirm(request) {
            return .cancelled(callback: request.cancelURL())
        }
        do {
            let results = try await registration.handler(request)
            return .succeeded(callback: request.successURL(results: results))
        } catch let error as XCallbackHandlerError {
            return failure(error, for: request)
        } catch {
            return failure(
                XCallbackHandlerError(code: "handlerFailed", message: String(describing: error)),
                for: request
            )
        }
    }

    private func failure(_ error: XCallbackHandlerError, for request: XCallbackRequest) -> Outcome {
        .failed(callback: request.errorURL(code: error.code, message: error.message), code: error.code)
    }
}
