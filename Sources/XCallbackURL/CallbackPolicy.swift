/// Which callback URLs a request may carry: the one place that applies the spec's security advice.
///
/// Schemes that run code or read local data (``forbiddenSchemes``: `javascript:`, `data:`, `file:`, …) are always
/// refused, even when listed in ``allowedSchemes``. Web callbacks (`http`, `https`) are refused unless their host
/// is in ``allowedWebHosts``: an attacker-named origin would receive the results appended to it (an open redirect
/// that leaks data). Other app schemes are accepted unless ``allowedSchemes`` narrows them. Callbacks that are
/// themselves x-callback-urls have their own callbacks checked too, down to ``maximumNestingDepth``.
public struct CallbackPolicy: Sendable, Equatable {
    /// Schemes never accepted, whatever the allowlist says.
    public static let forbiddenSchemes: Set<String> = ["javascript", "vbscript", "data", "file", "about", "blob"]

    /// When set, only these schemes (lower case) are accepted; nil accepts any scheme not forbidden.
    public var allowedSchemes: Set<String>?
    /// Hosts `http`/`https` callbacks may point at (lower case); empty: no web callbacks.
    public var allowedWebHosts: Set<String>
    /// The longest callback URL accepted, in UTF-8 bytes.
    public var maximumLength: Int
    /// How many callbacks deep a chain may go (`x-success` is 1, its own `x-success` 2, …).
    public var maximumNestingDepth: Int

    /// Creates a policy; the defaults accept any app scheme, no web callbacks, 4 KiB, 3 levels.
    public init(
        allowedSchemes: Set<String>? = nil,
        allowedWebHosts: Set<String> = [],
        maximumLength: Int = 4096,
        maximumNestingDepth: Int = 3
    ) {
        self.allowedSchemes = allowedSchemes.map { Set($0.map { $0.lowercased() }) }
        self.allowedWebHosts = Set(allowedWebHosts.map { $0.lowercased() })
        self.maximumLength = maximumLength
        self.maximumNestingDepth = maximumNestingDepth
    }

    /// The default policy.
    public static let standard = CallbackPolicy()

    /// Checks one callback URL; `part` names it (`x-success`, …) in the error.
    public func check(_ url: String, part: String) throws(XCallbackURLError) {
        try check(url, part: part, depth: 1)
    }

    func check(_ url: String, part: String, depth: Int) throws(XCallbackURLError) {
        guard url.utf8.count <= maximumLength else {
            throw XCallbackURLError(
                .tooLong,
                part: part,
                "the callback URL has \(url.utf8.count) bytes, more than the \(maximumLength) allowed"
            )
        }
        guard !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw XCallbackURLError(
                .malformedCallback,
                part: part,
                "the callback URL \"\(url.prefix(80))\" contains a control character"
            )
        }
        guard let colon = url.firstIndex(of: ":"), XCallbackRequest.isScheme(url[..<colon]) else {
            throw XCallbackURLError(.malformedCallback, part: part, "\"\(url.prefix(80))\" is not an absolute URL")
        }
        let scheme = url[..<colon].lowercased()
        let rest = url[url.index(after: colon)...]
        if Self.forbiddenSchemes.contains(scheme) {
            throw XCallbackURLError(
                .forbiddenCallbackScheme,
                part: part,
                "callbacks with the scheme \"\(scheme):\" are refused because they could run code or read local data"
            )
        }
        if let allowedSchemes, !allowedSchemes.contains(scheme) {
            throw XCallbackURLError(
                .callbackNotAllowed,
                part: part,
                "the callback scheme \"\(scheme):\" is not in the allowed list"
            )
        }
        if scheme == "http" || scheme == "https" {
            try checkWebHost(rest, part: part)
        }
        try checkNestedCallbacks(rest, part: part, depth: depth)
    }

    /// Web callbacks: the host must be allowed; user info (`https://allowed.example:x@evil.example`) and
    /// backslashes (read as `/` by browsers, not by every parser) could disguise the real host, so they are refused.
    private func checkWebHost(_ rest: Substring, part: String) throws(XCallbackURLError) {
        guard rest.hasPrefix("//"), !rest.contains("\\") else {
            throw XCallbackURLError(
                .callbackNotAllowed,
                part: part,
                "the web callback \"\(rest.prefix(80))\" has no plain //host"
            )
        }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else {
            throw XCallbackURLError(
                .callbackNotAllowed,
                part: part,
                "the web callback host \"\(authority.prefix(80))\" carries user info"
            )
        }
        let host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        guard allowedWebHosts.contains(host.lowercased()) else {
            throw XCallbackURLError(
                .callbackNotAllowed,
                part: part,
                "web callbacks to \"\(host.prefix(80))\" are not allowed (add the host to the policy's allowedWebHosts)"
            )
        }
    }

    /// A callback that is itself an x-callback-url will open its own callbacks later: check them now, one decode
    /// per level, so a chain cannot smuggle `javascript:` two levels down.
    private func checkNestedCallbacks(_ rest: Substring, part: String, depth: Int) throws(XCallbackURLError) {
        guard rest.hasPrefix("//") else { return }
        let afterSlashes = rest.dropFirst(2)
        let host = afterSlashes.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard host.lowercased() == XCallbackRequest.host, let question = afterSlashes.firstIndex(of: "?") else {
            return
        }
        let query = afterSlashes[afterSlashes.index(after: question)...].prefix { $0 != "#" }
        for parameter in try PercentEncoding.pairs(of: query, in: part) {
            let name = parameter.name.lowercased()
            guard XCallbackRequest.callbackKeys.contains(name) else { continue }
            guard depth < maximumNestingDepth else {
                throw XCallbackURLError(
                    .tooDeep,
                    part: "\(part) > \(name)",
                    "callbacks are nested more than \(maximumNestingDepth) levels deep"
                )
            }
            try check(parameter.value ?? "", part: "\(part) > \(name)", depth: depth + 1)
        }
    }
}
