import Foundation
import HTTPTypes
import LinkMatching
import LinkRules
import SwitchyardBenchmarks
import SwitchyardTestSupport
import Testing
import WebLinks

/// The compiled matcher must give exactly the naive loop's openings (order included), on every input.
@Suite struct CompiledMatcherTests {
    static func v5Rules() throws -> RuleSet {
        RuleSet(
            try ManifestLoader().load(
                Array(try SharedData.data("openerManifest-v5.json")),
                file: "openerManifest-v5.json"
            ),
            scriptChecker: nil
        )
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func compiledMatcherEqualsNaiveLoopOnTwentyThousandLinks() throws {
        let rules = try Self.v5Rules()
        let corpus = LinkCorpus.make(for: rules, generated: 20_000).compactMap { try? Link($0) }
        #expect(corpus.count >= 21_000)
        var mismatches: [Link] = []
        for link in corpus where rules.naiveOpenings(for: link) != rules.openings(for: link) {
            mismatches.append(link)
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func compiledMatcherEqualsNaiveLoopWithFiltersAndHeaders() throws {
        let rules = try Self.v5Rules()
        let corpus = LinkCorpus.make(for: rules, generated: 500).prefix(2_000).compactMap { try? Link($0) }
        let variants = [
            MatchOptions(installed: InstalledApps(["twitter", "tweetbot", "googlechrome", "youtube"])),
            MatchOptions(platform: .pad),
            MatchOptions(headers: [HTTPField.Name("X-Tumblr-User")!: "someblog", .contentType: "text/html"]),
        ]
        for options in variants {
            for link in corpus {
                #expect(
                    rules.naiveOpenings(for: link, options: options) == rules.openings(for: link, options: options),
                    "\(link)"
                )
            }
        }
    }

    @Test(arguments: [
        "https://example.com/😀/123", "https://TWITTER.com/jack/status/1", "https://twitter.com/jack/",
        "https://x.com/a?url=https://twitter.com/jack/status/2", "http://www.youtube.com/watch?v=abc&t=1",
        "https://twitteK.com/", "http://twitter.com/jack", "https://a/",
    ])
    func awkwardInputsMatchTheNaiveLoop(text: String) throws {
        let rules = try RuleSet.load(Self.awkwardManifest, scriptChecker: nil)
        let link = try Link(text)
        #expect(rules.naiveOpenings(for: link) == rules.openings(for: link))
    }

    /// Text that is not a link never reaches the matcher: the normaliser refuses it first.
    @Test(arguments: ["https://twitter.com/jack\nnext", "", "https://", "twitter.com/jack", "ftp://twitter.com/jack"])
    func textThatIsNotALinkIsRefusedBeforeMatching(text: String) {
        #expect(throws: LinkError.self) { try Link(text) }
    }

    static let awkwardManifest = """
        {"apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
         "actions": [
           {"regex": "https?://(www\\\\.)?twitter\\\\.com/(\\\\w+)/status/(\\\\d+)", "formats": [{"appId": "a", "format": "a://$3/$2"}]},
           {"regex": "(?i)TWITTER\\\\.COM/(\\\\w+)$", "formats": [{"appId": "a", "format": "a://user/$1"}]},
           {"regex": "example\\\\.com/😀/(\\\\d+)", "formats": [{"appId": "a", "format": "a://emoji/$1"}]},
           {"regex": "https?(://(?:www\\\\.)?newegg\\\\.com/p/\\\\w+.*)?$", "formats": [{"appId": "a", "format": "a://x$1"}]},
           {"regex": "[^/]+$", "formats": [{"appId": "a", "format": "a://last/$0"}]}
         ],
         "browsers": [
           {"identifier": "b", "name": "B", "scheme": "b", "regex": "http(s?.*)$", "format": "b$1"},
           {"identifier": "c", "name": "C", "scheme": "c", "regex": ".+", "format": "c:$0"},
           {"identifier": "d", "name": "D", "scheme": "d", "regex": "https?://(.*)$", "format": "d://$1"}
         ]}
        """

    /// Found by the template fuzzer: `$$` required two end markers in a row, but the prefilter appends one, so the
    /// action was never confirmed and its opening was missing.
    @Test(arguments: [#".*$$"#, #"(b$)$"#, #"b$\\z"#, #"(?:ab$)$"#])
    func repeatedEndAnchorsMatchTheNaiveLoop(regex: String) throws {
        let rules = try RuleSet.load(
            #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "\#(regex)", "formats": [{"appId": "a", "format": "a://x"}]}], "previews": [{"regex": "\#(regex)", "format": "https://p/x"}]}"#,
            scriptChecker: nil
        )
        #expect(rules.errors.isEmpty, "\(rules.errors)")
        let link = try Link("https://x.example/xab")
        let openings = rules.openings(for: link)
        #expect(openings == rules.naiveOpenings(for: link))
        #expect(openings.map(\.kind) == [.action, .preview])
    }

    /// Found by the template fuzzer: the literals `deviantart.com` and `deviantart.com` + end marker each
    /// "contained" the other under Foundation's `String.contains`, so both were dropped and the action, indexed
    /// with no literal, was never a candidate.
    @Test func aLiteralAndItsEndAnchoredFormKeepTheShorterOne() throws {
        let regex = #"deviantart\\.com(.|/gallery)?$"#
        let rules = try RuleSet.load(
            #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "\#(regex)", "formats": [{"appId": "a", "format": "a://x"}]}]}"#,
            scriptChecker: nil
        )
        #expect(rules.actionLiterals.map(\.literals) == [["deviantart.com"]])
        let link = try Link("http://eving-1.deviantart.com/gallery")
        #expect(rules.openings(for: link) == rules.naiveOpenings(for: link))
        #expect(rules.openings(for: link).count == 1)
    }

    @Test func requiredLiteralsComeFromTheHost() throws {
        let rules = try RuleSet.load(Self.awkwardManifest, scriptChecker: nil)
        let literals = rules.actionLiterals
        #expect(literals[0].literals == ["twitter.com/"])
        #expect(literals[4].literals == nil)  // nothing to index: always confirmed
        #expect(rules.candidateActions(for: "https://example.org/") == ["/actions/4"])
        #expect(rules.matcherStatistics.trivialBrowsers == 3)
    }

    @Test func catastrophicRegexStopsAtItsBudget() throws {
        let manifest = """
            {"apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
             "actions": [{"regex": "(a+)+$", "formats": [{"appId": "a", "format": "a://$1"}]},
                         {"regex": "https?(://(?:.+\\\\.)+webex\\\\.com/.*)(?:(?i)(?:mtid=))(.+)$", "formats": [{"appId": "a", "format": "a://$2"}]},
                         {"regex": "aaa(b)", "formats": [{"appId": "a", "format": "a://ok/$1"}]}]}
            """
        let rules = try RuleSet.load(manifest, scriptChecker: nil)
        #expect(rules.diagnostics.contains { $0.code == "W_REDOS_SUSPECT" })
        let budget = MatchBudget(perRegex: .milliseconds(50), perResolution: .milliseconds(250))
        let clock = ContinuousClock()
        for link in [
            "https://x.example/" + String(repeating: "a", count: 40) + "!",
            "https://1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.webex.com/a",
        ] {
            let start = clock.now
            let resolution = try rules.resolve(link, options: MatchOptions(includeBrowsers: false, budget: budget))
            let elapsed = clock.now - start
            #expect(elapsed < budget.perResolution + .milliseconds(50), "\(link) took \(elapsed)")
            #expect(!resolution.timedOutRules.isEmpty)
        }
        // The next resolution is unaffected and ordinary rules still answer.
        let ok = try rules.resolve(
            "https://x.example/aaab",
            options: MatchOptions(includeBrowsers: false, budget: budget)
        )
        #expect(ok.openings.map(\.url) == ["https://x.example/a://ok/b"])
    }

    /// One runaway regex is stopped at its own limit (not only the resolution's), on ASCII links (ICU's C API on
    /// Linux) and non-ASCII ones (Foundation's enumerator).
    @Test func oneRunawayRegexStopsAtItsOwnLimit() throws {
        let manifest = """
            {"apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
             "actions": [{"regex": "(a+)+$", "formats": [{"appId": "a", "format": "a://$1"}]}]}
            """
        let rules = try RuleSet.load(manifest, scriptChecker: nil)
        let budget = MatchBudget(perRegex: .milliseconds(30), perResolution: .seconds(5))
        let clock = ContinuousClock()
        for link in [
            "https://x.example/" + String(repeating: "a", count: 60) + "!",
            "https://x.example/é" + String(repeating: "a", count: 60) + "!",
        ] {
            let start = clock.now
            let resolution = try rules.resolve(link, options: MatchOptions(includeBrowsers: false, budget: budget))
            let elapsed = clock.now - start
            #expect(elapsed < budget.perRegex + .milliseconds(50), "\(link.prefix(3)) took \(elapsed)")
            #expect(resolution.timedOutRules == ["/actions/0"])
            #expect(resolution.openings.isEmpty)
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func realWebexRuleIsBoundedOnALongDottedHost() throws {
        let rules = try Self.v5Rules()
        let link = "https://" + (1...30).map(String.init).joined(separator: ".") + ".webex.com/a"
        let clock = ContinuousClock()
        let start = clock.now
        _ = try rules.resolve(link)
        #expect(clock.now - start < .milliseconds(300))
    }
}
