import Foundation

/// Reads a text as a ``Link``: the checks that refuse a link readable as two hosts, then the canonical form, then
/// the agreement check with Foundation's `URL`.
struct LinkParser {
    /// A link's canonical parts.
    struct Parts {
        var text: String
        var requestText: String
        var scheme: String
        var host: String
        var port: Int?
    }

    let raw: String
    let maximumLength: Int

    init(_ raw: String, maximumLength: Int) {
        self.raw = raw
        self.maximumLength = maximumLength
    }

    /// `text` without its leading and trailing spaces, tabs, line feeds, carriage returns and form feeds (in Swift:
    /// Foundation's `trimmingCharacters(in:)` bridged through NSString, 1% of an online resolution).
    static func trimmed(_ text: String) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
        }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return start == scalars.startIndex && end == scalars.endIndex ? text : String(scalars[start..<end])
    }

    func parse() throws(LinkError) -> Parts {
        let link = Self.trimmed(raw)
        guard !link.isEmpty else { throw LinkError(code: .empty, message: "the link is empty") }
        guard link.utf8.count <= maximumLength else {
            throw LinkError.tooLong(byteCount: link.utf8.count, limit: maximumLength)
        }
        if let problem = Self.firstForbiddenScalar(in: link) {
            throw LinkError(code: .controlCharacter, message: "the link \(problem)")
        }
        // Delimiters are found code point by code point, as the WHATWG URL Standard reads them: a `/` followed by a
        // combining mark is one Swift `Character`, and would otherwise hide the end of the host.
        guard let colon = link.unicodeScalars.firstIndex(of: ":"), Self.isScheme(link[..<colon]) else {
            throw missingScheme(link)
        }
        let scheme = link[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw LinkError(
                code: .notWebLink,
                message:
                    "only web links are resolved: the scheme \"\(Self.preview(String(link[..<colon])))\" is not http or https"
            )
        }
        let afterScheme = link[link.unicodeScalars.index(after: colon)...]
        // Browsers read a backslash as a slash in web links, HTTP clients do not: `http://a.com\@b.com/` is a.com in
        // one and b.com in the other. Before the query it is refused; in the query and fragment it is plain text.
        let beforeQuery = afterScheme[
            ..<(afterScheme.unicodeScalars.firstIndex { $0 == "?" || $0 == "#" } ?? afterScheme.endIndex)
        ]
        guard !beforeQuery.unicodeScalars.contains("\\") else {
            throw LinkError(
                code: .backslash,
                message:
                    "\"\(Self.preview(link))\" has a backslash before its query, which browsers read as '/' and HTTP clients do not"
            )
        }
        // Exactly two slashes: browsers skip any number (`http:/a.com`, `http:///a.com` name a.com), Foundation does not.
        guard afterScheme.utf8.starts(with: "//".utf8), !afterScheme.utf8.dropFirst(2).starts(with: "/".utf8) else {
            throw LinkError(
                code: .notAbsolute,
                message: "\"\(Self.preview(link))\" is not scheme://host/…: write exactly two slashes before the host"
            )
        }
        let authorityStart = afterScheme.utf8.index(afterScheme.startIndex, offsetBy: 2)
        let authorityEnd =
            afterScheme[authorityStart...].unicodeScalars.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }
            ?? afterScheme.endIndex
        let authority = afterScheme[authorityStart..<authorityEnd]
        guard !authority.unicodeScalars.contains("@") else {
            throw LinkError(
                code: .userinfo,
                message:
                    "the link has a user name before its host (\"\(Self.preview(String(authority)))\"): the part before '@' can be made to look like the host, so such links are refused"
            )
        }
        let (hostText, portText) = try Self.split(authority)
        let host = try LinkHost.canonical(hostText)
        let port = try Self.port(portText, scheme: scheme)
        let rest = afterScheme[authorityEnd...]
        // All ASCII: the host in punycode, every other non-ASCII character percent-encoded.
        let text = "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(Self.canonicalRest(rest))"
        // Percent-encoding makes a link longer (a non-ASCII character's two to four bytes become six to twelve): the
        // limit holds for the canonical text too, so a link's own text is always accepted again.
        guard text.utf8.count <= maximumLength else {
            throw LinkError.tooLong(byteCount: text.utf8.count, limit: maximumLength, asWritten: link.utf8.count)
        }
        try Self.checkAgreement(text, host: host, port: port, scheme: scheme)
        return Parts(text: text, requestText: text, scheme: scheme, host: host, port: port)
    }

    /// Splits the authority into host and port text; the port starts at the first colon after the host (after the
    /// `]` of an IPv6 literal), as browsers read it: `a.com:http:` has the port `http:`.
    static func split(_ authority: Substring) throws(LinkError) -> (host: Substring, port: Substring?) {
        if authority.unicodeScalars.first == "[" {
            guard let close = authority.unicodeScalars.firstIndex(of: "]") else {
                throw LinkError(
                    code: .badHost,
                    message: "the host \"\(authority)\" opens an IPv6 literal with '[' and never closes it"
                )
            }
            let afterClose = authority.unicodeScalars.index(after: close)
            let host = authority[..<afterClose]
            let after = authority[afterClose...]
            guard after.isEmpty || after.unicodeScalars.first == ":" else {
                throw LinkError(code: .badHost, message: "the host \"\(authority)\" has text after its IPv6 literal")
            }
            return (host, after.isEmpty ? nil : after[after.unicodeScalars.index(after: after.startIndex)...])
        }
        guard let colon = authority.unicodeScalars.firstIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.unicodeScalars.index(after: colon)...])
    }

    /// The port, nil when absent, empty or the scheme's default.
    static func port(_ text: Substring?, scheme: String) throws(LinkError) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        let digits = text.drop { $0 == "0" }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), digits.count <= 5,
            let value = digits.isEmpty ? 0 : Int(digits), value <= 65535
        else {
            throw LinkError(code: .badPort, message: "the port \"\(text)\" is not a number from 0 to 65535")
        }
        return value == (scheme == "https" ? 443 : 80) ? nil : value
    }

    /// Path, query and fragment with the WHATWG URL Standard's percent-encode sets for special schemes (``Part``):
    /// each character in its part's set written as its UTF-8 bytes percent-encoded, everything else as written.
    static func canonicalRest(_ rest: Substring) -> String {
        var output = ""
        output.reserveCapacity(rest.utf8.count)
        var part = Part.path
        for scalar in rest.unicodeScalars {
            if scalar == "?" && part == .path {
                part = .query
                output.unicodeScalars.append(scalar)
                continue
            }
            if scalar == "#" && part != .fragment {
                part = .fragment
                output.unicodeScalars.append(scalar)
                continue
            }
            if part.encodes(scalar) {
                for byte in String(scalar).utf8 { output += String(format: "%%%02X", byte) }
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Where a character is in the link, for the WHATWG URL Standard's percent-encode sets of a special scheme.
    ///
    /// Every set holds the C0 controls and every code point above U+007E (controls and DEL are refused before; any
    /// other non-ASCII character, letters and invisible format characters alike, is encoded), and:
    /// - the path percent-encode set: space, `"`, `#`, `<`, `>`, `?`, `^`, `` ` ``, `{`, `}`;
    /// - the special-query percent-encode set: space, `"`, `#`, `<`, `>`, `'`;
    /// - the fragment percent-encode set: space, `"`, `<`, `>`, `` ` ``.
    ///
    /// (`?` and `#` never reach the test inside the part they end.) `%` is in no set: existing escapes, valid or not,
    /// are kept as written.
    enum Part {
        case path
        case query
        case fragment

        func encodes(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.isASCII else { return true }
            switch scalar {
            case " ", "\"", "<", ">": return true
            case "`": return self != .query
            case "{", "}", "^": return self == .path
            case "'": return self == .query
            default: return false
            }
        }
    }

    /// Foundation's `URL` is what AsyncHTTPClient (and URLSession) parse a request with: it must read the same host and
    /// port, or the link could be matched as one host and fetched as another.
    static func checkAgreement(_ text: String, host: String, port: Int?, scheme: String) throws(LinkError) {
        guard let url = URL(string: text), let parsedHost = url.host else {
            throw LinkError(
                code: .ambiguousHost,
                message: "\"\(preview(text))\" cannot be read by the HTTP client's URL parser"
            )
        }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let defaultPort = scheme == "https" ? 443 : 80
        guard parsedHost.lowercased() == bare, (url.port ?? defaultPort) == (port ?? defaultPort) else {
            throw LinkError(
                code: .ambiguousHost,
                message:
                    "the HTTP client's URL parser reads \"\(preview(text))\" as the host \"\(parsedHost)\", not \"\(bare)\""
            )
        }
    }

    /// Control characters are refused anywhere: C0 and C1 controls, DEL, and the line and paragraph separators.
    static func firstForbiddenScalar(in text: String) -> String? {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            let value = scalar.value
            if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
                let hex = String(value, radix: 16, uppercase: true)
                return
                    "contains the control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex) at character \(offset + 1)"
            }
        }
        return nil
    }

    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    static func preview(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(77)) + "…" : text
    }
}
