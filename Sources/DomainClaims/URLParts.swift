import WebLinks

/// The path, query and fragment of one link as the AASA matcher reads them, in each of the four ways a component may
/// ask for (as written or percent-decoded, case kept or folded), each made once per link.
struct URLParts {
    /// The path as written (`/` when the link has none).
    let path: String
    /// The query as written, without `?` (nil when the link has none).
    let query: String?
    /// The fragment as written, without `#` (nil when the link has none).
    let fragment: String?

    // One slot per way of reading (``key(_:_:)``): made on first use.
    private var paths = Slots<MatchText>()
    private var queries = Slots<MatchText>()
    private var fragments = Slots<MatchText>()
    private var items = Slots<[String: [MatchText]]>()
    private var values = Slots<ItemValues>()

    /// The parts of a link's canonical text.
    init(_ link: Link) {
        // The canonical text is `scheme://host[:port]` and the rest; the host has no `/`, `?` or `#`.
        var text = link.text
        let skipped = link.scheme.utf8.count + 3
        (path, query, fragment) = text.withUTF8 { bytes in
            var start = min(skipped, bytes.count)
            while start < bytes.count && bytes[start] != UInt8(ascii: "/") && bytes[start] != UInt8(ascii: "?")
                && bytes[start] != UInt8(ascii: "#")
            {
                start += 1
            }
            return Self.split(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// The parts of `rest`, the text after a link's host and port.
    init(afterAuthority rest: Substring) {
        var text = String(rest)
        (path, query, fragment) = text.withUTF8 { Self.split($0) }
    }

    /// Path, query and fragment of the bytes after the authority (`#` and `?` are ASCII, so splitting on bytes keeps
    /// every character whole).
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, String?, String?) {
        let hash = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let mark = bytes[..<hash].firstIndex(of: UInt8(ascii: "?")) ?? hash
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        return (
            mark == 0 ? "/" : text(0..<mark),
            mark < hash ? text(mark + 1..<hash) : nil,
            hash < bytes.count ? text(hash + 1..<bytes.count) : nil
        )
    }

    private static func key(_ decoded: Bool, _ folded: Bool) -> Int { (decoded ? 2 : 0) + (folded ? 1 : 0) }

    /// The scalars of `text`, percent-decoded and case-folded as asked.
    private static func prepare(_ text: some StringProtocol, decoded: Bool, folded: Bool) -> [UInt32] {
        var plain = decoded ? PercentDecoding.decode(String(text)) : String(text)
        let ascii: [UInt32]? = plain.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return [UInt32](unsafeUninitializedCapacity: bytes.count) { buffer, count in
                for (index, byte) in bytes.enumerated() {
                    let upper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                    buffer[index] = UInt32(folded && upper ? byte | 0x20 : byte)
                }
                count = bytes.count
            }
        }
        if let ascii { return ascii }
        var scalars = plain.unicodeScalars.map(\.value)
        if folded {
            for index in scalars.indices { scalars[index] = CaseFolding.fold(scalars[index]) }
        }
        return scalars
    }

    /// The path, without its trailing slashes (`/` and `/buy/` read as `` and `/buy`, as patterns do).
    mutating func path(decoded: Bool, folded: Bool) -> MatchText {
        let key = Self.key(decoded, folded)
        if let cached = paths[key] { return cached }
        var scalars = Self.prepare(path, decoded: decoded, folded: folded)
        while scalars.last == UInt32(UInt8(ascii: "/")) { scalars.removeLast() }
        let made = MatchText(scalars: scalars)
        paths[key] = made
        return made
    }

    /// The whole query (empty when the link has none).
    mutating func query(decoded: Bool, folded: Bool) -> MatchText {
        let key = Self.key(decoded, folded)
        if let cached = queries[key] { return cached }
        let made = MatchText(scalars: Self.prepare(query ?? "", decoded: decoded, folded: folded))
        queries[key] = made
        return made
    }

    /// The fragment (empty when the link has none).
    mutating func fragment(decoded: Bool, folded: Bool) -> MatchText {
        let key = Self.key(decoded, folded)
        if let cached = fragments[key] { return cached }
        let made = MatchText(scalars: Self.prepare(fragment ?? "", decoded: decoded, folded: folded))
        fragments[key] = made
        return made
    }

    /// What the query's item values are like (for ``ComponentFilter``).
    mutating func itemValues(decoded: Bool, folded: Bool) -> ItemValues {
        let key = Self.key(decoded, folded)
        if let cached = values[key] { return cached }
        let made = ItemValues(queryItems(decoded: decoded, folded: folded).values.joined())
        values[key] = made
        return made
    }

    /// The query's items by name: `&`-separated, each cut at its first `=` (a name without `=` has the value ``),
    /// every occurrence of a repeated name kept; names and values decoded and folded separately.
    mutating func queryItems(decoded: Bool, folded: Bool) -> [String: [MatchText]] {
        let key = Self.key(decoded, folded)
        if let cached = items[key] { return cached }
        var made: [String: [MatchText]] = [:]
        let bytes = (query ?? "").utf8
        for item in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let nameScalars = Self.prepare(
                Substring(item[..<(equals ?? item.endIndex)]),
                decoded: decoded,
                folded: folded
            )
            var name = String.UnicodeScalarView()
            for scalar in nameScalars { name.append(Unicode.Scalar(scalar) ?? "\u{FFFD}") }
            let value = equals.map { Substring(item[bytes.index(after: $0)...]) } ?? ""
            made[String(name), default: []].append(
                MatchText(scalars: Self.prepare(value, decoded: decoded, folded: folded))
            )
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
                let high = HexDigit.value(source[index + 1]), let low = HexDigit.value(source[index + 2])
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
}

/// Four optional values, one per way of reading a link part, without an array to allocate.
struct Slots<Value> {
    private var slots: (Value?, Value?, Value?, Value?) = (nil, nil, nil, nil)

    subscript(key: Int) -> Value? {
        get {
            switch key {
            case 0: slots.0
            case 1: slots.1
            case 2: slots.2
            default: slots.3
            }
        }
        set {
            switch key {
            case 0: slots.0 = newValue
            case 1: slots.1 = newValue
            case 2: slots.2 = newValue
            default: slots.3 = newValue
            }
        }
    }
}
