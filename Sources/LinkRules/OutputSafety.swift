/// What a rule may produce: one place that decides which output URLs are refused, for templates at load time and
/// for script results at run time.
public enum OutputSafety {
    /// Schemes a rule must never produce: they run code or read local data in the receiving app.
    public static let forbiddenSchemes: Set<String> = ["javascript", "data", "file", "vbscript", "about"]

    /// The scheme a URL or template starts with (`javascript` in ` javascript:alert($1)`), if it has one.
    public static func leadingScheme(of text: String) -> String? {
        var scheme: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "),
                UInt8(ascii: "\t") where scheme.isEmpty:
                continue
            case UInt8(ascii: ":"):
                return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                scheme.append(byte)
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard !scheme.isEmpty else { return nil }
                scheme.append(byte)
            default:
                return nil
            }
        }
        return nil
    }

    /// Whether `url` could begin with a forbidden scheme (cheap: looks at the first letter only).
    @inlinable
    public static func mayStartWithForbiddenScheme(_ url: String) -> Bool {
        guard let first = url.utf8.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else {
            return false
        }
        switch first | 0x20 {
        case UInt8(ascii: "j"), UInt8(ascii: "d"), UInt8(ascii: "f"), UInt8(ascii: "v"), UInt8(ascii: "a"): return true
        default: return false
        }
    }

    /// `url` as it may be handed out: invisible format characters (bidirectional controls such as U+202E, which would
    /// show `moc.elgoog` as `google.com`, and zero-width characters) percent-encoded, so what a person sees is what the
    /// app gets; and why it must not be handed out at all, if it must not.
    public static func vetted(_ url: String) -> (url: String, problem: String?) {
        var url = url
        // Hot path (every rendered opening): one pass over the bytes, no allocation unless something is there.
        var control = false
        var nonASCII = false
        url.withUTF8 { buffer in
            for byte in buffer {
                if byte < 0x20 || byte == 0x7F { control = true } else if byte >= 0x80 { nonASCII = true }
            }
        }
        if control { return (url, "the URL contains a control character") }
        if nonASCII { url = visible(url) }
        return (url, forbiddenScheme(of: url))
    }

    /// `url` with every invisible format character (Unicode category Cf) percent-encoded as UTF-8.
    public static func visible(_ url: String) -> String {
        // No ASCII character is a format character: most links need no look at their scalars' properties (which
        // cost 6% of a loaded server's time when every script output and every shown input went through them).
        var bytes = url
        if bytes.withUTF8({ $0.allSatisfy { $0 < 0x80 } }) { return url }
        guard url.unicodeScalars.contains(where: { $0.properties.generalCategory == .format }) else { return url }
        var output = ""
        output.reserveCapacity(url.utf8.count + 16)
        for scalar in url.unicodeScalars {
            guard scalar.properties.generalCategory == .format else {
                output.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 {
                output +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return output
    }

    /// Why `url` must not be handed to an app, or nil when it is acceptable.
    public static func problem(with url: String) -> String? {
        // Hot path (every rendered opening): one pass over the bytes, no allocation unless something is wrong.
        var url = url
        let hasControl = url.withUTF8 { buffer in buffer.contains { $0 < 0x20 || $0 == 0x7F } }
        if hasControl { return "the URL contains a control character" }
        return forbiddenScheme(of: url)
    }

    /// Why `url` starts with a forbidden scheme, or nil.
    private static func forbiddenScheme(of url: String) -> String? {
        guard mayStartWithForbiddenScheme(url) else { return nil }
        var bytes = url.utf8[...]
        while let first = bytes.first, first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        for scheme in forbiddenSchemePrefixes where bytes.count >= scheme.count {
            if zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 || ($0 == $1) }) {
                return "the URL has the forbidden scheme \"\(String(decoding: scheme.dropLast(), as: UTF8.self)):\""
            }
        }
        return nil
    }

    /// `javascript:` … as lower-case bytes with the colon.
    private static let forbiddenSchemePrefixes: [[UInt8]] = forbiddenSchemes.sorted().map { Array(($0 + ":").utf8) }
}
