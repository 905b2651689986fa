/// The URLs a receiving app opens to answer a request.
extension XCallbackRequest {
    /// The longest `errorMessage` passed back, in characters: messages can quote attacker-controlled text (an
    /// unknown action's name), so it is truncated as well as encoded before it reaches another app.
    public static let maximumErrorMessageLength = 200

    /// `x-success` with the result parameters appended (its own query kept); nil when there is no `x-success`.
    public func successURL(results: [Parameter] = []) -> String? {
        success.map { Self.appending(results, to: $0) }
    }

    /// `x-error` with `errorCode` and `errorMessage` (truncated) appended; nil when there is no `x-error`.
    public func errorURL(code: String, message: String) -> String? {
        let limit = Self.maximumErrorMessageLength
        let truncated = message.count > limit ? String(message.prefix(limit - 1)) + "…" : message
        return error.map {
            Self.appending([Parameter("errorCode", code), Parameter("errorMessage", truncated)], to: $0)
        }
    }

    /// `x-cancel`, as given; nil when there is no `x-cancel`.
    public func cancelURL() -> String? { cancel }

    /// Appends parameters to a URL's query (keeping the query it has), before any fragment.
    static func appending(_ parameters: [Parameter], to url: String) -> String {
        guard !parameters.isEmpty else { return url }
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + parameters.map(PercentEncoding.pair).joined(separator: "&") + url[fragmentStart...]
    }
}
