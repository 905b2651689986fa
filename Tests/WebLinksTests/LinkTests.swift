import LinkMatching
import LinkResolver
import Testing
import WebLinks

/// The input-link normaliser: what it refuses, and that normalising an accepted link again changes nothing.
@Suite struct LinkTests {
    @Test(arguments: [
        ("https://Twitter.COM./jack", "https://twitter.com/jack"),
        ("  https://example.com/42  ", "https://example.com/42"),
        ("https://example.com:/x", "https://example.com/x"),
        ("https://user@Example.com:8080/a?b#c", "https://user@example.com:8080/a?b#c"),
        ("https://[::1]:8080/", "https://[::1]:8080/"),
        ("https://tést.com/a", "https://xn--tst-bma.com/a"),
        // An ideographic full stop becomes a dot in the conversion: the trailing one is dropped after it.
        ("https://tést.com\u{3002}/a", "https://xn--tst-bma.com/a"),
        ("mailto:Someone@Example.com", "mailto:Someone@Example.com"),
    ])
    func normalisesToAFixedPoint(raw: String, expected: String) throws {
        let normalized = try Link(raw).text
        #expect(normalized == expected)
        #expect(try Link(normalized).text == normalized)
    }

    /// Found by the link-input fuzzer: each was accepted, and normalising the result again changed it or refused it.
    @Test(arguments: [
        // Dropping one trailing dot left another, which the next normalisation dropped.
        ("https://twitter.com../jack", LinkError.Code.badHost),
        // Split at the last colon, "http" became part of the host and the empty port passed.
        ("https://twitter.com:http:/jack", .badPort),
        ("https://a.com:1:2/", .badPort),
        // Ports after an IPv6 literal were not checked at all.
        ("https://[::1]:99999/", .badPort),
        // URL.host decoded the escape, leaving an upper-case letter (or a space) in the "punycode" host.
        ("https://é%41.com/", .badHost),
        ("https://é%20x.com/", .badHost),
        // Dropping the trailing dot left the link ending in a space, which the next normalisation trimmed.
        ("http://[ .", .badHost),
        ("https://a b.com/", .badHost),
    ])
    func refusesHostsAndPortsThatDoNotNormaliseStably(raw: String, code: LinkError.Code) {
        let error = #expect(throws: LinkError.self) { try Link(raw).text }
        #expect(error?.code == code)
    }
}
