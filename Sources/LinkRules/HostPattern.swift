/// A site as the user layer names it: `example.com` (that host only) or `*.example.com` (every subdomain, not the
/// bare domain: list both to mean both). Compared with the link's canonical host: lower-case ASCII (write
/// internationalised names in their `xn--` form).
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// The host, or the domain under which every subdomain matches, lower-cased.
    public var domain: String
    /// Whether the pattern is `*.domain`.
    public var matchesSubdomains: Bool

    /// Parses `example.com` or `*.example.com`; nil when the text is not a host pattern (empty, a URL, a path, a
    /// `*` elsewhere than a leading `*.`), with ``problem(with:)`` saying why.
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        let lowered = text.lowercased()
        matchesSubdomains = lowered.hasPrefix("*.")
        domain = String(matchesSubdomains ? lowered.dropFirst(2) : lowered[...])
        if domain.hasSuffix(".") { domain.removeLast() }
    }

    /// Why `text` is not a host pattern, or nil when it is one.
    public static func problem(with text: String) -> String? {
        let body = text.hasPrefix("*.") ? text.dropFirst(2) : text[...]
        if body.isEmpty || body == "." {
            return "a host pattern names a host, as in \"example.com\" or \"*.example.com\""
        }
        if body.contains("://") { return "a host pattern is a host, not a URL: write \"example.com\"" }
        if body.contains("*") { return "\"*\" may only begin a host pattern, as in \"*.example.com\"" }
        let forbidden: Set<Character> = ["/", "?", "#", "@", " ", ":", "\\"]
        if let character = body.first(where: { forbidden.contains($0) || $0.isNewline }) {
            return "a host pattern cannot contain \"\(character)\": write only the host, as in \"example.com\""
        }
        return nil
    }

    /// Whether `host` (a link's canonical host) is this site.
    public func matches(host: String) -> Bool {
        let host = host.lowercased()
        guard matchesSubdomains else { return host == domain }
        return Self.host(host, isSubdomainOf: domain)
    }

    /// Whether `host` is a subdomain of `domain` (`www.example.com` of `example.com`; not `badexample.com`, not
    /// `example.com` itself), comparing canonical names byte for byte. The one label-boundary check the user layer's
    /// sites, the remembered site choices (AppChooser) and the cleaner's skipped hosts (LinkCleaning) use.
    public static func host(_ host: String, isSubdomainOf domain: String) -> Bool {
        let host = host.utf8
        let domain = domain.utf8
        guard host.count > domain.count + 1, host.suffix(domain.count).elementsEqual(domain) else { return false }
        return host.dropLast(domain.count).last == UInt8(ascii: ".")
    }

    /// `example.com` or `*.example.com`.
    public var description: String { matchesSubdomains ? "*.\(domain)" : domain }
}

/// The app a link came from, as the user layer names it: a bundle identifier (`com.tinyspeck.chatlyio`), a prefix
/// ending in `.*` (`com.tinyspeck.*`, every identifier under it), or `*` (any app, when one is given). Compared
/// without regard to case.
public struct SourceAppPattern: Sendable, Hashable, CustomStringConvertible {
    /// The identifier, or the prefix before `.*`, lower-cased (empty for `*`).
    public var identifier: String
    /// Whether the pattern ends in `.*` (or is `*`).
    public var matchesDescendants: Bool

    /// Parses a pattern; nil when it is empty or has a `*` elsewhere than a trailing `.*`.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        if lowered == "*" {
            identifier = ""
            matchesDescendants = true
            return
        }
        matchesDescendants = lowered.hasSuffix(".*")
        identifier = String(matchesDescendants ? lowered.dropLast(2) : lowered[...])
        guard !identifier.isEmpty, !identifier.contains("*"), !identifier.contains(where: \.isWhitespace) else {
            return nil
        }
    }

    /// Whether `text` can name the app a link came from (CLI `--source-app`, HTTP `source=`): not empty, at most
    /// 255 UTF-8 bytes (a bundle identifier's limit), no white space.
    public static func isSourceApp(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && !text.contains(where: \.isWhitespace)
    }

    /// Whether an app identifier matches.
    public func matches(_ sourceApp: String) -> Bool {
        let sourceApp = sourceApp.lowercased()
        guard matchesDescendants else { return sourceApp == identifier }
        if identifier.isEmpty { return !sourceApp.isEmpty }
        return sourceApp.hasPrefix(identifier + ".") && sourceApp.count > identifier.count + 1
    }

    /// The pattern as written (lower-cased).
    public var description: String {
        identifier.isEmpty ? "*" : matchesDescendants ? identifier + ".*" : identifier
    }
}
