/// The URLs a receiving app opens to answer a request.
extension XCallbackRequest {
    /// The longest `errorMessage` passed back (attacker-controlled text is truncated as well as encoded).
    public static let maximumErrorMessageLength = 200

    /// `x-success` with the result parameters appended (its own query kept); nil when there is no `x-success`.
    public func successURL(results: [Parameter] = []) -> String? {
        success.map { Self.appending(results, to: $0) }
    }

    /// `x-error` with `errorCode` and `errorMessage` (truncated) appended; nil when there is no `x-error`.
    public func errorURL(code: String, message: String) -> String? {
        let truncated = message.count > Self.maximumErrorMessageLength ? String(message.prefix(Self.maximumErrorMessageLength - 1)) + "…" : message
        return error.map { Self.appending([Parameter("errorCode", code), Parameter("errorMessage", truncated)], to: $0) }
    }

    /// `x-cancel`, as given.
    public func cancelURL() -> String? { cancel }

    /// Appends parameters to a URL's query, before any fragment.
    static func appending(_ parameters: [Parameter], to url: String) -> String {
        guard !parameters.isEmpty else { return url }
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        let query = parameters.map { parameter in
            PercentEncoding.encode(parameter.name) + (parameter.value.map { "=" + PercentEncoding.encode($0) } ?? "")
        }.joined(separator: "&")
        return base + separator + query + url[fragmentStart...]
    }
}
