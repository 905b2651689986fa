import Foundation

extension Deeplink {
    /// The URL for `value`: the inverse of parsing (arguments percent-encoded, nil properties written as "", a list's
    /// items joined by its separator, written as the template declares it when it is safe to leave bare).
    public func url(for value: Value, scheme: String = "https", host: String = "") -> String {
        var text = ""
        var section = 0  // 0 path, 1 query, 2 fragment: what may stay unescaped differs
        for component in components {
            switch component {
            case .literal(let literal):
                text += literal
                if literal.contains("#") { section = 2 } else if literal.contains("?") { section = max(section, 1) }
            case .argument(let slot):
                let allowed: CharacterSet =
                    slot.extent == .rest && section == 0 ? .urlPathAllowed : Self.argumentAllowed
                text += slot.encoded(value, allowed: allowed)
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

extension Slot {
    /// The argument's text in a URL: each item escaped with `allowed`; a list's items joined by its separator,
    /// written literally when ``separatorIsLiteral`` (its characters are then escaped inside items) and escaped
    /// otherwise.
    func encoded(_ value: Value, allowed: CharacterSet) -> String {
        func escaped(_ text: String, _ allowed: CharacterSet) -> String {
            text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }
        let items = read(value) ?? []
        guard let separator else { return escaped(items.first ?? "", allowed) }
        guard separatorIsLiteral else { return escaped(items.joined(separator: separator), allowed) }
        var itemAllowed = allowed
        itemAllowed.remove(charactersIn: separator)
        return items.map { escaped($0, itemAllowed) }.joined(separator: separator)
    }
}
