/// The classes of link every front end (library, HTTP API, CLI) must treat alike: one table, so a case added here
/// is checked through all of them. Links are checked against the bundled rules.
package enum LinkClassCases {
    /// Links refused before any rule sees them, with the code every front end reports.
    package static let refused: [(link: String, code: String)] = [
        // Only web links are resolved.
        ("ftp://example.com/file.txt", "E_NOT_WEB_LINK"),
        ("mailto:jack@example.com", "E_NOT_WEB_LINK"),
        ("javascript:alert(1)", "E_NOT_WEB_LINK"),
        ("twitter://user?screen_name=jack", "E_NOT_WEB_LINK"),
        ("file:///etc/passwd", "E_NOT_WEB_LINK"),
        // Raw text and parsed form could disagree about the host.
        ("https://evil.example\\@twitter.com/jack", "E_BACKSLASH"),
        ("https://twitter.com@evil.example/jack", "E_USERINFO"),
        ("https://%74witter.com/jack", "E_BAD_HOST"),
        // A label that begins `xn--` and is not valid punycode (it decodes to U+0080).
        ("https://xn--a.example/jack", "E_BAD_HOST"),
        ("https://twit\tter.com/jack", "E_CONTROL_CHAR"),
        ("https://twitter.com\n.evil.example/jack", "E_CONTROL_CHAR"),
    ]

    /// Spellings of one link: each gives exactly the openings of the canonical form.
    package static let equivalent: [(variant: String, canonical: String)] = [
        ("HTTPS://TWITTER.COM/jack/status/20", "https://twitter.com/jack/status/20"),
        ("https://twitter.com:443/jack/status/20", "https://twitter.com/jack/status/20"),
        ("https://Twitter.com./jack/status/20", "https://twitter.com/jack/status/20"),
        ("HTTPS://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
    ]

    /// A Google redirect whose value is not valid UTF-8 once decoded: neither the wrapper catalog nor the bundled rules'
    /// redirect rule decodes it, the link stays, and a refused step of each says why (the wrapper's first).
    package static let undecodable = (
        link: "https://www.google.com/url?q=https%3A%2F%2Fa.example%2F%FF", reason: "not valid UTF-8"
    )

    /// A link with invisible format characters (a right-to-left override, a zero-width space) that rules copy into
    /// their URLs: no output may carry them raw.
    package static let spoofing = "https://twitter.com/jack\u{202E}gnp.exe/status/20\u{200B}"

    /// Whether a text carries a raw bidirectional control or zero-width character.
    package static func hasInvisibleFormatCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .format }
    }
}
