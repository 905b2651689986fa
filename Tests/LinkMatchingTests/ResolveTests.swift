import BundledRules
import Foundation
import LinkMatching
import LinkRules
import SwitchyardBenchmarks
import SwitchyardTestSupport
import Testing
import WebLinks

/// `RuleSet.resolve`: template semantics (ICU, as Opener renders them), the order of openings, and the filters.
@Suite struct ResolveTests {
    /// One template case: a regex, a template, an input, and the URL the alpha format must get (nil: no opening).
    struct TemplateCase: Sendable, CustomTestStringConvertible {
        var name: String
        var regex: String
        var format: String
        var input: String
        var expected: String?
        var testDescription: String { name }
    }

    static let templateCases: [TemplateCase] = [
        TemplateCase(
            name: "$1 is the first group",
            regex: #"https?://t\.example/(\d+).*$"#,
            format: "alpha://id/$1",
            input: "https://t.example/42?x=1",
            expected: "alpha://id/42"
        ),
        TemplateCase(
            name: "$0 is the whole match",
            regex: #"https?://t\.example/\d+"#,
            format: "alpha://open?u=$0",
            input: "https://t.example/42",
            expected: "alpha://open?u=https://t.example/42"
        ),
        TemplateCase(
            name: #"\$ is a literal dollar"#,
            regex: #"https?://t\.example/(\d+)$"#,
            format: #"alpha://price/\$1/$1"#,
            input: "https://t.example/7",
            expected: "alpha://price/$1/7"
        ),
        TemplateCase(
            name: "the unconsumed tail is kept",
            regex: #"https?://t\.example/(\d+)"#,
            format: "alpha://id/$1",
            input: "https://t.example/42?ref=feed#top",
            expected: "alpha://id/42?ref=feed#top"
        ),
        TemplateCase(
            name: "the unconsumed head is kept",
            regex: #"t\.example/(\d+)"#,
            format: "alpha://id/$1",
            input: "https://t.example/42",
            expected: "https://alpha://id/42"
        ),
        TemplateCase(
            name: "astral characters before a capture",
            regex: #"https?://t\.example/[^/]+/(\d+)$"#,
            format: "alpha://id/$1",
            input: "https://t.example/😀𝄞/123",
            expected: "alpha://id/123"
        ),
        TemplateCase(
            name: "astral characters in the capture and the tail",
            regex: #"https?://t\.example/([^/]+)/"#,
            format: "alpha://tag/$1/",
            input: "https://t.example/a😀b/𝄞z",
            // The link reaches the rules percent-encoded, as the WHATWG URL Standard writes it.
            expected: "alpha://tag/a%F0%9F%98%80b/%F0%9D%84%9Ez"
        ),
        TemplateCase(
            name: "an optional group that did not take part is empty",
            regex: #"https?://t\.example/(\d+)(/x)?$"#,
            format: "alpha://id/$1$2",
            input: "https://t.example/5",
            expected: "alpha://id/5"
        ),
        TemplateCase(
            name: "a dollar before a non-digit",
            regex: #"https?://t\.example/(\d+)$"#,
            format: "alpha://a$b/$1",
            input: "https://t.example/3",
            expected: "alpha://a$b/3"
        ),
        TemplateCase(
            name: "a trailing dollar",
            regex: #"https?://t\.example/(\d+)$"#,
            format: "alpha://$1$",
            input: "https://t.example/3",
            expected: "alpha://3$"
        ),
        TemplateCase(
            name: "a backslash escapes any character",
            regex: #"https?://t\.example/(\d+)$"#,
            format: #"alpha://\n\\$1"#,
            input: "https://t.example/3",
            expected: #"alpha://n\3"#
        ),
        TemplateCase(
            name: "no match gives no opening",
            regex: #"https?://t\.example/(\d+)$"#,
            format: "alpha://id/$1",
            input: "https://t.example/abc",
            expected: nil
        ),
    ]

    @Test(arguments: templateCases)
    func rendersTemplatesWithICUSemantics(_ testCase: TemplateCase) throws {
        let rules = try RuleFixture.single(regex: testCase.regex, format: testCase.format)
        #expect(rules.diagnostics.isEmpty, "\(rules.diagnostics)")
        let openings = try rules.resolve(testCase.input).openings.filter { $0.kind == .action }
        if let expected = testCase.expected {
            #expect(openings.map(\.url) == [expected])
            #expect(openings.first?.needsScript == false)
            #expect(openings.first?.app?.identifier == "alpha")
            #expect(openings.first?.rule == "/actions/0/formats/0")
        } else {
            #expect(openings.isEmpty)
        }
        // The naive loop (stringByReplacingMatches) is the reference for every case.
        let link = try Link(testCase.input)
        #expect(rules.naiveOpenings(for: link) == rules.openings(for: link))
    }

    @Test func refusesARenderedURLWithAForbiddenScheme() throws {
        let rules = try RuleFixture.single(regex: #"https?://j\.example/\?u=(.*)$"#, format: "$1")
        let openings = try rules.resolve("https://j.example/?u=JavaScript:alert(1)").openings
        #expect(openings.count == 1)
        #expect(openings.first?.url == nil)
        #expect(openings.first?.error?.code == "E_UNSAFE_OUTPUT")
        #expect(openings.first?.error?.message.contains("forbidden scheme") == true)
        #expect(try rules.resolve("https://j.example/?u=alpha://ok").openings.map(\.url) == ["alpha://ok"])
    }

    static let orderRules = #"""
        [
          {"title": "First", "regex": "https?://o\\.example/(\\w+)$", "formats": [
            {"appId": "beta", "format": "beta://1/$1"}, {"appId": "alpha", "format": "alpha://1/$1"}]},
          {"title": "Never", "regex": "https?://other\\.example/", "formats": [{"appId": "alpha", "format": "alpha://no"}]},
          {"regex": "https?://o\\.example/(\\w+)$", "formats": [
            {"appId": "alpha", "script2": "function process(url, done) { done(null); }"},
            {"appId": "phoneonly", "format": "phoneonly://$1"}, {"appId": "padonly", "format": "padonly://$1"}]}
        ]
        """#

    static let orderBrowsers = #"""
        [
          {"identifier": "zbrowser", "name": "Z Browser", "scheme": "zbrowser", "regex": "http(s?.*)$", "format": "zbrowser$1"},
          {"identifier": "abrowser", "name": "A Browser", "scheme": "abrowser", "regex": ".+",
           "script2": "function process(url, done) { done(url); }"}
        ]
        """#

    static let orderPreviews = #"[{"regex": "https?://o\\.example/(\\w+)$", "format": "https://img.o.example/$1.png"}]"#

    static func orderedRules() throws -> RuleSet {
        try RuleFixture.rules(actions: orderRules, browsers: orderBrowsers, previews: orderPreviews)
    }

    @Test func listsActionsByFormatInManifestOrderThenBrowsersThenPreviews() throws {
        let rules = try Self.orderedRules()
        #expect(rules.errors.isEmpty, "\(rules.errors)")
        let openings = try rules.resolve("https://o.example/abc").openings
        #expect(openings.map(\.kind) == [.action, .action, .action, .action, .action, .browser, .browser, .preview])
        #expect(
            openings.map { $0.app?.identifier } == [
                "beta", "alpha", "alpha", "phoneonly", "padonly", "zbrowser", "abrowser", nil,
            ]
        )
        #expect(
            openings.map(\.title) == [
                "First", "First", "Open Link", "Open Link", "Open Link", "Z Browser", "A Browser", "Preview",
            ]
        )
        #expect(
            openings.map(\.url) == [
                "beta://1/abc", "alpha://1/abc", nil, "phoneonly://abc", "padonly://abc", "zbrowsers://o.example/abc",
                nil,
                "https://img.o.example/abc.png",
            ]
        )
        #expect(
            openings.map(\.rule) == [
                "/actions/0/formats/0", "/actions/0/formats/1", "/actions/2/formats/0", "/actions/2/formats/1",
                "/actions/2/formats/2", "/browsers/0", "/browsers/1", "/previews/0",
            ]
        )
    }

    @Test func listsScriptOutputsAsNeedingAScriptWithoutAURL() throws {
        let openings = try Self.orderedRules().resolve("https://o.example/abc").openings
        let scripted = openings.filter(\.needsScript)
        #expect(scripted.map { $0.app?.identifier } == ["alpha", "abrowser"])
        #expect(scripted.allSatisfy { $0.url == nil && $0.error == nil })
    }

    @Test func leavesOutBrowsersAndPreviewsWhenAsked() throws {
        let options = MatchOptions(includeBrowsers: false, includePreviews: false)
        let openings = try Self.orderedRules().resolve("https://o.example/abc", options: options).openings
        #expect(openings.allSatisfy { $0.kind == .action })
        #expect(openings.count == 5)
    }

    @Test func listsOnlyInstalledSchemes() throws {
        let options = MatchOptions(installed: InstalledApps(["alpha", "abrowser"]))
        let openings = try Self.orderedRules().resolve("https://o.example/abc", options: options).openings
        #expect(openings.map { $0.app?.identifier } == ["alpha", "alpha", "abrowser", nil])
    }

    @Test(arguments: [
        (Platform.phone, ["beta", "alpha", "alpha", "phoneonly"]),
        (Platform.pad, ["beta", "alpha", "alpha", "padonly"]),
    ])
    func dropsAppsLimitedToTheOtherPlatform(platform: Platform, expected: [String]) throws {
        let options = MatchOptions(platform: platform, includeBrowsers: false, includePreviews: false)
        let openings = try Self.orderedRules().resolve("https://o.example/abc", options: options).openings
        #expect(openings.map { $0.app?.identifier ?? "-" } == expected)
    }

    @Test func reportsTheInputAndUnwrappedLink() throws {
        let resolution = try Self.orderedRules().resolve("https://o.example/abc")
        #expect(resolution.input == "https://o.example/abc")
        #expect(resolution.unwrapped == "https://o.example/abc")
        #expect(resolution.steps.isEmpty)
        #expect(resolution.timedOutRules.isEmpty)
    }
}

/// Rules see one canonical link: spellings of the same link give the same openings.
@Suite struct CanonicalLinkMatchingTests {
    @Test(arguments: [
        ("HTTPS://TWITTER.COM/jack/status/20", "https://twitter.com/jack/status/20"),
        ("https://Twitter.com:443/jack/status/20", "https://twitter.com/jack/status/20"),
        ("https://twitter.com./jack/status/20", "https://twitter.com/jack/status/20"),
        ("  https://www.youtube.com/watch?v=dQw4w9WgXcQ ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
    ])
    func spellingsOfOneLinkGetTheSameOpenings(spelling: String, canonical: String) throws {
        let rules = try RuleSet.bundled()
        let expected = try rules.resolve(canonical)
        #expect(!expected.openings.isEmpty)
        let resolved = try rules.resolve(spelling)
        #expect(resolved.openings == expected.openings)
        #expect(resolved.input == canonical)
    }
}

/// No URL handed out holds a raw bidirectional-control or zero-width character: they are percent-encoded, wherever
/// they come from (the template's text, the link).
@Suite struct SpoofableOutputTests {
    @Test(arguments: ["\u{202E}", "\u{200B}", "\u{2066}", "\u{200F}", "\u{FEFF}"])
    func templatesEncodeInvisibleCharacters(character: String) throws {
        let rules = try RuleFixture.rules(
            actions: """
                [{"regex": "https?://s\\\\.example/(\\\\w+)$", "formats": [{"appId": "alpha", "format": "alpha://x\(character)/$1"}]}]
                """,
            browsers: """
                [{"identifier": "zb", "name": "ZB", "scheme": "zb", "regex": "^https?://(.*)$", "format": "zb://\(character)$1"}]
                """
        )
        let encoded = character.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        let openings = try rules.resolve("https://s.example/item").openings
        #expect(openings.map(\.url) == ["alpha://x\(encoded)/item", "zb://\(encoded)s.example/item"])
        #expect(
            openings.allSatisfy {
                $0.url?.unicodeScalars.contains { $0.properties.generalCategory == .format } == false
            }
        )
        // A link with such characters reaches the rules, and goes out, encoded.
        let fromLink = try rules.resolve("https://s.example/a\(character)b").openings
        #expect(fromLink.first { $0.kind == .browser }?.url == "zb://\(encoded)s.example/a\(encoded)b")
    }
}

/// Previews say whether their image may be saved, in every document.
@Suite struct PreviewTests {
    @Test func previewsKeepCanSave() throws {
        let rules = try RuleFixture.rules(
            previews: #"""
                [{"regex": "https?://p\\.example/(\\w+)$", "format": "https://img.p.example/$1.jpg", "canSave": true},
                 {"regex": "https?://p\\.example/(\\w+)$", "format": "https://thumb.p.example/$1.jpg"}]
                """#
        )
        let previews = try rules.resolve("https://p.example/cat").openings.filter { $0.kind == .preview }
        #expect(previews.map(\.canSave) == [true, false])
        let json = try JSONSerialization.jsonObject(with: DocumentEncoder.json().encode(previews)) as? [[String: Any]]
        #expect(json?.map { $0["canSave"] as? Bool } == [true, false])
        // Other kinds carry no canSave.
        let other = try RuleFixture.rules(
            actions: #"[{"regex": "p\\.example", "formats": [{"appId": "alpha", "format": "alpha://x"}]}]"#
        )
        let opening = try #require(try other.resolve("https://p.example/cat").openings.first)
        #expect(opening.canSave == nil)
        #expect(
            String(decoding: try DocumentEncoder.json().encode(opening), as: UTF8.self).contains("canSave") == false
        )
    }
}
