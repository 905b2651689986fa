import BundledRules
import LinkMatching
import LinkRules
import LinkWrappers
import SwitchyardTestSupport
import Testing
import WebLinks

/// The synchronous core decodes link wrappers as the resolver does (`RuleSet.resolve`): before the redirect rules and
/// the matcher, with the user layer's own entries first; the layer's problems with them are diagnostics.
@Suite struct WrapperMatchingTests {
    @Test(arguments: WrappedLinks.cases)
    func theSynchronousCoreMatchesTheInnerLink(_ id: String, _ name: String, _ link: String) throws {
        let rules = try RuleSet.bundled()
        let resolution = try rules.resolve(link)
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(resolution.steps.map(\.rule) == [name])
        #expect(resolution.openings == (try rules.resolve(WrappedLinks.inner)).openings)
    }

    @Test func aRedirectRulesTargetIsDecodedToo() throws {
        let rules = try RuleFixture.rules(
            actions:
                #"[{"regex": "^https://a\\.example/(\\w+)$", "formats": [{"appId": "alpha", "format": "alpha://$1"}]}]"#,
            redirects: #"{"^https://go\\.example/": {"param": "to"}}"#
        )
        let link =
            "https://go.example/?to="
            + WrappedLinks.encode("https://slack-redir.net/link?url=https%3A%2F%2Fa.example%2Fb")
        let resolution = try rules.resolve(link, trace: true)
        #expect(resolution.unwrapped == "https://a.example/b")
        #expect(resolution.steps.map(\.kind) == [.redirectRule, .wrapper])
        #expect(resolution.openings.compactMap(\.url) == ["alpha://b"])
        #expect(resolution.trace?.gateway?.wrappers == ["Slack redirect"])
        #expect(resolution.trace?.gateway?.bypassed == ["action alpha /actions/0/formats/0"])
    }

    @Test func aMalformedOrOpaqueWrapperIsANotice() throws {
        let rules = try RuleSet.bundled()
        #expect(try rules.resolve(WrappedLinks.malformed).notices.map(\.code) == [RuleSet.malformedWrapper])
        #expect(try rules.resolve(WrappedLinks.mimecast).notices.map(\.code) == [RuleSet.opaqueWrapper])
        var deep = WrappedLinks.inner
        for _ in 0..<9 { deep = "https://slack-redir.net/link?url=" + WrappedLinks.encode(deep) }
        let tooDeep = try rules.resolve(deep)
        #expect(tooDeep.notices.map(\.code) == [RuleSet.wrapperTooDeep])
        #expect(tooDeep.steps.count == 8)
    }

    @Test func browsersOpenTheWrappedLinkWhenTheOptionsOrTheLayerSaySo() throws {
        let link = try #require(WrappedLinks.cases.first { $0.id == "slack" }).link
        var options = MatchOptions()
        options.opensWrapped = true
        let rules = try RuleSet.bundled()
        let opened = try rules.resolve(link, options: options)
        #expect(opened.openings.first { $0.app?.identifier == "safari" }?.url == (try Link(link)).text)
        #expect(opened.openings.first { $0.kind == .action }?.url == WrappedLinks.innerAppURL)
        let layered = try rules.applying(layer: #"{"switchyardUserLayer": 1, "openWrapped": true}"#)
        #expect(
            try layered.resolve(link).openings.first { $0.app?.identifier == "safari" }?.url == (try Link(link)).text
        )
        #expect(try rules.resolve(link).openings.first { $0.app?.identifier == "safari" }?.url == WrappedLinks.inner)
    }

    @Test func theLayersWrappersComeFirstAndItsUnknownIdentifiersAreWarnings() throws {
        let rules = try RuleSet.bundled().applying(
            layer: #"""
                {"switchyardUserLayer": 1,
                 "wrappers": [{"id": "slack", "name": "Our Slack", "hosts": ["slack-redir.net"], "paths": ["/link"],
                               "decode": "query", "parameters": ["target"]}],
                 "disableWrappers": ["gogle", "youtube"]}
                """#
        )
        let layer = try #require(rules.userLayer)
        #expect(layer.diagnostics.map(\.code) == ["W_UNKNOWN_WRAPPER"])
        #expect(layer.diagnostics.first?.pointer == "/disableWrappers/0")
        #expect(
            layer.diagnostics.first?.message
                == #"no built-in link wrapper is "gogle"; this entry does nothing; did you mean "google"?"#
        )
        #expect(rules.wrappers.wrapper(id: "youtube") == nil)
        #expect(rules.wrappers.wrappers.first?.name == "Our Slack")
        let resolution = try rules.resolve("https://slack-redir.net/link?url=x&target=\(WrappedLinks.encodedInner)")
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(resolution.steps.first?.layer == .user)
        #expect(resolution.steps.first?.location == "/wrappers/0")
        #expect(rules.withoutUserLayer.wrappers.wrapper(id: "slack")?.name == "Slack redirect")
    }
}
