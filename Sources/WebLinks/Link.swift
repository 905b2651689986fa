import Foundation

/// A web link in its one canonical form: what every redirect rule, regex, script, fetch and output sees.
///
/// Only the parser makes one (``init(_:maximumLength:)``), so a value of this type has passed every check, and
/// parsing its own ``text`` again gives the same link. The canonical form:
/// - scheme `http` or `https`, lower-cased; other schemes are refused (Switchyard resolves web links);
/// - host lower-cased; international names in punycode, and a label that begins `xn--` refused unless it is valid
///   punycode that converts back to itself (UTS #46, as the WHATWG URL Standard's domain to ASCII requires); WHATWG's
///   IPv4 number forms (`2130706433`, `0x7f.1`) as the dotted address they name; IPv6 compressed; one trailing dot
///   dropped;
/// - the scheme's default port dropped;
/// - in path, query and fragment, the WHATWG URL Standard's percent-encode sets for special schemes: every non-ASCII
///   character (letters, and invisible format characters such as bidirectional controls alike) and, in the path,
///   space, `"`, `<`, `>`, `^`, the backtick, `{` and `}`; in the query, space, `"`, `<`, `>` and `'`; in the
///   fragment, space, `"`, `<`, `>` and the backtick: each written as its UTF-8 bytes percent-encoded
///   (`/straße` → `/stra%C3%9Fe`). Existing escapes, valid or not, and everything else are kept as written. The text
///   is therefore ASCII.
///
/// A link whose text could be read as naming a different host by a browser and by an HTTP client is refused, never
/// matched as one host and fetched as another: backslashes before the query, user names (`user@host`), percent
/// escapes in the host, slashes other than exactly two after the scheme, control characters anywhere. As a last
/// check, Foundation's `URL`, the parser AsyncHTTPClient and URLSession use, must read the canonical text as the same
/// host and port.
public struct Link: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The longest link accepted, in UTF-8 bytes, as written and in its canonical form (browsers and servers commonly
    /// cap near 8 KiB).
    public static let maximumLength = 8192

    /// The canonical text.
    public let text: String
    /// `http` or `https`.
    public let scheme: String
    /// The canonical host: a lower-case ASCII name, a dotted IPv4 address, or a bracketed IPv6 address.
    public let host: String
    /// The port when it is not the scheme's default.
    public let port: Int?

    /// The port a connection uses.
    public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// The host without IPv6 brackets, as a resolver or a socket takes it.
    public var hostName: String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The text as sent on the wire, what the HTTP client is given and what Foundation's `URL` was checked to read as
    /// ``host``: the canonical ``text`` itself, which is ASCII.
    public let requestText: String

    /// The link as text.
    public var description: String { text }

    /// Parses and canonicalises `raw`, trimmed of surrounding ASCII whitespace.
    public init(_ raw: String, maximumLength: Int = Link.maximumLength) throws(LinkError) {
        let parts = try LinkParser(raw, maximumLength: maximumLength).parse()
        text = parts.text
        requestText = parts.requestText
        scheme = parts.scheme
        host = parts.host
        port = parts.port
    }

    /// Resolves a redirect's `Location` (absolute, scheme-relative `//host/x`, or relative `/x`, `../y`) against
    /// the link that sent it, and parses the result like any link.
    ///
    /// The reference is read as the WHATWG URL Standard reads it against a web link, as browsers do: a backslash
    /// before the query is a slash (`\\other.example\x` names other.example), any number of slashes may start the
    /// host (`///other.example`, `https:other.example`), and `http:x` against an http link is the relative `x`; an
    /// empty rest (`http:`) is the link itself, without its fragment. Control characters are refused, never dropped.
    public init(resolving location: String, against base: Link) throws(LinkError) {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        if let problem = LinkParser.firstForbiddenScalar(in: trimmed) {
            throw LinkError(code: .controlCharacter, message: "the location \(problem)")
        }
        let relative: String
        switch LinkParser.reference(trimmed, base: base.scheme) {
        case .absolute(let text):
            try self.init(text)
            return
        case .relative(let text) where text.isEmpty && !trimmed.isEmpty:
            try self.init(String(base.text[..<(base.text.firstIndex(of: "#") ?? base.text.endIndex)]))
            return
        case .relative(let text):
            relative = text
        }
        guard let baseURL = URL(string: base.requestText),
            let resolved = URL(string: relative, relativeTo: baseURL)?.absoluteString
        else {
            throw LinkError(
                code: .notAbsolute,
                message: "the location \"\(LinkParser.preview(trimmed))\" cannot be read as a URL"
            )
        }
        try self.init(resolved)
    }

    /// Decodes a link's text and parses it.
    public init(from decoder: any Decoder) throws {
        self = try Link(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the canonical text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// Two links are equal when their canonical texts are.
    public static func == (lhs: Link, rhs: Link) -> Bool { lhs.text == rhs.text }

    /// Hashes the canonical text.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
