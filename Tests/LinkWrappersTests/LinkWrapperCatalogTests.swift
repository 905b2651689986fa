import Foundation
import LinkWrappers
import Testing
import WebLinks

/// The built-in catalog decodes a link of every wrapper in each form `link-wrappers.md` describes, offline, to the
/// link it carries; leaves look-alike hosts, other paths and wrapper links without their parameter alone.
@Suite struct LinkWrapperCatalogTests {
    static let catalog = LinkWrapperCatalog.builtIn
    static let inner = WrapperTestLinks.inner
    static let encodedInner = WrapperTestLinks.encoded(inner)

    @Test func theBuiltInCatalogLoadsWithoutAProblem() throws {
        let catalog = try LinkWrapperCatalog.loadBuiltIn()
        #expect(catalog.wrappers.count == Self.catalog.wrappers.count)
        #expect(Set(catalog.wrappers.map(\.id)).count == catalog.wrappers.count)
    }

    /// Every row of the spec's table has an entry.
    @Test(arguments: [
        "safelinks", "safelinks-teams", "proofpoint-v1", "proofpoint-v2", "proofpoint-v3", "trend-micro", "barracuda",
        "cisco", "sophos", "symantec", "trellix", "mimecast", "google", "duckduckgo", "facebook", "instagram",
        "messenger", "slack", "linkedin", "youtube", "steam", "vk",
    ])
    func theCatalogHasAnEntryFor(_ id: String) {
        #expect(Self.catalog.wrapper(id: id) != nil)
    }

    static let decoded: [(wrapped: String, wrapper: String, inner: String)] = [
        // Safe Links, mail and government clouds: `url`, with `data`, `sdata` and `reserved` beside it.
        ("https://eur01.safelinks.protection.outlook.com/?url=\(encodedInner)&data=x&reserved=0", "safelinks", inner),
        (
            "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2&data=05%7C01&sdata=q%2B%3D&reserved=0",
            "safelinks", "https://example.com/a?b=1&c=2"
        ),
        ("https://gcc02.safelinks.protection.office365.us/?url=\(encodedInner)&data=x", "safelinks", inner),
        // The form of documents' links, and a query copied out of HTML with its ampersands escaped.
        (
            "https://nam12.safelinks.protection.outlook.com/ap/w-59584e83/?url=\(encodedInner)&data=x", "safelinks",
            inner
        ),
        (
            "https://na01.safelinks.protection.outlook.com/?url=\(encodedInner)&amp;data=02%7C01&amp;reserved=0",
            "safelinks", inner
        ),
        // Form decoding: `+` is a space, `%2B` a plus; lower-case escapes.
        (
            "https://eur01.safelinks.protection.outlook.com/?url=https%3a%2f%2fexample.com%2fsearch%3fq%3da%2Bb",
            "safelinks", "https://example.com/search?q=a+b"
        ),
        (
            "https://eur01.safelinks.protection.outlook.com/?url=https://example.com/a+b&data=x", "safelinks",
            "https://example.com/a%20b"
        ),
        // Safe Links in Teams.
        (
            "https://statics.teams.cdn.office.net/evergreen-assets/safelinks/1/atp-safelinks.html?url=\(encodedInner)&locale=en-us&dest=https%3A%2F%2Fteams.microsoft.com%2F_%23%2F&pc=abc",
            "safelinks-teams", inner
        ),
        (
            "https://statics.teams.cdn.office.net/evergreen-assets/safelinks/2/atp-safelinks.html?locale=en-gb&url=\(encodedInner)",
            "safelinks-teams", inner
        ),
        // Proofpoint v1: `u`, with `k`, `r`, `m`, `s`.
        (
            "https://urldefense.proofpoint.com/v1/url?u=http://www.example.com/&k=abc%3D%0A&r=x&m=y&s=z",
            "proofpoint-v1", "http://www.example.com/"
        ),
        ("https://urldefense.com/v1/url?u=\(encodedInner)&k=1&r=2&m=3&s=4", "proofpoint-v1", inner),
        // Proofpoint v2: `-` for `%`, `_` for `/`.
        (
            "https://urldefense.proofpoint.com/v2/url?u=https-3A__twitter.com_jack_status_20&d=DwMFaQ&c=abc&r=def&m=ghi&s=jkl&e=",
            "proofpoint-v2", inner
        ),
        (
            "https://urldefense.proofpoint.com/v2/url?u=https-3A__www.example.com_path-3Fa-3D1-26b-3D2&d=DwMFaQ&c=x&e=",
            "proofpoint-v2", "https://www.example.com/path?a=1&b=2"
        ),
        (
            "https://urldefense.com/v2/url?u=https-3A__example.com_a-2Db-5Fc-7E&d=x", "proofpoint-v2",
            "https://example.com/a-b_c~"
        ),
        (
            "https://urldefense.proofpoint.com/v2/url?u=\(WrapperTestLinks.proofpointV2("https://example.com/caf\u{E9}?q=1 2"))&d=x",
            "proofpoint-v2", "https://example.com/caf%C3%A9?q=1%202"
        ),
        // Proofpoint v3: markers, the spec's example, empty data, bytes of a non-ASCII character, urldefense.us.
        (
            "https://urldefense.com/v3/__https://example.com/a*b?x=1**Ay__;I0BA!!X!Y$", "proofpoint-v3",
            "https://example.com/a#b?x=1@@y"
        ),
        ("https://urldefense.com/v3/__https://twitter.com/jack/status/20__;!!AbC!dEf$", "proofpoint-v3", inner),
        (
            "https://urldefense.com/v3/__https://example.com/caf**A__;w6k!!x$", "proofpoint-v3",
            "https://example.com/caf%C3%A9"
        ),
        ("https://urldefense.us/v3/__https://twitter.com/jack/status/20__;!!x!y$", "proofpoint-v3", inner),
        (
            "https://urldefense.com/v3/__https://example.com/*?q=*__;IyY!!G$", "proofpoint-v3",
            "https://example.com/#?q=&"
        ),
        // Trend Micro: v1 query and v2 clickthrough (the default port is dropped by the link parser).
        (WrapperTestLinks.trendMicro(inner), "trend-micro", inner),
        (
            "https://ca-1.trendmicro.com/wis/clicktime/v2/clickthrough?url=\(encodedInner)&umid=x&auth=y",
            "trend-micro", inner
        ),
        // Barracuda: `a`, on /url and /.
        (
            "https://linkprotect.cudasvc.com/url?a=https%3a%2f%2ftwitter.com%2fjack%2fstatus%2f20&c=E,1,abc&typo=1",
            "barracuda", inner
        ),
        ("https://linkprotect.cudasvc.com/?a=\(encodedInner)&c=E", "barracuda", inner),
        // Cisco: the last path segment, percent-decoded once.
        ("https://secure-web.cisco.com/1Ab2Cd3EfGh-IjK/\(encodedInner)", "cisco", inner),
        ("https://secure-web.cisco.com/1xyz/https%3A%2F%2Fexample.com%2Fa%253Fb", "cisco", "https://example.com/a%3Fb"),
        // Sophos: base64, standard alphabet, padding optional (a raw `+` or one escaped).
        (
            "https://eu-west-1.protection.sophos.com/?d=twitter.com&u=aHR0cHM6Ly90d2l0dGVyLmNvbS9qYWNrL3N0YXR1cy8yMA==&i=a&t=b&h=c&s=d",
            "sophos", inner
        ),
        (
            "https://us-east-2.protection.sophos.com/?d=x&u=aHR0cHM6Ly90d2l0dGVyLmNvbS9qYWNrL3N0YXR1cy8yMA&i=a",
            "sophos", inner
        ),
        (
            "https://us-west-2.protection.sophos.com?u=aHR0cHM6Ly90d2l0dGVyLmNvbS9qYWNrL3N0YXR1cy8yMA%3D%3D", "sophos",
            inner
        ),
        (
            "https://eu-central-1.protection.sophos.com/?u=aHR0cHM6Ly9leGFtcGxlLmNvbS8/YT0xJmI9fnh+&d=x", "sophos",
            "https://example.com/?a=1&b=~x~"
        ),
        (
            "https://eu-central-1.protection.sophos.com/?u=aHR0cHM6Ly9leGFtcGxlLmNvbS8%2FYT0xJmI9fnh%2B&d=x", "sophos",
            "https://example.com/?a=1&b=~x~"
        ),
        // Symantec, Trellix.
        ("https://clicktime.symantec.com/3KtDoo7ofpS9aE8N5Ek7JmZ7Vc?u=\(encodedInner)", "symantec", inner),
        ("https://protect2.fireeye.com/v1/url?k=abc-def&q=ghi&e=jkl&u=\(encodedInner)", "trellix", inner),
        ("https://protect2.fireeye.com/url?k=abc-def&u=\(encodedInner)", "trellix", inner),
        // Proofpoint's v1 and v3 as other decoders' tests have them: `&amp;` separators, a port, a run of bytes.
        (
            "https://urldefense.proofpoint.com/v1/url?u=http://www.bouncycastle.org/&amp;k=oIvRg1%2BdGAgOoM1BIlLLqw%3D%3D%0A&amp;r=IKM5u8&amp;m=Ww6&amp;s=d358",
            "proofpoint-v1", "http://www.bouncycastle.org/"
        ),
        (
            "https://urldefense.com/v3/__https://google.com:443/search?q=a*test&gs=ps__;Kw!-612Flbf0JvQ3kNJkRi5Jg!Ue6tQudNKaShHg93trcdjqDP8se2ySE65jyCIe2K1D_uNjZ1Lnf6YLQERujngZv9UWf66ujQIQ$",
            "proofpoint-v3", "https://google.com/search?q=a+test&gs=ps"
        ),
        // Google: `q`, else `url` (a search result's link has `q=` empty); country domains.
        (
            "https://www.google.com/url?q=https://twitter.com/jack/status/20&sa=D&source=editors&ust=1&usg=AOv",
            "google", inner
        ),
        (
            "https://www.google.co.uk/url?sa=t&rct=j&q=&esrc=s&source=web&cd=1&url=\(encodedInner)&ved=0", "google",
            inner
        ),
        ("https://google.de/url?url=\(encodedInner)", "google", inner),
        ("https://www.google.com.au/url?q=\(encodedInner)", "google", inner),
        // DuckDuckGo, Facebook, Instagram, Messenger, Slack, LinkedIn, YouTube, Steam, VK.
        ("https://duckduckgo.com/l/?uddg=\(encodedInner)&rut=abc", "duckduckgo", inner),
        ("https://l.facebook.com/l.php?u=\(encodedInner)&h=AT0abc", "facebook", inner),
        ("https://lm.facebook.com/l.php?u=\(encodedInner)&h=AT0", "facebook", inner),
        ("https://www.facebook.com/l.php?u=\(encodedInner)", "facebook", inner),
        ("https://m.facebook.com/l.php?u=\(encodedInner)", "facebook", inner),
        ("https://facebook.com/l.php?u=\(encodedInner)", "facebook", inner),
        ("https://l.instagram.com/?u=\(encodedInner)&e=ATM", "instagram", inner),
        ("https://l.messenger.com/l.php?u=\(encodedInner)&h=x", "messenger", inner),
        (WrapperTestLinks.slack(inner), "slack", inner),
        (
            "https://www.linkedin.com/safety/go?url=\(encodedInner)&trk=flagship-messaging-web&lipi=urn%3Ali%3Apage%3Ad_flagship3%3BYI5",
            "linkedin", inner
        ),
        (
            "https://www.youtube.com/redirect?event=video_description&redir_token=QUFF&q=\(encodedInner)&v=dQw4w9WgXcQ",
            "youtube", inner
        ),
        ("https://steamcommunity.com/linkfilter/?url=https://twitter.com/jack/status/20", "steam", inner),
        ("https://steamcommunity.com/linkfilter/?u=\(encodedInner)", "steam", inner),
        ("https://vk.com/away.php?to=\(encodedInner)&cc_key=", "vk", inner),
    ]

    @Test(arguments: decoded)
    func decodesTheLinkItCarries(_ wrapped: String, _ wrapper: String, _ expected: String) throws {
        let link = try Link(wrapped)
        let outcome = Self.catalog.unwrap(link)
        #expect(outcome.link.text == expected, "\(outcome)")
        #expect(outcome.steps.map(\.wrapper.id) == [wrapper])
        #expect(outcome.steps.first?.from == link)
        #expect(outcome.wrapped == link)
        #expect(outcome.stop == nil)
    }

    static let notWrappers = [
        // Look-alike hosts: more labels after the pattern's, or a label that only ends like one.
        "https://safelinks.protection.outlook.com.evil.example/?url=\(encodedInner)",
        "https://eur01.safelinks.protection.outlook.com.evil.example/?url=\(encodedInner)",
        "https://evilsafelinks.protection.outlook.com/?url=\(encodedInner)",
        "https://safelinks.protection.outlook.com/?url=\(encodedInner)",
        "https://urldefense.com.example/v3/__https://twitter.com/jack/status/20__;!!x$",
        "https://urldefense.proofpoint.com.evil.example/v2/url?u=https-3A__twitter.com",
        "https://www.google.com.evil.example/url?q=\(encodedInner)",
        "https://www.google.evil.example/url?q=\(encodedInner)",
        "https://google.co.evil.example/url?q=\(encodedInner)",
        "https://l.facebook.com.evil.example/l.php?u=\(encodedInner)",
        "https://notslack-redir.net/link?url=\(encodedInner)",
        "https://protect-eu.mimecast.com.evil.example/s/abc",
        "https://protect.mimecast.com/s/abc",
        "https://eu.protection.sophos.com.evil.example/?u=aHR0cHM6Ly90d2l0dGVyLmNvbS9qYWNrL3N0YXR1cy8yMA",
        "https://vk.com.evil.example/away.php?to=\(encodedInner)",
        "https://xtrendmicro.com/wis/clicktime/v1/query?url=\(encodedInner)",
        // A wrapper's host at another path.
        "https://www.google.com/search?q=\(encodedInner)",
        "https://www.facebook.com/jack?u=\(encodedInner)",
        "https://urldefense.com/v4/__https://twitter.com/jack/status/20__;!!x$",
        "https://statics.teams.cdn.office.net/evergreen-assets/safelinks/atp-safelinks.html?url=\(encodedInner)",
        "https://eur01.safelinks.protection.outlook.com/owa/?url=\(encodedInner)",
        "https://secure-web.cisco.com/\(encodedInner)",
        // A wrapper link without its parameter, or with it empty.
        "https://eur01.safelinks.protection.outlook.com/?data=x&reserved=0",
        "https://eur01.safelinks.protection.outlook.com/?url=&data=x",
        "https://www.google.com/url?sa=t&q=&url=",
        "https://urldefense.com/v2/url?d=x",
        "https://secure-web.cisco.com/token/",
        // A link that only mentions a wrapper.
        "https://evil.example/?url=https%3A%2F%2Feur01.safelinks.protection.outlook.com%2F",
    ]

    @Test(arguments: notWrappers)
    func leavesOtherLinksAlone(_ text: String) throws {
        let link = try Link(text)
        let outcome = Self.catalog.unwrap(link)
        #expect(outcome == WrapperUnwrapping(link: link), "\(outcome)")
    }

    @Test func decodesWrappersInsideWrappers() throws {
        let proofpoint = "https://urldefense.com/v3/__https://twitter.com/jack/status/20__;!!AbC!dEf$"
        let forwarded = WrapperTestLinks.trendMicro(WrapperTestLinks.safeLinks(proofpoint))
        let outcome = Self.catalog.unwrap(try Link(forwarded))
        #expect(outcome.link.text == Self.inner)
        #expect(outcome.steps.map(\.wrapper.id) == ["trend-micro", "safelinks", "proofpoint-v3"])
        #expect(
            outcome.steps.map(\.to.text) == [
                try Link(WrapperTestLinks.safeLinks(proofpoint)).text, proofpoint, Self.inner,
            ]
        )
        #expect(outcome.wrapped?.text == (try Link(forwarded)).text)
        #expect(outcome.stop == nil)
    }

    @Test func stopsAtTheDepthLimitWithTheLinkDecodedSoFar() throws {
        var text = Self.inner
        for _ in 0..<(LinkWrapperCatalog.maximumDepth + 1) { text = WrapperTestLinks.slack(text) }
        let outcome = Self.catalog.unwrap(try Link(text))
        #expect(outcome.steps.count == LinkWrapperCatalog.maximumDepth)
        #expect(outcome.link.text == (try Link(WrapperTestLinks.slack(Self.inner))).text)
        let stop = try #require(outcome.stop)
        #expect(stop.reason == .tooDeep(LinkWrapperCatalog.maximumDepth))
        #expect(stop.description.contains("still a Slack redirect link after 8 wrappers decoded"), "\(stop)")
        let shallow = Self.catalog.unwrap(try Link(text), maximumDepth: 2)
        #expect(shallow.steps.count == 2)
    }

    static let malformed: [(link: String, wrapper: String, reason: String)] = [
        ("https://eu-west-1.protection.sophos.com/?u=!!not-base64!!&d=x", "sophos", "is not base64"),
        ("https://eu-west-1.protection.sophos.com/?u=aHR0cHM6Ly9%3Dabc&d=x", "sophos", "is not base64"),
        (
            "https://eu-west-1.protection.sophos.com/?u=%2F%2F%2F%2F&d=x", "sophos",
            "decodes from base64 to bytes that are not UTF-8"
        ),
        ("https://eu-west-1.protection.sophos.com/?u=aGVsbG8&d=x", "sophos", "\"hello\" is not a web link"),
        (
            "https://urldefense.com/v3/__https://example.com/a*b__;!!x$", "proofpoint-v3",
            "a marker stands for a byte where its data has none left"
        ),
        (
            "https://urldefense.com/v3/__https://example.com/a*b**Bc__;I0BA!!x$", "proofpoint-v3",
            "a marker stands for 3 bytes where its data has 2 left"
        ),
        (
            "https://urldefense.com/v3/__https://example.com/a**Cb__;I0BA!!x$", "proofpoint-v3",
            "a marker stands for 4 bytes where its data has 3 left"
        ),
        ("https://urldefense.com/v3/__https://example.com/a", "proofpoint-v3", "it has no \"__;\" after the link"),
        (
            "https://urldefense.com/v3/__https://example.com/a__!!x$", "proofpoint-v3",
            "it has no \"__;\" after the link"
        ),
        ("https://urldefense.com/v3/__https://example.com/a*__;I0B=!!x$", "proofpoint-v3", "is not base64url"),
        ("https://urldefense.com/v3/__https://example.com/a*__;I!!x$", "proofpoint-v3", "is not base64url"),
        ("https://urldefense.com/v3/__https://example.com/a*__;I0B.!!x$", "proofpoint-v3", "is not base64url"),
        (
            "https://urldefense.com/v3/__https://example.com/a**__;I0BA!!x$", "proofpoint-v3",
            "its link ends with \"**\", with no length after it"
        ),
        (
            "https://urldefense.com/v3/__https://example.com/a**!__;I0BA!!x$", "proofpoint-v3",
            "its marker \"**!\" has no length"
        ),
        ("https://urldefense.com/v3/__https://example.com/a**", "proofpoint-v3", "it has no \"__;\""),
        ("https://urldefense.com/v3/__https://example.com/**A__;__4!!x$", "proofpoint-v3", "is not UTF-8"),
        ("https://urldefense.com/v3/__not a link__;!!x$", "proofpoint-v3", "is not a web link"),
        (
            "https://eur01.safelinks.protection.outlook.com/?url=not%20a%20link&data=x", "safelinks",
            "the value of \"url\" \"not a link\" is not a web link"
        ),
        (
            "https://eur01.safelinks.protection.outlook.com/?url=javascript%3Aalert(1)", "safelinks",
            "only web links are resolved"
        ),
        (
            "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fuser%40evil.example%2F", "safelinks",
            "user name before its host"
        ),
        (
            "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2F%0Ax", "safelinks",
            "control character"
        ),
        ("https://urldefense.com/v2/url?u=not-2Da-2Dlink&d=x", "proofpoint-v2", "\"not-a-link\" is not a web link"),
        ("https://secure-web.cisco.com/token/notalink", "cisco", "is not a web link"),
        (
            "https://secure-web.cisco.com/token/https%3A%2F%2Fa.example%2F%C3%28", "cisco",
            "is not valid UTF-8 once percent-decoded"
        ),
        (
            "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2F%FF", "safelinks",
            "the value of \"url\" is not valid UTF-8"
        ),
        ("https://urldefense.com/v2/url?u=https-3A__a.example_-FF&d=x", "proofpoint-v2", "is not valid UTF-8"),
        ("https://www.google.com/url?q=hello&url=world", "google", "the value of \"q\" \"hello\" is not a web link"),
    ]

    @Test(arguments: malformed)
    func leavesAMalformedWrapperAsItIsAndSaysWhy(_ text: String, _ wrapper: String, _ reason: String) throws {
        let link = try Link(text)
        let outcome = Self.catalog.unwrap(link)
        #expect(outcome.link == link)
        #expect(outcome.steps.isEmpty)
        let stop = try #require(outcome.stop)
        #expect(stop.wrapper.id == wrapper)
        guard case .malformed(let why) = stop.reason else {
            Issue.record("not malformed: \(stop)")
            return
        }
        #expect(why.contains(reason), "\(why)")
        #expect(stop.description.hasPrefix("the link is a \(stop.wrapper.name) link, but "), "\(stop)")
        #expect(stop.description.hasSuffix("; it is resolved as it is"))
    }

    @Test func aMalformedWrapperInsideAnotherStopsThereWithTheOuterDecoded() throws {
        let sophos = "https://eu-west-1.protection.sophos.com/?u=!!!&d=x"
        let outcome = Self.catalog.unwrap(try Link(WrapperTestLinks.safeLinks(sophos)))
        #expect(outcome.steps.map(\.wrapper.id) == ["safelinks"])
        #expect(outcome.link == (try Link(sophos)))
        #expect(outcome.stop?.wrapper.id == "sophos")
    }

    @Test func anOpaqueWrapperIsSaidToBeOpaque() throws {
        let link = try Link("https://protect-eu.mimecast.com/s/AbCdEfGhIjK?domain=twitter.com")
        let outcome = Self.catalog.unwrap(link)
        #expect(outcome.link == link)
        #expect(outcome.stop?.reason == .opaque)
        #expect(
            outcome.stop?.description.contains("Mimecast URL Protect link, which only its service can decode") == true
        )
        let inside = Self.catalog.unwrap(try Link(WrapperTestLinks.slack(link.text)))
        #expect(inside.link == link)
        #expect(inside.stop?.reason == .opaque)
    }

    @Test func aDecodedLinkIsBoundedInLength() throws {
        let long = "https://example.com/" + String(repeating: "a", count: 300)
        let outcome = Self.catalog.unwrap(try Link(WrapperTestLinks.slack(long)), maximumLength: 200)
        guard case .malformed(let why) = outcome.stop?.reason else {
            Issue.record("\(outcome)")
            return
        }
        #expect(why.contains("more than the limit of 200"), "\(why)")
        // Proofpoint v3's runs make a link longer than its wrapper: the decoding stops at the limit.
        let runs = String(repeating: "**_", count: 10)
        let data = String(repeating: "A", count: 10 * 65 * 4 / 3)
        let v3 = Self.catalog.unwrap(
            try Link("https://urldefense.com/v3/__https://example.com/\(runs)__;\(data)!!x$"),
            maximumLength: 200
        )
        guard case .malformed(let reason) = v3.stop?.reason else {
            Issue.record("\(v3)")
            return
        }
        #expect(reason.contains("longer than 200 bytes"), "\(reason)")
    }

    @Test func theFirstEntryThatMatchesDecides() throws {
        let catalog = try #require(
            try LinkWrapperCatalogReaderTests.catalog(
                """
                [{"id": "mine", "name": "Mine", "hosts": ["slack-redir.net"], "paths": ["/link"], "decode": "query", "parameters": ["v"]}]
                """
            )
        )
        let applied = Self.catalog.applying(added: catalog.wrappers, disabled: ["google"])
        let outcome = applied.unwrap(try Link("https://slack-redir.net/link?url=x&v=\(Self.encodedInner)"))
        #expect(outcome.steps.map(\.wrapper.id) == ["mine"])
        #expect(outcome.link.text == Self.inner)
        #expect(applied.wrapper(id: "google") == nil)
        #expect(applied.unwrap(try Link("https://www.google.com/url?q=\(Self.encodedInner)")).steps.isEmpty)
        // An added entry with a built-in's identifier replaces it.
        let replacement = LinkWrapper(
            id: "slack",
            name: "My Slack",
            hosts: [try #require(WrapperHostPattern("slack-redir.net"))],
            paths: [try #require(WrapperPathPattern("/link"))],
            decoding: .query(["v"])
        )
        let replaced = Self.catalog.applying(added: [replacement], disabled: [])
        #expect(replaced.wrappers.filter { $0.id == "slack" }.map(\.name) == ["My Slack"])
    }
}
