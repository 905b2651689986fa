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
            case UInt8(ascii: " "), UInt8(ascii: "\t") where scheme.isEmpty:
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

    /// Why `url` must not be handed to an app, or nil when it is acceptable.
    public static func problem(with url: String) -> String? {
        // Hot path (every rendered opening): one pass over the bytes; the scheme is only examined when it could be
        // a forbidden one.
        var firstLetter: UInt8 = 0
        for byte in url.utf8 {
            if byte < 0x20 || byte == 0x7F { return "the URL contains a control character" }
            if firstLetter == 0, byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t") { firstLetter = byte | 0x20 }
        }
        guard "jdfva".utf8.contains(firstLetter) else { return nil }
        if let scheme = leadingScheme(of: url), forbiddenSchemes.contains(scheme.lowercased()) {
            return "the URL has the forbidden scheme \"\(scheme):\""
        }
        return nil
    }
}
