import LinkMatching
import LinkRules
import SwitchyardTestSupport
import Testing
import WebLinks

/// `RuleSet.unwrap` (the redirect-rule stage): static redirect rules, first match in file order, anchored, decoded, and safe.
@Suite struct RedirectTests {
    static let google = #"{"https?://(\\w+\\.)*google\\.\\w+/url.*url=[^&]+.*$": {"param": "url"}}"#

    static func rules(_ redirects: String) throws -> RuleSet {
        let rules = try RuleFixture.rules(redirects: redirects)
        #expect(rules.errors.isEmpty, "\(rules.errors)")
        return rules
    }

    @Test(arguments: [
        (
            "https://www.google.com/url?sa=t&url=https%3A%2F%2Fa.example%2Fp%3Fq%3D1%26r%3D2&usg=x",
            "https://a.example/p?q=1&r=2"
        ),
        ("https://www.google.com/url?url=https%3A%2F%2Fa.example%2Fa+b%2Bc", "https://a.example/a+b+c"),
        ("https://www.google.de/url?url=https://b.example/#frag", "https://b.example/"),
    ])
    func takesTheParameterValuePercentDecodedKeepingPlus(input: String, expected: String) throws {
        let (url, steps) = try Self.rules(Self.google).unwrap(input)
        #expect(url == expected)
        #expect(steps.count == 1)
        #expect(steps.first?.kind == .redirectRule)
        #expect(steps.first?.location == "/redirects/https?:~1~1(\\w+\\.)*google\\.\\w+~1url.*url=[^&]+.*$")
        #expect(steps.first?.from == input)
        #expect(steps.first?.to == expected)
        #expect(steps.first?.rule == #"https?://(\w+\.)*google\.\w+/url.*url=[^&]+.*$"#)
    }

    @Test(arguments: [
        // No host in the result: an encoded URL captured from a path is decoded.
        ("https://r.example/out/https%3A%2F%2Fc.example%2Fx%3Fy%3D1", "https://c.example/x?y=1"),
        // A host in the result: an ordinary URL keeps its escapes.
        ("https://r.example/keep/c.example/a%20b%2Fc", "https://c.example/a%20b%2Fc"),
    ])
    func decodesAFormatResultOnlyWhenItHasNoHost(input: String, expected: String) throws {
        let rules = try Self.rules(
            #"""
            {"https?://r\\.example/out/(.+)$": {"format": "$1"},
             "https?://r\\.example/keep/(.+)$": {"format": "https://$1"}}
            """#
        )
        #expect(try rules.unwrap(input).link == expected)
    }

    @Test func appliesTheFirstMatchingRuleInFileOrderOnly() throws {
        // Both rules match; the earlier one decides and the later one is not consulted afterwards.
        let rules = try Self.rules(
            #"""
            {"https?://s\\.example/(\\w+).*$": {"format": "https://first.example/$1"},
             "https?://s\\.example/.*$": {"format": "https://second.example/"},
             "https?://first\\.example/.*$": {"format": "https://third.example/"}}
            """#
        )
        let (url, steps) = try rules.unwrap("https://s.example/abc?x=1")
        #expect(url == "https://first.example/abc")
        #expect(steps.count == 1)
    }

    @Test func swappingTheRuleOrderChangesTheResult() throws {
        let rules = try Self.rules(
            #"""
            {"https?://s\\.example/.*$": {"format": "https://second.example/"},
             "https?://s\\.example/(\\w+).*$": {"format": "https://first.example/$1"}}
            """#
        )
        #expect(try rules.unwrap("https://s.example/abc").link == "https://second.example/")
    }

    @Test func anchorsRulesAtTheStartOfTheLink() throws {
        let rules = try Self.rules(#"{"https://t\\.example/(\\w+)": {"format": "https://moved.example/$1"}}"#)
        let embedded = "https://x.example/?u=https://t.example/abc"
        let (url, steps) = try rules.unwrap(embedded)
        #expect(url == embedded)
        #expect(steps.isEmpty)
        #expect(try rules.unwrap("https://t.example/abc").link == "https://moved.example/abc")
    }

    @Test func refusesADecodedResultWithControlCharacters() throws {
        let input = "https://www.google.com/url?url=https%3A%2F%2Fa.example%2F%00%0D%0AX:1"
        let (url, steps) = try Self.rules(Self.google).unwrap(input)
        #expect(url == input)
        #expect(steps.count == 1)
        #expect(steps.first?.to == nil)
        #expect(steps.first?.refused?.contains("control character") == true, "\(steps)")
    }

    /// A value that is not valid UTF-8 after percent-decoding, or that is not a usable web link, does not apply:
    /// the link stays as it was, and the step and the trace say why. (On mail.google.com: www.google.com/url is a link
    /// wrapper of the built-in catalog, decoded before the redirect rules.)
    @Test(arguments: [
        ("https://mail.google.com/url?url=https%3A%2F%2Fa.example%2F%FF", "not valid UTF-8"),
        ("https://mail.google.com/url?url=%C3%28", "not valid UTF-8"),
        ("https://mail.google.com/url?url=%zz", "not valid UTF-8"),
        ("https://mail.google.com/url?url=ftp%3A%2F%2Fa.example%2F", "not a usable web link"),
        ("https://mail.google.com/url?url=twitter%3A%2F%2Fuser%3Fid%3D1", "not a usable web link"),
        ("https://mail.google.com/url?url=a.example%2Fpath", "not a usable web link"),
        ("https://mail.google.com/url?url=https%3A%2F%2Fuser%40a.example%2F", "not a usable web link"),
    ])
    func refusesAValueThatIsNotUTF8OrNotAWebLink(input: String, reason: String) throws {
        let rules = try Self.rules(Self.google)
        let resolution = try rules.resolve(input, trace: true)
        #expect(resolution.unwrapped == input)
        let step = try #require(resolution.steps.first)
        #expect(resolution.steps.count == 1)
        #expect(step.kind == .redirectRule && step.to == nil && step.from == input)
        #expect(step.refused?.contains(reason) == true, "\(step.refused ?? "")")
        #expect(resolution.trace?.redirects.first?.verdict == .refused)
        #expect(resolution.trace?.redirects.first?.reason == step.refused)
    }

    @Test func triesTheNextRuleWhenAResultIsRefused() throws {
        let rules = try Self.rules(
            #"""
            {"https?://g\\.example/.*$": {"param": "url"},
             "https?://g\\.example/(\\w+).*$": {"format": "https://fallback.example/$1"}}
            """#
        )
        #expect(try rules.unwrap("https://g.example/p?url=%0A").link == "https://fallback.example/p")
        #expect(try rules.unwrap("https://g.example/p?other=1").link == "https://fallback.example/p")
    }

    @Test func refusesAForbiddenScheme() throws {
        let input = "https://www.google.com/url?url=javascript%3Aalert(1)"
        #expect(try Self.rules(Self.google).unwrap(input).link == input)
    }

    @Test func terminatesOnASelfMappingRule() throws {
        let rules = try Self.rules(#"{"https?://r\\.example/.*$": {"format": "$0"}}"#)
        let (url, steps) = try rules.unwrap("https://r.example/a")
        #expect(url == "https://r.example/a")
        #expect(steps.isEmpty)
    }

    /// Found by the template fuzzer: redirect patterns ran without the regex budget, so one catastrophic pattern
    /// (the real v5 Webex shape, used as a redirect rule) held every resolution for over a second.
    @Test func runsRedirectRulesUnderTheRegexBudget() throws {
        let rules = try Self.rules(
            #"{"https?(://(?:.+\\.)+webex\\.com/.*)(?:(?i)(?:mtid=))(.+)$": {"format": "https://meet.example/$2"}}"#
        )
        // The link holds the pattern's required literal (`webex.com/`), so the prefilter hands it to the regex.
        let link = "https://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.webex.com/a.b.c.d.e.f.g"
        let budget = MatchBudget(perRegex: .milliseconds(50), perResolution: .milliseconds(250))
        let clock = ContinuousClock()
        var start = clock.now
        let resolution = try rules.resolve(link, options: MatchOptions(budget: budget))
        let resolveTime = clock.now - start
        #expect(resolveTime < budget.perResolution + .milliseconds(100))
        #expect(resolution.unwrapped == link && resolution.steps.isEmpty)
        #expect(
            resolution.timedOutRules.count == 1
                && resolution.timedOutRules.allSatisfy { $0.tokens.first == "redirects" }
        )
        start = clock.now
        #expect(rules.unwrap(try Link(link), budget: budget).link.text == link)
        let traced = try rules.resolve(link, options: MatchOptions(budget: budget), trace: true)
        #expect(traced.trace?.redirects.map(\.verdict) == [.timedOut])
        let applyAndExplainTime = clock.now - start
        let limit: Duration = budget.perResolution * 2 + .milliseconds(100)
        #expect(applyAndExplainTime < limit)
        // Without the literal the regex is not run at all: no match, nothing timed out.
        let elsewhere = "https://www.example.com/a/b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t"
        let skipped = try rules.resolve(elsewhere, options: MatchOptions(budget: budget), trace: true)
        #expect(skipped.timedOutRules.isEmpty && skipped.trace?.redirects.map(\.verdict) == [.noMatch])
        // A link the rule is meant for still redirects.
        #expect(try rules.unwrap("https://company.webex.com/meet/x?MTID=abc").link == "https://meet.example/abc")
    }

    @Test func resolveMatchesActionsAgainstTheUnwrappedLink() throws {
        let rules = try RuleFixture.rules(
            actions:
                #"[{"regex": "https?://a\\.example/(\\w+)$", "formats": [{"appId": "alpha", "format": "alpha://$1"}]}]"#,
            redirects: Self.google
        )
        let resolution = try rules.resolve("https://mail.google.com/url?url=https%3A%2F%2Fa.example%2Fitem")
        #expect(resolution.unwrapped == "https://a.example/item")
        #expect(resolution.steps.map(\.kind) == [.redirectRule])
        #expect(resolution.openings.map(\.url) == ["alpha://item"])
    }
}
