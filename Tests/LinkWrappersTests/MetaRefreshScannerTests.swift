import LinkWrappers
import Testing
import WebLinks

/// The first `<meta http-equiv="refresh">` of an HTML answer, read as a browser's tokenizer reads it.
@Suite struct MetaRefreshScannerTests {
    static let page = try! Link("https://a.example/dir/page.html")

    /// Where the page's refresh goes (its URL, `reload`, or nil when it has none).
    static func target(_ html: String, maximumBytes: Int = MetaRefreshScanner.maximumBytes) -> String? {
        guard
            let refresh = MetaRefreshScanner.firstRefresh(in: Array(html.utf8), page: page, maximumBytes: maximumBytes)
        else { return nil }
        switch refresh.target {
        case .reload: return "reload"
        case .link(let link): return link.text
        case .refused(let reference, _): return "refused " + reference
        }
    }

    @Test(arguments: [
        // Attribute syntax: quotes, unquoted values, names and values without regard to case, self-closing.
        (#"<meta http-equiv="refresh" content="0;url=https://b.example/">"#, "https://b.example/"),
        (#"<META HTTP-EQUIV=REFRESH CONTENT="0; URL=/x">"#, "https://a.example/x"),
        (#"<meta http-equiv='Refresh' content='0; url=/x'>"#, "https://a.example/x"),
        ("<meta http-equiv=refresh content=0;url=/x>", "https://a.example/x"),
        ("<meta http-equiv=refresh content=0;url=/x/>", "https://a.example/x/"),
        (#"<meta content="0;url=/x" http-equiv="refresh" />"#, "https://a.example/x"),
        (#"<meta/http-equiv="refresh"/content="0;url=/x">"#, "https://a.example/x"),
        ("<meta\nhttp-equiv = \"refresh\"\tcontent\n=\n\"0;url=/x\">", "https://a.example/x"),
        (#"<meta http-equiv="refresh"content="0;url=/x">"#, "https://a.example/x"),
        (#"<meta http-equiv="refresh" content="5">"#, "reload"),
        // Character references in values.
        (#"<meta http-equiv="refresh" content="0;url=/x?a=1&amp;b=2">"#, "https://a.example/x?a=1&b=2"),
        (#"<meta http-equiv="refresh" content="0;url=&#39;/x&#39;">"#, "https://a.example/x"),
        (#"<meta http-equiv="refresh" content="0;url=&quot;/x&quot; trailing">"#, "https://a.example/x"),
        (#"<meta http-equiv="refresh" content="0;url=/x&#x3F;q=1">"#, "https://a.example/x?q=1"),
        (#"<meta http-equiv="refresh" content="0;url=/x?a=1&copy=2">"#, "https://a.example/x?a=1&copy=2"),
        (#"<meta http-equiv="refresh" content="0;url=/x?a=1&copyx">"#, "https://a.example/x?a=1&copyx"),
        (#"<meta http-equiv="refresh" content="0;url=/&copy;">"#, "https://a.example/%C2%A9"),
        (#"<meta http-equiv="refresh" content="0;url=/&copy">"#, "https://a.example/%C2%A9"),
        (#"<meta http-equiv="refresh" content="0;url=/&notit;">"#, "https://a.example/&notit;"),
        (#"<meta http-equiv="refresh" content="0;url=/&notin;">"#, "https://a.example/%E2%88%89"),
        (
            #"<meta http-equiv="refresh" content="0;url=/&#128;&#0;&#x110000;">"#,
            "https://a.example/%E2%82%AC%EF%BF%BD%EF%BF%BD"
        ),
        (#"<meta http-equiv="&#114;efresh" content="0;url=/x">"#, "https://a.example/x"),
        (#"<meta http-equiv=refresh content=0;url=/a&amp;b>"#, "https://a.example/a&b"),
        // The first of two attributes with one name.
        (#"<meta http-equiv=refresh content="0;url=/first" content="0;url=/second">"#, "https://a.example/first"),
        (
            #"<meta http-equiv="x" http-equiv="refresh" content="0;url=/x"><meta http-equiv=refresh content=0;url=/y>"#,
            "https://a.example/y"
        ),
        // Not markup: comments, doctypes, raw text.
        (
            #"<!-- <meta http-equiv=refresh content="0;url=/c"> --><meta http-equiv=refresh content="0;url=/d">"#,
            "https://a.example/d"
        ),
        (#"<!--> <meta http-equiv=refresh content="0;url=/e">"#, "https://a.example/e"),
        (#"<!---> <meta http-equiv=refresh content="0;url=/e">"#, "https://a.example/e"),
        (#"<!-- a -- b --!> <meta http-equiv=refresh content="0;url=/e">"#, "https://a.example/e"),
        (#"<!-- <!-- --> <meta http-equiv=refresh content="0;url=/f"> -->"#, "https://a.example/f"),
        (
            #"<!DOCTYPE html "<meta http-equiv=refresh content=0;url=/g>"><meta http-equiv=refresh content="0;url=/h">"#,
            "https://a.example/h"
        ),
        (
            #"<? <meta http-equiv=refresh content="0;url=/p"> ?><meta http-equiv=refresh content="0;url=/q">"#,
            "https://a.example/q"
        ),
        (
            #"<script>document.write('<meta http-equiv="refresh" content="0;url=/s">')</script><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (
            #"<SCRIPT type=text/javascript>var x = "</scriptx><meta http-equiv=refresh content=0;url=/s>";</Script ><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (
            #"<script><!-- <script> </script> <meta http-equiv=refresh content="0;url=/inside"> --></script><meta http-equiv=refresh content="0;url=/after">"#,
            "https://a.example/after"
        ),
        (
            #"<script><!-- </script><meta http-equiv=refresh content="0;url=/escaped-ends">"#,
            "https://a.example/escaped-ends"
        ),
        (
            #"<style>/* <meta http-equiv=refresh content="0;url=/s"> */</style><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (
            #"<textarea><meta http-equiv=refresh content="0;url=/s"></textarea><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (
            #"<title>A <meta http-equiv=refresh content="0;url=/s"> page</title><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (
            #"<xmp><meta http-equiv=refresh content="0;url=/s"></xmp><iframe><meta http-equiv=refresh content="0;url=/s"></iframe><noembed><meta http-equiv=refresh content=0;url=/s></noembed><noframes><meta http-equiv=refresh content=0;url=/s></noframes><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (
            #"<template><meta http-equiv=refresh content="0;url=/s"></template><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (#"<noscript><meta http-equiv=refresh content="0;url=/nojs"></noscript>"#, "https://a.example/nojs"),
        // SVG and MathML: raw-text names are markup there, CDATA is text, <meta> ends foreign content.
        (
            #"<svg><title><meta http-equiv=refresh content="0;url=/svg-title"></title></svg>"#,
            "https://a.example/svg-title"
        ),
        (
            #"<svg><style><meta http-equiv=refresh content="0;url=/svg-style"></style></svg>"#,
            "https://a.example/svg-style"
        ),
        (
            #"<svg><![CDATA[<meta http-equiv=refresh content="0;url=/cdata">]]></svg><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        (
            #"<svg></svg><style><meta http-equiv=refresh content="0;url=/s"></style><meta http-equiv=refresh content=0;url=/t>"#,
            "https://a.example/t"
        ),
        // Only the first that counts: an unparseable one, another equiv, an empty content do not.
        (
            #"<meta http-equiv=refresh content="0;url=/one"><meta http-equiv=refresh content="0;url=/two">"#,
            "https://a.example/one"
        ),
        (
            #"<meta http-equiv=refresh content="x"><meta http-equiv=refresh content="0;url=/two">"#,
            "https://a.example/two"
        ),
        (
            #"<meta http-equiv=refresh content="0;url=javascript:x()"><meta http-equiv=refresh content="0;url=/two">"#,
            "https://a.example/two"
        ),
        (
            #"<meta http-equiv=refresh content=""><meta http-equiv=refresh><meta http-equiv=refresh content="0;url=/two">"#,
            "https://a.example/two"
        ),
        (
            #"<meta http-equiv=content-type content="0;url=/no"><meta name=refresh content="0;url=/no"><meta http-equiv=" refresh" content="0;url=/no">"#,
            nil
        ),
        // ASCII case-insensitive only: U+017F LATIN SMALL LETTER LONG S upper-cases to S, and is not an s.
        ("<meta http-equiv=\"refre\u{17F}h\" content=\"0;url=/no\">", nil),
        (
            #"<meta http-equiv=refresh content="0;url=mailto:a@b.example"><meta http-equiv=refresh content="0;url=/two">"#,
            "refused mailto:a@b.example"
        ),
        // Anywhere in the document; a tag the input ends inside is none.
        (
            "<html><body>" + String(repeating: "<p>text</p>", count: 500)
                + "<meta http-equiv=refresh content=\"0;url=/late\"></body>", "https://a.example/late"
        ),
        (#"<meta http-equiv="refresh" content="0;url=/x""#, nil),
        (#"<meta http-equiv="refresh" content="0;url=/x"#, nil),
        (#"<p title="<meta http-equiv=refresh content=0;url=/s>">"#, nil),
        (#"</p title="><meta http-equiv=refresh content=0;url=/s>">"#, nil),
        ("\u{FEFF}<meta http-equiv=refresh\r\ncontent=\"0;\r\nurl=/crlf\">", "https://a.example/crlf"),
    ])
    func findsTheFirstRefresh(_ html: String, _ expected: String?) {
        #expect(Self.target(html) == expected)
    }

    @Test func readsABoundedPrefix() {
        let refresh = "<meta http-equiv=refresh content=\"0;url=/x\">"
        let padding = String(repeating: " ", count: 1000)
        #expect(Self.target(padding + refresh, maximumBytes: 1000 + refresh.utf8.count) == "https://a.example/x")
        // Cut inside the tag, or before it: no refresh.
        #expect(Self.target(padding + refresh, maximumBytes: 1000 + refresh.utf8.count - 1) == nil)
        #expect(Self.target(padding + refresh, maximumBytes: 1000) == nil)
        #expect(Self.target(String(repeating: "a", count: MetaRefreshScanner.maximumBytes) + refresh) == nil)
    }

    @Test func theHeaderIsSeenBeforeAnyElement() throws {
        let body = Array(#"<meta http-equiv=refresh content="0;url=/meta">"#.utf8)
        let header = MetaRefreshScanner.refresh(header: "0; url=/header", body: body, page: Self.page)
        #expect(header?.target == .link(try Link("https://a.example/header")))
        let unparseable = MetaRefreshScanner.refresh(header: "soon", body: body, page: Self.page)
        #expect(unparseable?.target == .link(try Link("https://a.example/meta")))
        let none = MetaRefreshScanner.refresh(header: nil, body: body, page: Self.page)
        #expect(none?.target == .link(try Link("https://a.example/meta")))
    }

    @Test func aLongDelayIsReportedAsSuch() throws {
        let refresh = try #require(
            MetaRefreshScanner.firstRefresh(
                in: Array(#"<meta http-equiv="refresh" content="300; url=/later">"#.utf8),
                page: Self.page
            )
        )
        #expect(refresh.delay == 300)
        #expect(refresh.redirect(from: Self.page, maximumDelay: 10) == nil)
        #expect(refresh.redirect(from: Self.page, maximumDelay: 300)?.text == "https://a.example/later")
    }
}
