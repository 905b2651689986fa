import Foundation
import Testing
import WebLinks

/// Path, query and fragment in the canonical link (issue 30 item 8): the WHATWG URL Standard's percent-encode sets for
/// special schemes. Every non-ASCII character is written as its UTF-8 bytes percent-encoded; in ASCII, the path set
/// adds space `"` `<` `>` `^` `` ` `` `{` `}`, the special-query set space `"` `<` `>` `'`, the fragment set space `"`
/// `<` `>` `` ` ``; existing escapes, valid or not, are kept.
@Suite struct PercentEncodingTests {
    @Test(arguments: [
        // The example: host in punycode, path and query encoded.
        ("https://bücher.example/straße?q=日本", "https://xn--bcher-kva.example/stra%C3%9Fe?q=%E6%97%A5%E6%9C%AC"),
        ("https://a.example/x#ü", "https://a.example/x#%C3%BC"),
        // Astral characters: four bytes each.
        ("https://example.com/😀/123", "https://example.com/%F0%9F%98%80/123"),
        // A no-break space, a soft hyphen (a format character), a right-to-left mark.
        ("https://a.example/a\u{A0}b\u{AD}c\u{200F}", "https://a.example/a%C2%A0b%C2%ADc%E2%80%8F"),
        // Existing escapes are kept as written, valid, lower-case or not; only the raw character beside them is encoded.
        ("https://a.example/ü%C3%BC%c3%bc?q=%zz#%", "https://a.example/%C3%BC%C3%BC%c3%bc?q=%zz#%"),
        // ASCII, each part with its own set: `^`, the backtick and braces in the path; `'` in the query; the backtick
        // in the fragment.
        ("https://a.example/^`{}'|[]", "https://a.example/%5E%60%7B%7D'|[]"),
        ("https://a.example/?^`{}'|[]", "https://a.example/?^`{}%27|[]"),
        ("https://a.example/#^`{}'|[]", "https://a.example/#^%60{}'|[]"),
        ("https://a.example/a b?c d#e f", "https://a.example/a%20b?c%20d#e%20f"),
        ("https://a.example/\"<>?\"<>#\"<>", "https://a.example/%22%3C%3E?%22%3C%3E#%22%3C%3E"),
        // A second `?` is query text, a second `#` fragment text.
        ("https://a.example/a?b?c#d#e?f", "https://a.example/a?b?c#d#e?f"),
        // Nothing else is rewritten: the case of letters, sub-delimiters, a backslash in the query.
        (
            "https://a.example/A/b;c=d,e!f$g&h+i*j(k)l~m?n=O&p=q\\r",
            "https://a.example/A/b;c=d,e!f$g&h+i*j(k)l~m?n=O&p=q\\r"
        ),
    ])
    func encodesWhatTheStandardsSetsHold(raw: String, expected: String) throws {
        let link = try Link(raw)
        #expect(link.text == expected)
        #expect(link.text.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(link.requestText == link.text)
        // Canonical text is a fixed point, and what Foundation's URL (the HTTP client's parser) reads as the same host.
        #expect(try Link(link.text) == link)
        #expect(URL(string: link.text)?.host == link.host)
    }

    /// The raw and the encoded spelling are one link.
    @Test func aRawAndAnEncodedSpellingAreOneLink() throws {
        #expect(try Link("https://a.example/stra%C3%9Fe?q=%E6%97%A5") == Link("https://a.example/straße?q=日"))
    }
}
