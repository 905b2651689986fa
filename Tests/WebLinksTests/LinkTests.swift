import Foundation
import Testing
import WebLinks

/// The input-link normaliser: what it refuses, and that normalising an accepted link again changes nothing.
@Suite struct LinkTests {
    @Test(arguments: [
        ("https://Twitter.COM./jack", "https://twitter.com/jack"),
        ("  https://example.com/42  ", "https://example.com/42"),
        ("https://example.com:/x", "https://example.com/x"),
        ("https://Example.com:8080/a?b#c", "https://example.com:8080/a?b#c"),
        ("https://[::1]:8080/", "https://[::1]:8080/"),
        ("https://tést.com/a", "https://xn--tst-bma.com/a"),
        // An ideographic full stop becomes a dot in the conversion: the trailing one is dropped after it.
        ("https://tést.com\u{3002}/a", "https://xn--tst-bma.com/a"),
        ("HTTPS://EXAMPLE.COM/Path", "https://example.com/Path"),
        // A combining mark after a delimiter: the delimiter still ends the host (code points, not Swift characters).
        ("https://a.com/\u{349}x", "https://a.com/%CD%89x"),
        ("https://a.com?\u{349}=1", "https://a.com?%CD%89=1"),
        ("https://a.com#\u{301}", "https://a.com#%CC%81"),
        ("https://a.com:8080/\u{301}", "https://a.com:8080/%CC%81"),
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
        // A combining mark after '/' made the host run on into the path, with its non-ASCII character, so Foundation
        // converted it and passed its invalid `xn--` label through; the ASCII result was refused when read again.
        ("http://xn--gNa;b/\u{349}St", .badHost),
        ("http://xn--a;b.\u{e9}.com/", .badHost),
        // The same marks after '@', '\\' and ':' are still those characters.
        ("https://evil.com@\u{349}good.com/", .userinfo),
        ("https://a.com\\\u{349}@b.com/", .backslash),
        ("https://[::1]:\u{349}80/", .badPort),
        // After ']', the mark is text after the literal, not part of it.
        ("https://[::1]\u{349}:80/", .badHost),
    ])
    func refusesHostsAndPortsThatDoNotNormaliseStably(raw: String, code: LinkError.Code) {
        let error = #expect(throws: LinkError.self) { try Link(raw).text }
        #expect(error?.code == code)
    }

    // MARK: One canonical link (issue 19)

    @Test(arguments: [
        // Scheme and host lower-cased, the path keeps its case; the default port dropped.
        ("HTTPS://EXAMPLE.COM:443/Path?Q=A#F", "https://example.com/Path?Q=A#F"),
        ("http://Example.com:80/x", "http://example.com/x"),
        ("http://example.com:0080/x", "http://example.com/x"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        // International hosts in punycode.
        ("https://Bücher.DE/Straße", "https://xn--bcher-kva.de/Stra%C3%9Fe"),
        // WHATWG's IPv4 number forms name the dotted address the network connects to.
        ("http://2130706433/a", "http://127.0.0.1/a"),
        ("http://0x7f.1/a", "http://127.0.0.1/a"),
        ("http://0177.0.0.1/a", "http://127.0.0.1/a"),
        ("http://192.0x00A80001/", "http://192.168.0.1/"),
        // IPv6 compressed as WHATWG serialises it.
        ("https://[0:0:0:0:0:0:0:1]:8080/x", "https://[::1]:8080/x"),
        ("https://[2001:DB8:0:0:1:0:0:1]/", "https://[2001:db8::1:0:0:1]/"),
        // WHATWG's percent-encode sets (PercentEncodingTests has the table), non-ASCII characters included.
        ("https://a.example/a b\"c<d>{e}`f", "https://a.example/a%20b%22c%3Cd%3E%7Be%7D%60f"),
        ("https://a.example/?q=a b&r='x'", "https://a.example/?q=a%20b&r=%27x%27"),
        ("https://a.example/#a b`c", "https://a.example/#a%20b%60c"),
        ("https://example.com/😀/123", "https://example.com/%F0%9F%98%80/123"),
        // Invisible format characters (a right-to-left override would show "exe.png" as "gnp.exe") are encoded.
        ("https://a.example/\u{202E}gnp.exe", "https://a.example/%E2%80%AEgnp.exe"),
        ("https://a.example/a\u{200B}b?c=\u{2066}", "https://a.example/a%E2%80%8Bb?c=%E2%81%A6"),
        // A backslash after the path is plain text.
        ("https://a.example/x?y=a\\b", "https://a.example/x?y=a\\b"),
    ])
    func canonicalisesAsTheNetworkReadsIt(raw: String, expected: String) throws {
        let link = try Link(raw)
        #expect(link.text == expected)
        #expect(try Link(link.text) == link)
        // Foundation's URL, the HTTP client's parser, reads the same host and port.
        let url = try #require(URL(string: link.requestText))
        #expect(url.host?.lowercased() == link.hostName)
        #expect((url.port ?? (link.scheme == "https" ? 443 : 80)) == link.effectivePort)
        #expect(link.requestText.unicodeScalars.allSatisfy { $0.isASCII })
    }

    /// Every class of link that a browser and an HTTP client could read as two different hosts is refused.
    @Test(arguments: [
        ("http://a.example\\@b.example/", LinkError.Code.backslash),
        ("https:\\\\a.example/", .backslash),
        ("https://a.example\\x/", .backslash),
        ("https://twitter.com@evil.example/", .userinfo),
        ("https://user:pass@a.example/", .userinfo),
        ("http://user:pass@evil.com@twitter.com/", .userinfo),
        ("https://%74witter.com/", .badHost),
        ("https://twitter%2Ecom/", .badHost),
        ("https://twit\tter.com/", .controlCharacter),
        ("https://twitter.com\n.evil.example/", .controlCharacter),
        ("http:/a.example/x", .notAbsolute),
        ("http:///a.example/x", .notAbsolute),
        ("//a.example/x", .notAbsolute),
        ("https://1.2.3.256/", .badHost),
        ("https://999999999999/", .badHost),
        ("https://[::1/", .badHost),
        ("https://[1::2::3]/", .badHost),
        ("https://a<b.example/", .badHost),
        ("https://a.example:99999/", .badPort),
    ])
    func refusesLinksThatCouldNameTwoHosts(raw: String, code: LinkError.Code) {
        let error = #expect(throws: LinkError.self) { try Link(raw) }
        #expect(error?.code == code, "\(raw): \(String(describing: error))")
        #expect(error?.message.isEmpty == false)
    }

    /// Only web links are resolved: any other scheme is refused, with the scheme named.
    @Test(arguments: [
        "ftp://a.example/", "mailto:a@b.example", "javascript:alert(1)", "file:///etc/passwd", "twitter://user?id=1",
        "data:text/html,x",
    ])
    func refusesEverySchemeButHTTPAndHTTPS(raw: String) {
        let error = #expect(throws: LinkError.self) { try Link(raw) }
        #expect(error?.code == .notWebLink)
        #expect(error?.message.contains(String(raw.prefix { $0 != ":" })) == true)
    }

    /// The length limit holds for the canonical text too, so a link's own text is always accepted again (found by
    /// the link-input fuzzer: 8,000 bytes of U+FFFD as written, 24,000 percent-encoded).
    @Test func theLengthLimitHoldsOncePercentEncoded() throws {
        let prefix = "https://a.example/"
        // "é" is two bytes as written and six percent-encoded (%C3%A9).
        let tooLong = prefix + String(repeating: "é", count: (Link.maximumLength - prefix.utf8.count) / 2)
        #expect(tooLong.utf8.count <= Link.maximumLength)
        let error = #expect(throws: LinkError.self) { try Link(tooLong) }
        #expect(error?.code == .tooLong)
        #expect(error?.message.contains("percent-encoded (\(tooLong.utf8.count) as written)") == true)
        let limited = #expect(throws: LinkError.self) { try Link("https://a.example/é", maximumLength: 20) }
        #expect(limited?.code == .tooLong)

        let fits = try Link(prefix + String(repeating: "é", count: (Link.maximumLength - prefix.utf8.count) / 6))
        #expect(fits.text.utf8.count <= Link.maximumLength)
        #expect(try Link(fits.text) == fits)
    }

    @Test func resolvesARedirectLocationAgainstItsBase() throws {
        let base = try Link("https://short.example/a/b?x=1")
        #expect(try Link(resolving: "/c", against: base).text == "https://short.example/c")
        #expect(try Link(resolving: "../d", against: base).text == "https://short.example/d")
        #expect(try Link(resolving: "//Other.Example/e", against: base).text == "https://other.example/e")
        #expect(try Link(resolving: "HTTP://X.example:80/", against: base).text == "http://x.example/")
        #expect(throws: LinkError.self) { try Link(resolving: "javascript:alert(1)", against: base) }
        #expect(throws: LinkError.self) { try Link(resolving: "/x\r\nSet-Cookie: a=b", against: base) }
    }

    /// A reference is read as the URL Standard reads one against a web link, as browsers follow it: backslashes
    /// before the query are slashes, any number of slashes start a host, `https:x` against an https link is relative.
    @Test(arguments: [
        ("\\\\other.example\\e", "https://other.example/e"),
        ("/\\other.example/e", "https://other.example/e"),
        ("\\/other.example/e", "https://other.example/e"),
        ("///other.example/e", "https://other.example/e"),
        ("https:///other.example/e", "https://other.example/e"),
        ("http:other.example/e", "http://other.example/e"),
        ("https:c", "https://short.example/a/c"),
        ("https:/c", "https://short.example/c"),
        ("HTTPS:c?q", "https://short.example/a/c?q"),
        ("https:", "https://short.example/a/b?x=1"),
        // In the query and fragment a backslash is a character, which Foundation's resolution escapes.
        ("/c?d=\\e", "https://short.example/c?d=%5Ce"),
        ("c\\d#e\\f", "https://short.example/a/c/d#e%5Cf"),
    ])
    func readsAReferenceAsTheURLStandardDoes(_ reference: String, _ expected: String) throws {
        let base = try Link("https://short.example/a/b?x=1#top")
        #expect(try Link(resolving: reference, against: base).text == expected)
    }

    @Test(arguments: ["mailto:a@b.example", "ftp://b.example/", "https://", "https:///", "//", "https://a@b.example/"])
    func refusesAReferenceThatIsNoWebLink(_ reference: String) throws {
        let base = try Link("https://short.example/a/b")
        #expect(throws: LinkError.self) { try Link(resolving: reference, against: base) }
    }
}
