/// What a rule may produce: one place that decides which output URLs are refused, for templates at load time and
/// for script results at run time.
public enum OutputSafety {
    /// Schemes a rule must never produce: they run code or read local data in the receiving app.
    public static let forbiddenSchemes: Set<String> = ["javascript", "data", "file", "vbscript", "about"]

    /// The scheme a URL or template starts with (`javascript` in ` javascript:alert($1)`), if it has one.
    public static func leadingScheme(of text: String) -> String? {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = String(trimmed[..<colon])
        return ManifestDecoder.isValidScheme(scheme) ? scheme : nil
    }

    /// Why `url` must not be handed to an app, or nil when it is acceptable.
    public static func problem(with url: String) -> String? {
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the URL contains a control character"
        }
        if let scheme = leadingScheme(of: url), forbiddenSchemes.contains(scheme.lowercased()) {
            return "the URL has the forbidden scheme \"\(scheme):\""
        }
        return nil
    }
}
