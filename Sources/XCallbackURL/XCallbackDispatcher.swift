/// Routes received x-callback-url requests to the app's handlers and answers with the right callback URL.
///
/// Handlers that change data or post outward can require confirmation: the dispatcher asks the confirmation hook
/// first, and a refusal answers with `x-cancel`. Unknown actions and failing handlers answer with `x-error`.
public actor XCallbackDispatcher {
    /// A handler: returns the result parameters for `x-success`, or throws ``XCallbackHandlerError``.
    public typealias Handler = @Sendable (XCallbackRequest) async throws(XCallbackHandlerError) -> [XCallbackRequest.Parameter]

    private struct Registration {
        var requiresConfirmation: Bool
        var handler: Handler
    }

    private let scheme: String
    private let policy: CallbackPolicy
    private let confirm: @Sendable (XCallbackRequest) async -> Bool
    private var handlers: [String: Registration] = [:]

    /// Creates a dispatcher for the app's `scheme`; `confirm` is asked before handlers that need confirmation.
    public init(scheme: String, policy: CallbackPolicy = .standard, confirm: @escaping @Sendable (XCallbackRequest) async -> Bool = { _ in false }) {
        self.scheme = scheme.lowercased()
        self.policy = policy
        self.confirm = confirm
    }

    /// Registers the handler of an action.
    public func register(_ action: String, requiresConfirmation: Bool = false, handler: @escaping Handler) {
        handlers[action] = Registration(requiresConfirmation: requiresConfirmation, handler: handler)
    }

    /// What handling a URL produced.
    public enum Outcome: Sendable, Equatable {
        /// Open this callback URL (nil: the request named none for this outcome).
        case succeeded(callback: String?)
        case failed(callback: String?, code: String)
        case cancelled(callback: String?)
        /// The URL was refused before any handler ran (not an x-callback-url for this app, unsafe callbacks).
        case rejected(XCallbackURLError)
    }

    /// Handles a received URL.
    public func handle(_ url: String) async -> Outcome {
        let request: XCallbackRequest
        do {
            request = try XCallbackRequest(parsing: url, policy: policy)
        } catch {
            return .rejected(error)
        }
        guard request.scheme.lowercased() == scheme else {
            return .rejected(XCallbackURLError(.badScheme, part: "scheme", "this app handles \"\(scheme)\", not \"\(request.scheme)\""))
        }
        guard let registration = handlers[request.action] else {
            return .failed(callback: request.errorURL(code: "unknownAction", message: "unknown action \"\(request.action)\""), code: "unknownAction")
        }
        if registration.requiresConfirmation, await !confirm(request) {
            return .cancelled(callback: request.cancelURL())
        }
        do {
            let results = try await registration.handler(request)
            return .succeeded(callback: request.successURL(results: results))
        } catch {
            return .failed(callback: request.errorURL(code: error.code, message: error.message), code: error.code)
        }
    }
}

/// A handler's failure, passed back as `errorCode` and `errorMessage`.
public struct XCallbackHandlerError: Error, Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
