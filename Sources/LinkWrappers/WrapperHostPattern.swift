/// A host a wrapper lives on, as the catalog writes it, compared with a link's canonical host (lower-case ASCII,
/// international names in punycode) label by label:
/// - `urldefense.com`: that host only;
/// - `*.trendmicro.com`: any host under it (one or more labels before it), not the bare domain;
/// - `protect-*.mimecast.com`: a `*` inside a label stands for one or more characters of that label;
/// - `www.google.{tld}`: `{tld}`, last, stands for a top-level domain (one label of letters, such as `com` or `de`)
///   or `co.` or `com.` before a two-letter country code (`co.uk`, `com.au`).
///
/// A look-alike host is not matched: `safelinks.protection.outlook.com.evil.example` has labels after the pattern's,
/// and `google.com.evil.example` has three where `{tld}` takes one or two.
public struct WrapperHostPattern: Sendable, Hashable, CustomStringConvertible {
    /// One label of a pattern.
    enum Label: Sendable, Hashable {
        /// That label exactly.
        case literal(String)
        /// A label that starts with `prefix` and ends with `suffix`, with at least one character between.
        case glob(prefix: String, suffix: String)
        /// A leading `*`: one or more labels.
        case anyLabels
        /// A trailing `{tld}`.
        case topLevelDomain
    }

    /// The pattern as written (lower-cased).
    public let description: String
    /// The labels, left to right.
    let labels: [Label]

    /// Parses a pattern; nil when ``problem(with:)`` finds one.
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        description = text.lowercased()
        let parts = description.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        labels = parts.map { part in
            if part == "*" { return .anyLabels }
            if part == "{tld}" { return .topLevelDomain }
            if let star = part.firstIndex(of: "*") {
                return .glob(prefix: String(part[..<star]), suffix: String(part[part.index(after: star)...]))
            }
            return .literal(part)
        }
    }

    /// The host when the pattern names one host exactly, for the catalog's index.
    var exactHost: String? {
        labels.allSatisfy { if case .literal = $0 { true } else { false } } ? description : nil
    }

    /// Why `text` is not a host pattern, or nil when it is one.
    public static func problem(with text: String) -> String? {
        let lowered = text.lowercased()
        if lowered.isEmpty { return "a host pattern cannot be empty: write a host such as \"urldefense.com\"" }
        if lowered.contains("://") || lowered.contains("/") {
            return "a host pattern is a host, not a URL or a path: write the host alone, as in \"urldefense.com\""
        }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        var literals = 0
        for (index, part) in parts.enumerated() {
            if part.isEmpty { return "\"\(text)\" has an empty label (two dots, or a dot at an end)" }
            if part == "*" {
                guard index == 0 else { return "\"*\" alone may only be the first label, as in \"*.example.com\"" }
                continue
            }
            if part == "{tld}" {
                guard index == parts.count - 1, index > 0 else {
                    return "\"{tld}\" may only be the last label after a name, as in \"www.google.{tld}\""
                }
                continue
            }
            let stars = part.count { $0 == "*" }
            if stars > 1 { return "the label \"\(part)\" has more than one \"*\"" }
            if let bad = part.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "*")) })
            {
                return
                    "the label \"\(part)\" contains \"\(bad)\": a host pattern has ASCII letters, digits, \"-\" and \"*\" (write international names in their xn-- form)"
            }
            if stars == 0 { literals += 1 }
        }
        if literals == 0 {
            return "\"\(text)\" names no host: a pattern needs at least one label without \"*\" or \"{tld}\""
        }
        return nil
    }

    /// Whether `host`, a link's canonical host, is one of the pattern's.
    public func matches(host: String) -> Bool {
        matches(labels: host.split(separator: ".", omittingEmptySubsequences: false))
    }

    /// Whether the host made of `hostLabels` is one of the pattern's.
    func matches(labels hostLabels: [Substring]) -> Bool {
        Self.match(labels[...], hostLabels[...])
    }

    /// Matches from the right: `{tld}` takes one or two labels, a leading `*` one or more, every other label one.
    private static func match(_ pattern: ArraySlice<Label>, _ host: ArraySlice<Substring>) -> Bool {
        guard let last = pattern.last else { return host.isEmpty }
        switch last {
        case .anyLabels:
            // Only ever first: what is left of the host must be at least one label.
            return !host.isEmpty
        case .topLevelDomain:
            guard let top = host.last else { return false }
            if isTopLevelLabel(top), match(pattern.dropLast(), host.dropLast()) { return true }
            guard host.count >= 2, top.count == 2, isLetters(top),
                ["co", "com"].contains(host[host.endIndex - 2])
            else { return false }
            return match(pattern.dropLast(), host.dropLast(2))
        case .literal(let label):
            guard let top = host.last, top == label else { return false }
            return match(pattern.dropLast(), host.dropLast())
        case .glob(let prefix, let suffix):
            guard let top = host.last, top.count > prefix.count + suffix.count, top.hasPrefix(prefix),
                top.hasSuffix(suffix)
            else { return false }
            return match(pattern.dropLast(), host.dropLast())
        }
    }

    private static func isTopLevelLabel(_ label: Substring) -> Bool {
        label.count >= 2 && isLetters(label)
    }

    private static func isLetters(_ label: Substring) -> Bool {
        label.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }
}
