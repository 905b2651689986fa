import Testing

@testable import WebLinks

/// RFC 3492's decoder, and host labels that begin with `xn--` as the WHATWG URL Standard's domain to ASCII reads them
/// (issue 28 part 7): a label that is not valid punycode is refused with `E_BAD_HOST`, the label quoted.
@Suite struct PunycodeTests {
    @Test(arguments: [
        ("bcher-kva", "bücher"),
        // RFC 3492 section 7.1, samples (A) Arabic and (B) simplified Chinese.
        (
            "egbpdaj6bu4bxfgehfvwxn",
            "\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64A}\u{61F}"
        ),
        ("ihqwcrb4cv8a8dqg056pqjye", "\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}"),
        ("ls8h", "💩"),
        ("--dha", "ü-"),
        // Basic code points are copied as written, in their case; digits are read in either case.
        ("Bcher-kva", "Bücher"),
        ("BCHER-KVA", "BüCHER"),
        ("abc-", "abc"),
        ("", ""),
    ])
    func decodesAsRFC3492Says(encoded: String, decoded: String) throws {
        #expect(String(try Punycode.decode(encoded)) == decoded)
    }

    @Test(arguments: [
        ("zz-zzzz", Punycode.Failure.truncated),
        ("a!", .badDigit("!")),
        // A hyphen at the start is not a delimiter: nothing precedes it.
        ("-abc", .badDigit("-")),
        ("99999999", .overflow),
        ("ib9b", .surrogate(0xD800)),
        ("bcher-kvä", .nonBasic("ä")),
    ])
    func refusesWhatDoesNotDecode(encoded: String, failure: Punycode.Failure) {
        #expect(throws: failure) { try Punycode.decode(encoded) }
    }

    /// Valid labels are kept (lower-cased), in an ASCII host and beside a Unicode label alike.
    @Test(arguments: [
        ("https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"),
        ("https://XN--BCHER-KVA.Example/", "https://xn--bcher-kva.example/"),
        ("https://Xn--Bcher-Kva.example./x", "https://xn--bcher-kva.example/x"),
        // ß (nontransitional processing keeps it), Hebrew, an emoji.
        ("https://xn--zca.example/", "https://xn--zca.example/"),
        ("https://xn--4db.example/", "https://xn--4db.example/"),
        ("https://xn--ls8h.example/", "https://xn--ls8h.example/"),
        ("https://bücher.xn--zca.example/", "https://xn--bcher-kva.xn--zca.example/"),
        // Not a label that begins with the prefix.
        ("https://axn--b.example/", "https://axn--b.example/"),
    ])
    func keepsValidPunycodeLabels(raw: String, expected: String) throws {
        let link = try Link(raw)
        #expect(link.text == expected)
        #expect(try Link(link.text) == link)
    }

    /// Every label that begins with `xn--` (any case) and is not valid punycode is refused, the label quoted and the
    /// reason given.
    @Test(arguments: [
        (
            "https://xn--a.example/",
            "the host label \"xn--a\" is not a valid international domain name: it decodes to \"⟦U+0080⟧\", which UTS #46 does not allow in a host"
        ),
        (
            "https://XN--A.example/",
            "the host label \"xn--a\" is not a valid international domain name: it decodes to \"⟦U+0080⟧\", which UTS #46 does not allow in a host"
        ),
        ("https://xn--.example/", "the host label \"xn--\" is not valid punycode: it decodes to nothing"),
        (
            "https://xn--zz-zzzz.example/",
            "the host label \"xn--zz-zzzz\" is not valid punycode: it ends in the middle of an encoded character"
        ),
        ("https://xn--a!b.example/", "the host label \"xn--a!b\" is not valid punycode: \"!\" is not a Punycode digit"),
        (
            "https://xn--99999999.example/",
            "the host label \"xn--99999999\" is not valid punycode: it encodes a number beyond the last Unicode code point"
        ),
        (
            "https://xn--ib9b.example/",
            "the host label \"xn--ib9b\" is not valid punycode: it encodes the surrogate U+D800, which is no character"
        ),
        (
            "https://xn--bcher-kvä.example/",
            "the host label \"xn--bcher-kvä\" is not valid punycode: it has the non-ASCII character \"ä\" after \"xn--\""
        ),
        (
            "https://xn--abc-.example/",
            "the host label \"xn--abc-\" is not valid punycode: it decodes to the plain ASCII \"abc\", which is never written in punycode"
        ),
        // Decodes to an upper-case letter, or to a letter and a combining mark: UTS #46 maps both to "ü".
        (
            "https://xn--wca.example/",
            "the host label \"xn--wca\" is not a valid international domain name: it decodes to \"Ü\", which UTS #46 writes \"xn--tda\""
        ),
        (
            "https://xn--u-ccb.example/",
            "the host label \"xn--u-ccb\" is not a valid international domain name: it decodes to \"ü\", which UTS #46 writes \"xn--tda\""
        ),
        // Disallowed code points: a digit full stop (U+2488), a zero-width joiner outside its context, a label that
        // decodes to one beginning with the prefix itself.
        (
            "https://xn--a-ecp.example/",
            "the host label \"xn--a-ecp\" is not a valid international domain name: it decodes to \"a⒈\", which UTS #46 does not allow in a host"
        ),
        (
            "https://xn--ab-n1t.example/",
            "the host label \"xn--ab-n1t\" is not a valid international domain name: it decodes to \"ab⟦U+200D⟧\", which UTS #46 does not allow in a host"
        ),
        (
            "https://xn--xn---3ra.example/",
            "the host label \"xn--xn---3ra\" is not a valid international domain name: it decodes to \"xn--ü\", which UTS #46 does not allow in a host"
        ),
        // Beside a Unicode label, where Foundation's conversion refuses the host: the label is still named.
        (
            "https://bücher.xn--a.example/",
            "the host label \"xn--a\" is not a valid international domain name: it decodes to \"⟦U+0080⟧\", which UTS #46 does not allow in a host"
        ),
        // Each label is valid, the host is not: a right-to-left label makes the bidirectional rule apply to every
        // label, and "1" may not begin one.
        (
            "https://xn--4db.1.example/",
            "the host \"xn--4db.1.example\" is not a valid international domain name: it decodes to \"\u{5D0}.1.example\", which UTS #46 refuses as a whole"
        ),
    ])
    func refusesLabelsThatAreNotValidPunycode(raw: String, message: String) {
        #expect(throws: LinkError(code: .badHost, message: message)) { try Link(raw) }
    }
}
