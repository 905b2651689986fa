import Foundation

/// Sends x-callback-url requests and awaits their answers: each request carries an id in its callback URLs
/// (`<callbackBase>?request-id=…&outcome=success|error|cancel`), and ``receive(_:)`` resumes the caller waiting
/// for that id.
public actor XCallbackClient {
    /// The answer to a request.
    public enum Answer: Sendable, Equatable {
        case success([XCallbackRequest.Parameter])
        case error(code: String?, message: String?)
        case cancel
    }

    private let callbackBase: String
    private var waiting: [String: CheckedContinuation<Answer, Never>] = [:]
    private var early: [String: Answer] = [:]

    /// Creates a client whose callbacks come back to `callbackBase` (for example `myapp://x-callback-url/answer`).
    public init(callbackBase: String) {
        self.callbackBase = callbackBase
    }

    /// A request to open, with its callbacks pointing back here, and the id to await.
    public func prepare(scheme: String, action: String, source: String? = nil, parameters: [XCallbackRequest.Parameter] = []) throws(XCallbackURLError) -> (url: String, id: String) {
        let id = UUID().uuidString
        func callback(_ outcome: String) -> String {
            XCallbackRequest.appending([.init("request-id", id), .init("outcome", outcome)], to: callbackBase)
        }
        let request = try XCallbackRequest(
            scheme: scheme, action: action, source: source, success: callback("success"), error: callback("error"),
            cancel: callback("cancel"), parameters: parameters)
        return (try request.url(), id)
    }

    /// Waits for the answer to the request `id`.
    public func answer(for id: String) async -> Answer {
        if let answer = early.removeValue(forKey: id) { return answer }
        return await withCheckedContinuation { waiting[id] = $0 }
    }

    /// Delivers a received callback URL; returns false when it is not an answer to a known request.
    @discardableResult
    public func receive(_ url: String) -> Bool {
        guard url.hasPrefix(callbackBase), let queryStart = url.firstIndex(of: "?") else { return false }
        var values: [XCallbackRequest.Parameter] = []
        for pair in url[url.index(after: queryStart)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(parts[0]) else { continue }
            values.append(.init(name, parts.count > 1 ? PercentEncoding.decode(parts[1]) : nil))
        }
        guard let id = values.first(where: { $0.name == "request-id" })?.value else { return false }
        let results = values.filter { $0.name != "request-id" && $0.name != "outcome" }
        let answer: Answer
        switch values.first(where: { $0.name == "outcome" })?.value {
        case "success": answer = .success(results)
        case "error": answer = .error(code: results.first { $0.name == "errorCode" }?.value ?? nil, message: results.first { $0.name == "errorMessage" }?.value ?? nil)
        case "cancel": answer = .cancel
        default: return false
        }
        if let continuation = waiting.removeValue(forKey: id) {
            continuation.resume(returning: answer)
        } else {
            early[id] = answer
        }
        return true
    }
}
