import Foundation

extension Deeplink {
    /// The URL for `value`: the inverse of parsing (arguments percent-encoded, nil properties written as "").
    public func url(for value: Value, scheme: String = "https", host: String = "") -> String {
        var text = ""
        var section = 0  // 0 path, 1 query, 2 fragment: what may stay unescaped differs
        for component in components {
            switch component {
            case .literal(let literal):
                text += literal
                if literal.contains("#") { section = 2 } else if literal.contains("?") { section = max(section, 1) }
            case .argument(let slot):
                let raw = slot.read(value) ?? ""
                let allowed: CharacterSet =
                    slot.extent == .rest && section == 0 ? .urlPathAllowed : Self.argumentAllowed
                text += raw.addingPercentEncoding(withAllowedCharacters: allowed) ?? raw
            }
        }
        let resolvedScheme = self.scheme ?? scheme
        let resolvedHost = self.host ?? host
        return "\(resolvedScheme)://\(resolvedHost)\(text.hasPrefix("/") || text.isEmpty ? "" : "/")\(text)"
    }

    /// Unreserved characters only: an argument's `/`, `?`, `#`, `&`, `=` and `+` never change the URL's shape.
    static var argumentAllowed: CharacterSet {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    }
}
