import CleaningBenchmarks
import LinkCleaning
import SwitchyardBenchmarks
import Testing
import WebLinks

/// The rule kinds on small catalogs written here, each result checked against the naive loop too.
@Suite struct LinkCleanerTests {
    static let catalog = """
        {"providers": {
          "first": {"urlPattern": "^https?:\\\\/\\\\/late\\\\.example\\\\/clean", "completeProvider": false, "rules": ["sid"]},
          "shop": {
            "urlPattern": "^https?:\\\\/\\\\/(?:[a-z0-9-]+\\\\.)*?shop\\\\.example",
            "completeProvider": false,
            "rules": ["utm_[a-z]+", "ref_?", "sid"],
            "referralMarketing": ["tag"],
            "rawRules": ["\\\\/ref=[^/?]*"],
            "exceptions": ["^https?:\\\\/\\\\/shop\\\\.example\\\\/keep"],
            "redirections": ["^https?:\\\\/\\\\/shop\\\\.example\\\\/out\\\\?.*?to=([^&]+)"]
          },
          "ads": {"urlPattern": "^https?:\\\\/\\\\/ads\\\\.example\\\\.net", "completeProvider": true},
          "news": {"urlPattern": "^https?:\\\\/\\\\/news\\\\.example\\\\.org", "completeProvider": false, "rules": ["fbclid"]},
          "late": {
            "urlPattern": "^https?:\\\\/\\\\/late\\\\.example", "completeProvider": false,
            "rawRules": ["\\\\/tracking(?=\\\\/clean)"]
          }
        }}
        """

    /// Cleans with the compiled cleaner and checks the naive loop agrees.
    func clean(_ text: String, _ options: CleaningOptions = CleaningOptions()) throws -> CleaningResult {
        let cleaner = try LinkCleaner(json: Self.catalog, file: "test.json")
        #expect(cleaner.catalog.diagnostics == [])
        let link = try Link(text)
        let result = cleaner.clean(link, options: options)
        #expect(result == cleaner.naiveClean(link, options: options))
        return result
    }

    @Test func removesFieldRulesFromTheQueryKeepingTheRestByteForByte() throws {
        let result = try clean("https://shop.example/item?a=%20x&UTM_Source=feed&b=caf%C3%A9+1&ref=x&sid=9&&c")
        #expect(result.link == "https://shop.example/item?a=%20x&b=caf%C3%A9+1&&c")
        #expect(result.changed)
        #expect(result.steps.map(\.text) == ["UTM_Source=feed", "ref=x", "sid=9"])
        #expect(result.steps.map(\.rule.index) == [0, 1, 2])
        #expect(result.steps.first?.rule.place == "providers/shop/rules/0")
        #expect(
            result.steps.first?.description
                == #"removed UTM_Source=feed (query) by providers/shop/rules/0 "utm_[a-z]+""#
        )
        #expect(result.steps.allSatisfy { $0.action == .removedField && $0.part == .query })
    }

    @Test func anchorsFieldRulesAsTheWholeName() throws {
        // `sid` must not remove `sidebar`, and `ref_?` not `prefix`.
        let result = try clean("https://shop.example/?sidebar=1&prefix=2&ref_=3")
        #expect(result.link == "https://shop.example/?sidebar=1&prefix=2")
    }

    @Test func removesFieldsFromAFragmentWrittenAsFields() throws {
        let result = try clean("https://shop.example/p#top=1&utm_medium=x")
        #expect(result.link == "https://shop.example/p#top=1")
        #expect(result.steps.first?.part == .fragment)
        // A plain fragment is not fields: kept.
        #expect(try clean("https://shop.example/p#section-2").changed == false)
    }

    @Test func dropsTheQueryMarkWhenEveryFieldGoes() throws {
        #expect(try clean("https://shop.example/p?utm_source=a#frag").link == "https://shop.example/p#frag")
    }

    @Test func referralMarketingIsRemovedUnlessAllowed() throws {
        let text = "https://shop.example/p?tag=aff-20&utm_source=x"
        #expect(try clean(text).link == "https://shop.example/p")
        let allowed = try clean(text, CleaningOptions(allowReferralMarketing: true))
        #expect(allowed.link == "https://shop.example/p?tag=aff-20")
    }

    @Test func exceptionsLeaveTheLinkAlone() throws {
        #expect(try clean("https://shop.example/keep?utm_source=x").changed == false)
    }

    @Test func redirectionsUnwrapDecodeAndCleanAgain() throws {
        let result = try clean(
            "https://shop.example/out?x=1&to=https%3A%2F%2Fnews.example.org%2Fa%3Fid%3D1%26fbclid%3Dabc"
        )
        #expect(result.link == "https://news.example.org/a?id=1")
        #expect(result.steps.map(\.action) == [.unwrapped, .removedField])
        #expect(result.steps.first?.rule.kind == .redirections)
        #expect(result.steps.last?.rule.provider == "news")
    }

    @Test func aRedirectionToSomethingThatIsNotALinkIsNotFollowed() throws {
        let result = try clean("https://shop.example/out?to=%E0%A4&utm_source=1")
        #expect(result.link == "https://shop.example/out?to=%E0%A4")
    }

    @Test func rawRulesRemoveFromTheWholeLink() throws {
        let result = try clean("https://shop.example/dp/B01/ref=sr_1_1?th=1")
        #expect(result.link == "https://shop.example/dp/B01?th=1")
        #expect(
            result.steps == [
                CleaningStep(
                    action: .removedText,
                    rule: CleaningRule(provider: "shop", kind: .rawRules, index: 0, pattern: "\\/ref=[^/?]*"),
                    text: "/ref=sr_1_1"
                )
            ]
        )
    }

    @Test func completeProvidersReportTheBlockAndKeepTheLink() throws {
        let result = try clean("https://ads.example.net/click?id=1")
        #expect(result.blockedBy == "ads")
        #expect(result.link == "https://ads.example.net/click?id=1")
    }

    @Test func providersThatDoNotMatchLeaveTheLinkUntouched() throws {
        let result = try clean("https://other.example/p?utm_source=x&fbclid=y")
        #expect(result == CleaningResult(input: result.input, link: result.input))
    }

    @Test func repeatsPassesUntilTheLinkStopsChanging() throws {
        // A later provider's raw rule makes the link one for an earlier provider: the second pass applies it.
        let result = try clean("https://late.example/tracking/clean?sid=1&page=2")
        #expect(result.link == "https://late.example/clean?page=2")
        #expect(result.steps.map(\.rule.provider) == ["late", "first"])
    }

    @Test func theCallerCanSkipHosts() throws {
        let options = CleaningOptions(skippedHosts: ["example"])
        let result = try clean("https://shop.example/p?utm_source=x", options)
        #expect(result.skipped && !result.changed)
        #expect(!CleaningOptions.host("badexample", isWithin: "example"))
        #expect(CleaningOptions.host("www.shop.example", isWithin: "shop.example"))
    }

    @Test func theResultEncodesWithStableKeys() throws {
        let result = try clean("https://shop.example/p?sid=1")
        let json = String(decoding: try JSONEncoderForTests.encode(result), as: UTF8.self)
        #expect(
            json
                == #"{"changed":true,"input":"https:\/\/shop.example\/p?sid=1","link":"https:\/\/shop.example\/p","skipped":false,"steps":[{"action":"removedField","part":"query","rule":{"index":2,"kind":"rules","pattern":"sid","provider":"shop"},"text":"sid=1"}],"timedOut":false}"#
        )
    }
}
