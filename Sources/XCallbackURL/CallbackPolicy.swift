/// Which callback URLs a request may carry: the one place that applies the spec's security advice.
///
/// Schemes that run code or read local data (`javascript:`, `data:`, `file:`, `vbscript:`, `about:`) are always
/// refused; web callbacks (`http`, `https`) only to allowed hosts, since they would send the app's results to any
/// origin an attacker names; other app schemes are allowed unless an explicit scheme list is given.
public struct CallbackPolicy: Sendable, Equatable {
    /// Schemes never accepted.
    public static let forbiddenSchemes: Set<String> = ["javascript", "data", "file", "vbscript", "about", "blob"]

    /// When set, only these schemes (lower case) are accepted.
    public var allowedSchemes: Set<String>?
    /// Hosts web callbacks may point at (lower case); empty: no web callbacks.
    public var allowedWebHosts: Set<String>
    /// The longest callback URL accepted.
    public var maximumLength: Int

    /// Creates a policy (defaults: any app scheme, no web callbacks, 4 KiB).
    public init(allowedSchemes: Set<String>? = nil, allowedWebHosts: Set<String> = [], maximumLength: Int = 4096) {
        self.allowedSchemes = allowedSchemes
        self.allowedWebHosts = allowedWebHosts
        self.maximumLength = maximumLength
    }

    /// The default policy.
    public static let standard = CallbackPolicy()

    /// Checks one callback URL; `part` names it (`x-success`, …) in the error.
    public func check(_ url: String, part: String) throws(XCallbackURLError) {
        guard url.utf8.count <= maximumLength else {
            throw XCallbackURLError(.tooLong, part: part, "the callback URL has \(url.utf8.count) bytes, more than \(maximumLength)")
        }
        guard !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw XCallbackURLError(.malformedCallback, part: part, "the callback URL contains a control character")
        }
        guard let colon = url.firstIndex(of: ":"), XCallbackRequest.isScheme(url[..<colon]) else {
            throw XCallbackURLError(.malformedCallback, part: part, "\"\(url.prefix(80))\" is not an absolute URL")
        }
        let scheme = url[..<colon].lowercased()
        if Self.forbiddenSchemes.contains(scheme) {
            throw XCallbackURLError(.forbiddenCallbackScheme, part: part, "callbacks with the scheme \"\(scheme):\" are refused: they could run code or read local data")
        }
        if let allowedSchemes, !allowedSchemes.contains(scheme) {
            throw XCallbackURLError(.callbackNotAllowed, part: part, "the scheme \"\(scheme):\" is not in the allowed list")
        }
        if scheme == "http" || scheme == "https" {
            let rest = url[url.index(after: colon)...].drop { $0 == "/" }
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != ":" }.lowercased()
            guard allowedWebHosts.contains(host) else {
                throw XCallbackURLError(.callbackNotAllowed, part: part, "web callbacks to \"\(host)\" are not allowed (add the host to the policy)")
            }
        }
    }
}
