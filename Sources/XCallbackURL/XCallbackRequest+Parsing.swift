/// Reading a received x-callback-url.
extension XCallbackRequest {
    /// Parses an x-callback-url, decoding each value exactly once; callbacks are checked against `policy`.
    ///
    /// The host is matched without regard to case (`X-Callback-URL`), values are split on their first `=`, a
    /// repeated `x-source`/`x-success`/`x-error`/`x-cancel` is refused (which one wins differs between libraries,
    /// so an attacker could pick), and other `x-` parameters, reserved for future versions of the spec, are
    /// ignored. A fragment is not part of the request.
    public init(parsing url: String, policy: CallbackPolicy = .standard) throws(XCallbackURLError) {
        // A raw newline could forge structure in whatever logs or forwards the URL; valid URLs never carry one.
        guard !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw XCallbackURLError(.badEncoding, part: "url", "\"\(url.prefix(80))\" contains a raw control character")
        }
        guard let colon = url.firstIndex(of: ":"), Self.isScheme(url[..<colon]) else {
            throw XCallbackURLError(
                .notXCallbackURL,
                part: "scheme",
                "\"\(url.prefix(80))\" does not start with a URL scheme"
            )
        }
        let scheme = String(url[..<colon])
        var rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else {
            throw XCallbackURLError(
                .notXCallbackURL,
                part: "host",
                "\"\(url.prefix(80))\" has no //x-callback-url host"
            )
        }
        rest = rest.dropFirst(2)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let beforeQuery = rest.prefix { $0 != "?" }
        let query = rest.dropFirst(beforeQuery.count + 1)
        let host = beforeQuery.prefix { $0 != "/" }
        guard host.lowercased() == Self.host else {
            throw XCallbackURLError(
                .notXCallbackURL,
                part: "host",
                "the host is \"\(host.prefix(80))\", not \"x-callback-url\""
            )
        }
        let rawAction = beforeQuery.dropFirst(host.count + 1)
        guard let action = PercentEncoding.decode(rawAction) else {
            throw XCallbackURLError(
                .badEncoding,
                part: "action",
                "the action \"\(rawAction.prefix(80))\" has an invalid percent escape"
            )
        }
        var callbacks: [String: String] = [:]
        var parameters: [Parameter] = []
        for parameter in try PercentEncoding.pairs(of: query, in: "query") {
            let key = parameter.name.lowercased()
            guard key.hasPrefix("x-") else {
                parameters.append(parameter)
                continue
            }
            guard Self.reservedKeys.contains(key) else { continue }
            guard callbacks[key] == nil else {
                throw XCallbackURLError(
                    .duplicateParameter,
                    part: key,
                    "\(key) appears more than once, so which value applies is ambiguous"
                )
            }
            let value = parameter.value ?? ""
            if Self.callbackKeys.contains(key) { try policy.check(value, part: key) }
            callbacks[key] = value
        }
        try self.init(
            scheme: scheme,
            action: action,
            source: callbacks["x-source"],
            success: callbacks["x-success"],
            error: callbacks["x-error"],
            cancel: callbacks["x-cancel"],
            parameters: parameters
        )
    }
}
