import Foundation

/// Sends x-callback-url requests and awaits their answers.
///
/// Each prepared request carries a fresh id in its three callback URLs
/// (`<callbackBase>?request-id=…&outcome=success|error|cancel`); when the app receives one of them it passes it
/// to ``receive(_:)``, which resumes the caller waiting in ``answer(for:)``. Only ids this client prepared are
/// accepted, once each, so a forged callback cannot answer a request or grow the client's memory.
public actor XCallbackClient {
    /// The answer to a request.
    public enum Answer: Sendable, Equatable {
        /// `x-success` was opened, with these result parameters.
        case success([XCallbackRequest.Parameter])
        /// `x-error` was opened, with its `errorCode` and `errorMessage` (nil when the other app sent none).
        case error(code: String?, message: String?)
        /// `x-cancel` was opened, or the waiting task was cancelled.
        case cancel
    }

    private let callbackBase: String
    private var pending: Set<String> = []
    private var waiting: [String: CheckedContinuation<Answer, Never>] = [:]
    private var arrived: [String: Answer] = [:]

    /// Creates a client whose callbacks come back to `callbackBase` (for example `myapp://x-callback-url/answer`),
    /// a URL without query or fragment that the app routes to ``receive(_:)``.
    public init(callbackBase: String) {
        self.callbackBase = callbackBase
    }

    /// A request to open, with its callbacks pointing back here, and the id to await.
    public func prepare(
        scheme: String,
        action: String,
        source: String? = nil,
        parameters: [XCallbackRequest.Parameter] = [],
        policy: CallbackPolicy = .standard
    ) throws(XCallbackURLError) -> (url: String, id: String) {
        let id = UUID().uuidString
        func callback(_ outcome: String) -> String {
            XCallbackRequest.appending([.init("request-id", id), .init("outcome", outcome)], to: callbackBase)
        }
        let request = try XCallbackRequest(
            scheme: scheme,
            action: action,
            source: source,
            success: callback("success"),
            error: callback("error"),
            cancel: callback("cancel"),
            parameters: parameters
        )
        let url = try request.url(policy: policy)
        pending.insert(id)
        return (url, id)
    }

    /// Waits for the answer to the request `id`; returns ``Answer/cancel`` when the task is cancelled or the id
    /// was not prepared here (or was already answered and collected).
    public func answer(for id: String) async -> Answer {
        if let answer = arrived.removeValue(forKey: id) { return answer }
        guard pending.contains(id), waiting[id] == nil else { return .cancel }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    pending.remove(id)
                    continuation.resume(returning: .cancel)
                } else {
                    waiting[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.abandon(id) }
        }
    }

    /// Stops waiting for `id`: a waiting caller gets ``Answer/cancel`` and a later callback is ignored.
    public func abandon(_ id: String) {
        pending.remove(id)
        arrived.removeValue(forKey: id)
        waiting.removeValue(forKey: id)?.resume(returning: .cancel)
    }

    /// The requests still unanswered.
    public var pendingCount: Int { pending.count }

    /// Whether a caller is suspended in ``answer(for:)`` for `id` (lets tests wait for that point).
    package func isWaiting(for id: String) -> Bool { waiting[id] != nil }

    /// Delivers a received callback URL; returns false when it is not an answer to a request still pending here.
    @discardableResult
    public func receive(_ url: String) -> Bool {
        guard url.hasPrefix(callbackBase + "?") else { return false }
        let query = url.dropFirst(callbackBase.count + 1).prefix { $0 != "#" }
        guard let values = try? PercentEncoding.pairs(of: query, in: "callback") else { return false }
        // The client's own parameters come first; results appended by the other app cannot shadow them.
        guard let id = values.first(where: { $0.name == "request-id" })?.value, pending.contains(id) else {
            return false
        }
        // Drop only this client's own pair of each; a result that happens to share a name is kept.
        var results = values
        for name in ["request-id", "outcome"] {
            if let index = results.firstIndex(where: { $0.name == name }) { results.remove(at: index) }
        }
        let answer: Answer
        switch values.first(where: { $0.name == "outcome" })?.value {
        case "success": answer = .success(results)
        case "error":
            answer = .error(
                code: results.first { $0.name == "errorCode" }?.value,
                message: results.first { $0.name == "errorMessage" }?.value
            )
        case "cancel": answer = .cancel
        default: return false
        }
        pending.remove(id)
        if let continuation = waiting.removeValue(forKey: id) {
            continuation.resume(returning: answer)
        } else {
            arrived[id] = answer
        }
        return true
    }
}
