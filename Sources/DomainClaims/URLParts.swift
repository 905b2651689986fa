import WebLinks

/// The path, query and fragment of one link as the AASA matcher reads them, in each of the four ways a component may
/// ask for (as written or percent-decoded, case kept or folded), each made once per link.
final class URLParts {
    /// The path as written (`/` when the link has none).
    let path: String
    /// The query as written, without `?` (nil when the link has none).
    let query: String?
    /// The fragment as written, without `#` (nil when the link has none).
    let fragment: String?

    private var paths: [Int: MatchText] = [:]
    private var queries: [Int: MatchText] = [:]
    private var fragments: [Int: MatchText] = [:]
    private var items: [Int: [String: [MatchText]]] = [:]

    /// The parts of a link's canonical text.
    convenience init(_ link: Link) {
        // The canonical text is `scheme://host[:port]` and the rest; the host has no `/`, `?` or `#`.
        let afterScheme = link.text.utf8.dropFirst(link.scheme.utf8.count + 3)
        let rest = Substring(link.text)[afterScheme.startIndex...]
        self.init(afterAuthority: rest[(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)...])
    }

    /// The parts of `rest`, the text after a link's host and port.
    init(afterAuthority rest: Substring) {
        var remainder = rest
        var fragment: String?
        if let hash = remainder.firstIndex(of: "#") {
            fragment = String(remainder[remainder.index(after: hash)...])
            remainder = remainder[..<hash]
        }
        var query: String?
        if let mark = remainder.firstIndex(of: "?") {
            query = String(remainder[remainder.index(after: mark)...])
            remainder = remainder[..<mark]
        }
        path = remainder.isEmpty ? "/" : String(remainder)
        self.query = query
        self.fragment = fragment
    }

    private static func key(_ decoded: Bool, _ folded: Bool) -> Int { (decoded ? 2 : 0) + (folded ? 1 : 0) }

    private static func prepare(_ text: String, decoded: Bool, folded: Bool) -> String {
        let plain = decoded ? PercentDecoding.decode(text) : text
        return folded ? CaseFolding.fold(plain) : plain
    }

    /// The path, without its trailing slashes (`/` and `/buy/` read as `` and `/buy`, as patterns do).
    func path(decoded: Bool, folded: Bool) -> MatchText {
        let key = Self.key(decoded, folded)
        if let cached = paths[key] { return cached }
        var text = Substring(Self.prepare(path, decoded: decoded, folded: folded))
        while text.hasSuffix("/") { text = text.dropLast() }
        let made = MatchText(String(text))
        paths[key] = made
        return made
    }

    /// The whole query (empty when the link has none).
    func query(decoded: Bool, folded: Bool) -> MatchText {
        let key = Self.key(decoded, folded)
        if let cached = queries[key] { return cached }
        let made = MatchText(Self.prepare(query ?? "", decoded: decoded, folded: folded))
        queries[key] = made
        return made
    }

    /// The fragment (empty when the link has none).
    func fragment(decoded: Bool, folded: Bool) -> MatchText {
        let key = Self.key(decoded, folded)
        if let cached = fragments[key] { return cached }
        let made = MatchText(Self.prepare(fragment ?? "", decoded: decoded, folded: folded))
        fragments[key] = made
        return made
    }

    /// The query's items by name: `&`-separated, each cut at its first `=` (a name without `=` has the value ``),
    /// every occurrence of a repeated name kept; names and values decoded and folded separately.
    func queryItems(decoded: Bool, folded: Bool) -> [String: [MatchText]] {
        let key = Self.key(decoded, folded)
        if let cached = items[key] { return cached }
        var made: [String: [MatchText]] = [:]
        for item in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let equals = item.firstIndex(of: "=")
            let name = Self.prepare(String(item[..<(equals ?? item.endIndex)]), decoded: decoded, folded: folded)
            let value = equals.map { String(item[item.index(after: $0)...]) } ?? ""
            made[name, default: []].append(MatchText(Self.prepare(value, decoded: decoded, folded: folded)))
        }
        items[key] = made
        return made
    }
}

/// Percent-decoding of a URL part when a component says `"percentEncoded": false`.
enum PercentDecoding {
    /// `text` with every `%XX` escape decoded as UTF-8; text whose escapes do not decode to valid UTF-8, or a `%`
    /// not followed by two hex digits, is left as written there.
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
                let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
