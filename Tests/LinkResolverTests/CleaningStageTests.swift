import LinkCleaning
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing
import WebLinks

/// The cleaning stage of the one pipeline: a resolver with a cleaner cleans the link before the redirect rules and
/// the matcher see it, says what it removed in a `clean` step, leaves alone what the request or the user layer says.
@Suite struct CleaningStageTests {
    /// A catalog of our own: tracking fields on shop.example, an affiliate tag, and a redirect wrapper.
    static let catalog = #"""
        {"providers": {
          "shop": {"urlPattern": "^https?:\\/\\/(?:[a-z0-9-]+\\.)*?shop\\.example", "completeProvider": false,
                   "rules": ["utm_[a-z]+", "fbclid"], "referralMarketing": ["tag"],
                   "exceptions": ["^https?:\\/\\/shop\\.example\\/keep"], "rawRules": [], "redirections": []},
          "out": {"urlPattern": "^https?:\\/\\/out\\.example", "completeProvider": false, "rules": [],
                  "rawRules": [], "referralMarketing": [], "exceptions": [],
                  "redirections": ["^https?:\\/\\/out\\.example\\/\\?u=([^&]*)"]}
        }}
        """#

    static let rules = RuleFixture.text(
        actions: #"""
            [{"regex": "^https://shop\\.example/item/(\\d+)$", "formats": [{"appId": "alpha", "format": "shop://$1"}]}]
            """#,
        redirects: #"{"^https://go\\.example/": {"param": "to"}}"#
    )

    static func resolver(layer: String? = nil) throws -> Resolver {
        var rules = try RuleSet.load(Self.rules, file: "rules.json")
        if let layer { rules = try rules.applying(layer: layer) }
        return Resolver(
            rules: rules,
            engine: nil,
            fetcher: nil,
            stages: ResolverStages(cleaning: [try LinkCleaner(json: Self.catalog)])
        )
    }

    @Test func theLinkIsCleanedBeforeTheRulesSeeIt() async throws {
        let resolution = try await Self.resolver().resolve("https://shop.example/item/7?utm_source=feed&fbclid=x1")
        #expect(resolution.unwrapped == "https://shop.example/item/7")
        #expect(resolution.openings.compactMap(\.url) == ["shop://7"])
        let step = try #require(resolution.steps.first)
        #expect(step.kind == .clean && step.to == "https://shop.example/item/7")
        #expect(step.details?.count == 2)
        #expect(step.details?.first?.contains("utm_source=feed") == true)
        #expect(step.details?.first?.contains("providers/shop/rules/0") == true)
        #expect(step.description.contains("removed fbclid=x1"))
    }

    @Test func aRedirectWrapperIsUnwrappedThenCleaned() async throws {
        let wrapped = "https://out.example/?u=https%3A%2F%2Fshop.example%2Fitem%2F9%3Futm_medium%3Dmail"
        let resolution = try await Self.resolver().resolve(wrapped)
        #expect(resolution.unwrapped == "https://shop.example/item/9")
        #expect(resolution.openings.compactMap(\.url) == ["shop://9"])
        #expect(resolution.steps.map(\.kind) == [.clean])
    }

    /// A redirect rule's target is cleaned before the matcher sees it, as the link itself was.
    @Test func aRedirectRulesTargetIsCleanedToo() async throws {
        let link = "https://go.example/?to=https%3A%2F%2Fshop.example%2Fitem%2F5%3Futm_campaign%3Dx"
        let resolution = try await Self.resolver().resolve(link)
        #expect(resolution.unwrapped == "https://shop.example/item/5")
        #expect(resolution.steps.map(\.kind) == [.redirectRule, .clean])
        #expect(resolution.openings.compactMap(\.url) == ["shop://5"])
    }

    @Test func aRequestOrTheUserLayerTurnsItOff() async throws {
        let link = "https://shop.example/item/7?utm_source=feed"
        var request = ResolveRequest()
        request.cleansLinks = false
        let off = try await Self.resolver().resolve(link, request)
        #expect(off.unwrapped == link && off.steps.isEmpty && off.openings.isEmpty)

        let layer = #"{"switchyardUserLayer": 1, "sites": [{"hosts": ["shop.example"], "skipCleaning": true}]}"#
        let skipped = try await Self.resolver(layer: layer).resolve(link)
        #expect(skipped.unwrapped == link && skipped.steps.isEmpty)

        // The catalog's own exception, and a link with nothing to remove: no step.
        let kept = try await Self.resolver().resolve("https://shop.example/keep?utm_source=feed")
        #expect(kept.steps.isEmpty)
        #expect(try await Self.resolver().resolve("https://shop.example/item/7").steps.isEmpty)
    }

    @Test func referralMarketingIsKeptWhenAsked() async throws {
        let link = "https://shop.example/item/7?tag=friend-20"
        #expect(try await Self.resolver().resolve(link).unwrapped == "https://shop.example/item/7")
        var request = ResolveRequest()
        request.allowsReferralMarketing = true
        #expect(try await Self.resolver().resolve(link, request).unwrapped == link)
    }

    @Test func aResolverWithoutACleanerDoesNotClean() async throws {
        let rules = try RuleSet.load(Self.rules, file: "rules.json")
        let link = "https://shop.example/item/7?utm_source=feed"
        let resolution = try await Resolver(rules: rules, engine: nil, fetcher: nil).resolve(link)
        #expect(resolution.unwrapped == link && resolution.steps.isEmpty)
    }
}
