// Text without a scheme that reads as a host and an optional path, query or fragment (`twitter.com/jack/status/20`)
// is refused like any text without one, with the `https://` link it probably stands for: in the message, which the
// CLI and the HTTP API show, and as ``LinkError/suggestion``, for front ends that offer it.

extension LinkParser {
    /// The refusal of a text with no scheme, with a suggestion when the text reads as a host and a path.
    func missingScheme(_ link: String) -> LinkError {
        guard let suggestion = suggestedLink(for: link) else {
            return LinkError(
                code: .notAbsolute,
                message: "\"\(Self.preview(link))\" is not an absolute URL: it needs a scheme such as https:"
            )
        }
        return LinkError(
            code: .notAbsolute,
            message:
                "\"\(Self.preview(link))\" is not an absolute URL: it needs a scheme such as https; did you mean \"\(Self.preview(suggestion))\"?",
            suggestion: suggestion
        )
    }

    /// `https://` and the text (after a leading `//`), when the text reads as a host followed by nothing, a path, a
    /// query or a fragment, has no white space (a sentence is not a link without its scheme), and the result is a link
    /// the parser accepts; nil otherwise.
    func suggestedLink(for text: String) -> String? {
        let rest = text.hasPrefix("//") ? text.dropFirst(2) : Substring(text)
        guard !rest.contains(where: \.isWhitespace) else { return nil }
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard Self.readsAsHost(rest[..<hostEnd]) else { return nil }
        let suggestion = "https://" + rest
        guard (try? LinkParser(suggestion, maximumLength: maximumLength).parse()) != nil else { return nil }
        return suggestion
    }

    /// A dotted name whose last label is a top-level domain (two letters or more, or punycode), a dotted-quad IPv4
    /// address, or a bracketed IPv6 literal; one trailing dot allowed. (A port is not: `example.com:8080` reads as
    /// the scheme `example.com`.)
    static func readsAsHost(_ host: Substring) -> Bool {
        if host.hasPrefix("[") { return host.count > 2 && host.hasSuffix("]") }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 2, labels.last?.isEmpty == true { labels.removeLast() }
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return false }
        let isDecimal = { (label: Substring) in label.count <= 3 && label.allSatisfy { ("0"..."9").contains($0) } }
        if labels.count == 4, labels.allSatisfy(isDecimal) { return true }
        guard let last = labels.last,
            last.lowercased().hasPrefix("xn--") || (last.count >= 2 && last.allSatisfy(\.isLetter))
        else { return false }
        return labels.allSatisfy { label in label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }
    }
}
