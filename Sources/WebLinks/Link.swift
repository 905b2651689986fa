import Foundation

/// A link in its canonical form: what every rule, script and fetch sees. Only the normaliser (``init(_:maximumLength:)``)
/// makes one, so a value of this type has passed its checks.
///
/// Why here, first: a raw newline would let a caller forge the `URL + "\n" + headers JSON` input of `headers`
/// rules (Swift's `URL(string:)` percent-encodes it instead of failing), an over-long link would make regexes
/// slow, and two spellings of one host (Unicode and punycode, a trailing dot) must match the same rules.
public struct Link: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The longest link accepted, in UTF-8 bytes (browsers and servers commonly cap near 8 KiB).
    public static let maximumLength = 8192

    /// The canonical text.
    public let text: String

    /// The link as text.
    public var description: String { text }

    /// Normalises `raw`: trimmed of ASCII whitespace; for http(s), the host in lower case, in punycode, without a
    /// trailing dot. Everything else (path, query, invalid escapes such as `%zz`) is passed through unchanged.
    /// Normalising a link's own text gives the same link.
    public init(_ raw: String, maximumLength: Int = Link.maximumLength) throws(LinkError) {
        text = try Self.normalize(raw, maximumLength: maximumLength)
    }

    /// Decodes a link's text and normalises it.
    public init(from decoder: any Decoder) throws {
        self = try Link(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the canonical text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    private static func normalize(_ raw: String, maximumLength: Int) throws(LinkError) -> String {
        let link = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r\u{0C}"))
        guard !link.isEmpty else { throw LinkError(code: .empty, message: "the link is empty") }
        guard link.utf8.count <= maximumLength else {
            throw LinkError(
                code: .tooLong,
                message: "the link has \(link.utf8.count) bytes, more than the limit of \(maximumLength)"
            )
        }
        if let offset = link.unicodeScalars.firstIndex(where: isForbidden) {
            let position = link.unicodeScalars.distance(from: link.unicodeScalars.startIndex, to: offset)
            let value = String(link.unicodeScalars[offset].value, radix: 16, uppercase: true)
            throw LinkError(
                code: .controlCharacter,
                message: "the link contains the control character U+\(value) at character \(position + 1)"
            )
        }
        guard let colon = link.firstIndex(of: ":"), isScheme(link[..<colon]) else {
            throw LinkError(
                code: .notAbsolute,
                message: "\"\(preview(link))\" is not an absolute URL: it needs a scheme such as https:"
            )
        }
        let scheme = link[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return link }
        return try normalizeWeb(link, schemeEnd: colon)
    }

    /// http(s) links: authority checks and the canonical host form.
    private static func normalizeWeb(_ link: String, schemeEnd: String.Index) throws(LinkError) -> String {
        let afterScheme = link[link.index(after: schemeEnd)...]
        guard afterScheme.hasPrefix("//") else {
            throw LinkError(code: .notAbsolute, message: "\"\(preview(link))\" has no host: write scheme://host/…")
        }
        let authorityStart = afterScheme.index(afterScheme.startIndex, offsetBy: 2)
        let authorityEnd =
            afterScheme[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[authorityStart..<authorityEnd]
        let atSigns = authority.count { $0 == "@" }
        guard atSigns <= 1 else {
            throw LinkError(
                code: .userinfo,
                message: "the authority \"\(authority)\" has \(atSigns) '@' signs, so its real host is ambiguous"
            )
        }
        let userinfo = atSigns == 1 ? authority[..<(authority.firstIndex(of: "@") ?? authority.startIndex)] + "@" : ""
        var hostPort =
            atSigns == 1
            ? authority[authority.index(after: authority.firstIndex(of: "@") ?? authority.startIndex)...] : authority
        var port = ""
        // The port starts at the first colon after the host (after the `]` of an IPv6 literal), as browsers read
        // it: `a.com:http:` has the port `http:`, not the host `a.com:http` with an empty port.
        let hostEnd =
            hostPort.hasPrefix("[") ? (hostPort.firstIndex(of: "]") ?? hostPort.endIndex) : hostPort.startIndex
        if let portColon = hostPort[hostEnd...].firstIndex(of: ":") {
            port = String(hostPort[hostPort.index(after: portColon)...])
            hostPort = hostPort[..<portColon]
            guard
                port.isEmpty
                    || (port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber) && (Int(port) ?? 70000) <= 65535)
            else {
                throw LinkError(code: .badPort, message: "the port \"\(port)\" is not a number from 0 to 65535")
            }
        }
        // Hosts are case-insensitive; rules are written in lower case.
        var host = hostPort.lowercased()
        guard !host.isEmpty else {
            throw LinkError(code: .notAbsolute, message: "\"\(preview(link))\" has an empty host")
        }
        // No host has a space (browsers refuse one), and dropping a trailing dot after it would leave the link
        // ending in whitespace, which the next normalisation would trim.
        guard !host.contains(" ") else {
            throw LinkError(code: .badHost, message: "the host \"\(hostPort)\" contains a space")
        }
        if !host.allSatisfy(\.isASCII) {
            // One host form everywhere: punycode, as URL.host gives it, so a look-alike Unicode host never
            // matches the ASCII rules of the service it imitates. URL.host also decodes percent-escapes (`%41`
            // would become `A`, `%20` a space), so a host that mixes them with non-ASCII letters is refused.
            guard !host.contains("%"), let ascii = URL(string: "http://\(host)/")?.host, ascii.allSatisfy(\.isASCII)
            else {
                throw LinkError(
                    code: .badHost,
                    message: "the host \"\(host)\" is not a valid international domain name"
                )
            }
            host = ascii
        }
        // After the conversion, which maps an ideographic full stop (`。`) to a dot.
        if host.hasSuffix(".") && host.count > 1 {
            host.removeLast()
            // One trailing dot is the DNS root; another one would be an empty label, which no resolver accepts (and
            // dropping it too would make a second normalisation change the link again).
            guard !host.hasSuffix(".") else {
                throw LinkError(
                    code: .badHost,
                    message: "the host \"\(hostPort)\" ends with an empty label (two trailing dots)"
                )
            }
        }
        let rest = afterScheme[authorityEnd...]
        return "\(link[...schemeEnd])//\(userinfo)\(host)\(port.isEmpty ? "" : ":" + port)\(rest)"
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    private static func preview(_ link: String) -> String {
        link.count > 80 ? String(link.prefix(77)) + "…" : link
    }
}

/// Why a link was refused before matching.
public struct LinkError: Error, Sendable, Equatable, CustomStringConvertible, Codable {
    /// The kind of problem (codes as in the hostile-input catalogue).
    public enum Code: String, Sendable, Codable {
        /// Empty, or only ASCII white space.
        case empty = "E_EMPTY_INPUT"
        /// Longer than the maximum length (``Link/maximumLength`` unless the caller gives another), in UTF-8 bytes.
        case tooLong = "E_TOO_LONG"
        /// A control character (C0, DEL, C1) or a Unicode line or paragraph separator.
        case controlCharacter = "E_CONTROL_CHAR"
        /// No scheme, or an http(s) link without a host.
        case notAbsolute = "E_NOT_ABSOLUTE"
        /// More than one `@` in the authority, so the real host is ambiguous.
        case userinfo = "E_USERINFO"
        /// A port that is not a number from 0 to 65535.
        case badPort = "E_BAD_PORT"
        /// A host with a space, an invalid international name, or two trailing dots.
        case badHost = "E_BAD_HOST"
    }

    /// The kind of problem.
    public var code: Code
    /// One sentence naming the problem.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `message [code]`.
    public var description: String { "\(message) [\(code.rawValue)]" }

    private enum CodingKeys: String, CodingKey { case code, message }
}
