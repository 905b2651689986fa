import LinkWrappers
import Testing
import WebLinks

/// The HTML Standard's shared declarative refresh steps, every form of the content syntax `client-redirects.md`
/// describes, resolved against the page's link with the link parser.
@Suite struct RefreshTests {
    static let page = try! Link("https://a.example/dir/page.html?x=1#f")

    static func link(_ text: String) -> Refresh.Target { .link(try! Link(text)) }

    static let cases: [(content: String, delay: Int, target: Refresh.Target)] = [
        // The spec's examples.
        ("0;url=/next", 0, link("https://a.example/next")),
        ("0; URL='next.html'", 0, link("https://a.example/dir/next.html")),
        ("0,https://b.example/", 0, link("https://b.example/")),
        ("5", 5, .reload),
        ("0;url=", 0, link("https://a.example/dir/page.html?x=1")),
        ("0 ; url = \"a b\"", 0, link("https://a.example/dir/a%20b")),
        // White space, delays and their fractions.
        ("  3  ", 3, .reload),
        ("007", 7, .reload),
        (".5; url=x", 0, link("https://a.example/dir/x")),
        ("1.5;url=x", 1, link("https://a.example/dir/x")),
        ("1.5.9;url=x", 1, link("https://a.example/dir/x")),
        ("1.", 1, .reload),
        ("\t\n\u{0C}\r 2;url=x", 2, link("https://a.example/dir/x")),
        ("99999999999999999999999999;url=x", Int.max, link("https://a.example/dir/x")),
        ("3600; url=/later", 3600, link("https://a.example/later")),
        // Separators: `;`, `,` or white space, once.
        ("1 foo", 1, link("https://a.example/dir/foo")),
        ("1; foo", 1, link("https://a.example/dir/foo")),
        ("1;;foo", 1, link("https://a.example/dir/;foo")),
        ("1,,foo", 1, link("https://a.example/dir/,foo")),
        ("1 ; , foo", 1, link("https://a.example/dir/,%20foo")),
        // `url =`, its case, its spaces, and what is not it.
        ("1; URL = 'x'", 1, link("https://a.example/dir/x")),
        ("1;Url=x", 1, link("https://a.example/dir/x")),
        ("1; urlx=foo", 1, link("https://a.example/dir/urlx=foo")),
        ("1; url foo", 1, link("https://a.example/dir/url%20foo")),
        ("1; u=foo", 1, link("https://a.example/dir/u=foo")),
        ("1; ur", 1, link("https://a.example/dir/ur")),
        ("1; url", 1, link("https://a.example/dir/url")),
        // Quotes: either kind, cut at the first closing one, or none.
        ("1; url=\"foo'bar\"", 1, link("https://a.example/dir/foo'bar")),
        ("1; url='foo\"bar'", 1, link("https://a.example/dir/foo%22bar")),
        ("1; url=\"foo", 1, link("https://a.example/dir/foo")),
        ("1; url='foo' trailing", 1, link("https://a.example/dir/foo")),
        ("1; url=foo\"bar\"", 1, link("https://a.example/dir/foo%22bar%22")),
        ("1;'x'", 1, link("https://a.example/dir/x")),
        ("1; url=\"\"", 1, link("https://a.example/dir/page.html?x=1")),
        // References of every kind, read as the URL Standard reads them.
        ("0; url=//b.example/x", 0, link("https://b.example/x")),
        ("0; url=\\\\b.example\\x", 0, link("https://b.example/x")),
        ("0; url=/\\b.example/x", 0, link("https://b.example/x")),
        ("0; url=http://B.Example:80/", 0, link("http://b.example/")),
        ("0; url=https:b.example", 0, link("https://a.example/dir/b.example")),
        ("0; url=http:b.example", 0, link("http://b.example")),
        ("0; url=https:///b.example/x", 0, link("https://b.example/x")),
        ("0; url=../up", 0, link("https://a.example/up")),
        ("0; url=?q=1", 0, link("https://a.example/dir/page.html?q=1")),
        ("0; url=#top", 0, link("https://a.example/dir/page.html?x=1#top")),
        ("0; url= /next \n", 0, link("https://a.example/next")),
        ("0; url=/ne\txt\n/y", 0, link("https://a.example/next/y")),
        ("0; url=/caf\u{E9}", 0, link("https://a.example/caf%C3%A9")),
        ("0; url=https://b\u{FC}cher.example/", 0, link("https://xn--bcher-kva.example/")),
        // Controls inside the URL are percent-encoded as a browser encodes them; at its ends they are stripped.
        ("0; url=/a\u{01}b\u{7F}c\u{85}d", 0, link("https://a.example/a%01b%7Fc%C2%85d")),
        ("0; url=\u{0}\u{1F} /x\u{0}", 0, link("https://a.example/x")),
        ("1\u{0C}; url=x", 1, link("https://a.example/dir/x")),
    ]

    @Test(arguments: cases)
    func parsesTheContentSyntax(_ content: String, _ delay: Int, _ target: Refresh.Target) throws {
        let refresh = try #require(Refresh.parse(content, page: Self.page))
        #expect(refresh == Refresh(delay: delay, target: target))
    }

    /// Inputs where the steps return early: no refresh at all (a later one can still count).
    @Test(arguments: [
        "", "   ", "x", "-1; url=/x", "+1; url=/x", "1foo", "1.foo", "1e1; url=/x", "1:url=/x", ";url=/x",
        "0; url=javascript:alert(1)", "0; url=JavaScript:alert(1)", "0; url= java\nscript:alert(1)",
        "0; url=http://exa mple.example/", "0; url=https://b.example:99999/", "0; url=https://",
        "0; url=https://b\u{01}c.example/", "1\u{0}; url=x", "\u{A0}1; url=x",
    ])
    func givesNoRefreshForWhatTheStepsRefuse(_ content: String) {
        #expect(Refresh.parse(content, page: Self.page) == nil)
    }

    /// A URL a browser would go to that Switchyard does not follow: the refresh counts, its target is refused.
    @Test(arguments: [
        ("0; url=mailto:a@b.example", LinkError.Code.notWebLink),
        ("0; url=ftp://b.example/", .notWebLink),
        ("0; url=https://user@evil.example/", .userinfo),
        ("0; url=data:text/html,x", .notWebLink),
    ])
    func refusesATargetThatIsNoWebLink(_ content: String, _ code: LinkError.Code) throws {
        let refresh = try #require(Refresh.parse(content, page: Self.page))
        guard case .refused(_, let error) = refresh.target else {
            Issue.record("\(refresh)")
            return
        }
        #expect(error.code == code)
        #expect(refresh.redirect(from: Self.page, maximumDelay: 10) == nil)
    }

    @Test func aHeaderIsReadAsLatin1() throws {
        let refresh = try #require(Refresh.parse(headerValue: Array("0; url=/caf".utf8) + [0xE9], page: Self.page))
        #expect(refresh.target == Self.link("https://a.example/caf%C3%A9"))
    }

    @Test func aRedirectIsARefreshElsewhereWithinTheDelay() throws {
        let soon = try #require(Refresh.parse("2; url=/next", page: Self.page))
        #expect(soon.redirect(from: Self.page, maximumDelay: 2)?.text == "https://a.example/next")
        #expect(soon.redirect(from: Self.page, maximumDelay: 1) == nil)
        // A long delay is a page that refreshes itself, not a bounce.
        let late = try #require(Refresh.parse("3600; url=/next", page: Self.page))
        #expect(late.delay == 3600)
        #expect(late.redirect(from: Self.page, maximumDelay: 10) == nil)
        // A reload, and the page itself (another fragment included), go nowhere.
        #expect(try #require(Refresh.parse("0", page: Self.page)).redirect(from: Self.page, maximumDelay: 10) == nil)
        #expect(
            try #require(Refresh.parse("0;url=#x", page: Self.page)).redirect(from: Self.page, maximumDelay: 10) == nil
        )
        #expect(
            try #require(Refresh.parse("0;url=", page: Self.page)).redirect(from: Self.page, maximumDelay: 10) == nil
        )
    }
}
