import HTTPTypes
import LinkMatching
import LinkRules
import SwitchyardBenchmarks
import SwitchyardTestSupport
import Testing
import WebLinks

/// Compiling a manifest into a `RuleSet`: regex and template checks with located diagnostics, and headers actions.
@Suite struct RuleSetTests {
    @Test func reportsARegexICURejectsAndLeavesTheActionOut() throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "(", "formats": [{"appId": "alpha", "format": "alpha://x"}]},
                 {"regex": "ok", "formats": [{"appId": "beta", "format": "beta://ok"}]}]
                """#
        )
        let diagnostic = try #require(rules.diagnostics.first)
        #expect(rules.diagnostics.count == 1)
        #expect(diagnostic.code == "E_REGEX")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.pointer == "/actions/0/regex")
        #expect(diagnostic.file == "fixture.json")
        #expect(diagnostic.position != nil)
        #expect(diagnostic.message.contains(#""(""#))
        #expect(
            try rules.resolve("https://x.example/ok(").openings.filter { $0.kind == .action }.map(\.url) == [
                "https://x.example/beta://ok("
            ]
        )
    }

    @Test func reportsAGroupReferenceBeyondTheGroupsAndLeavesTheFormatOut() throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "https?://g\\.example/(\\w+)$", "formats": [
                  {"appId": "alpha", "format": "alpha://$3"}, {"appId": "beta", "format": "beta://$1"}]}]
                """#
        )
        #expect(rules.diagnostics.map(\.code) == ["E_GROUP_REF"])
        let diagnostic = try #require(rules.diagnostics.first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.pointer == "/actions/0/formats/0/format")
        #expect(diagnostic.message.contains("$3"))
        #expect(try rules.resolve("https://g.example/x").openings.map(\.url) == ["beta://x"])
    }

    @Test func warnsThatICUReadsDollarTwentyTwoAsGroupTwoAndADigit() throws {
        let rules = try RuleFixture.single(regex: #"https?://a\.example/(\w)(\w)(\w)$"#, format: "alpha://$22")
        #expect(rules.diagnostics.map(\.code) == ["W_AMBIGUOUS_GROUP_REF"])
        #expect(rules.diagnostics.first?.severity == .warning)
        #expect(rules.diagnostics.first?.pointer == "/actions/0/formats/0/format")
        #expect(rules.errors.isEmpty)
        // ICU: group 2 ("y") followed by the literal "2".
        #expect(try rules.resolve("https://a.example/xyz").openings.map(\.url) == ["alpha://y2"])
        #expect(rules.naiveOpenings(for: try Link("https://a.example/xyz")).map(\.url) == ["alpha://y2"])
    }

    @Test func takesTwoDigitGroupsWhenTheyExist() throws {
        let regex = "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)"
        let rules = try RuleFixture.single(regex: regex, format: "alpha://$12-$1")
        #expect(rules.diagnostics.isEmpty, "\(rules.diagnostics)")
        #expect(
            try rules.resolve("https://x.example/abcdefghijkl").openings.map(\.url) == ["https://x.example/alpha://l-a"]
        )
    }

    /// Foundation reads a fixed number of digits after `$` (as many as the highest group number has), not ICU's
    /// longest existing group; found by the template fuzzer (`$01` with one group).
    @Test(arguments: [
        (#"http(s?.*)$"#, "red$01", "http://a.example/", "redhttp://a.example/1", ["W_AMBIGUOUS_GROUP_REF"]),
        (#"x\.example/(\w)"#, "alpha://$10", "https://x.example/q", "https://alpha://q0", ["W_AMBIGUOUS_GROUP_REF"]),
        (
            "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)", "alpha://$123$01", "https://x.example/abcdefghijkl",
            "https://x.example/alpha://l3a", ["W_AMBIGUOUS_GROUP_REF"]
        ),
        (#"x\.example/(\w)"#, #"alpha://$x\$1$"#, "https://x.example/q", "https://alpha://$x$1$", []),
        (#"x\.example/(\w)"#, #"alpha://\\$1\"#, "https://x.example/q", #"https://alpha://\q"#, []),
    ])
    func readsGroupDigitsAsFoundationDoes(
        _ regex: String,
        _ template: String,
        _ link: String,
        _ expected: String,
        _ codes: [String]
    ) throws {
        let rules = try RuleFixture.single(regex: regex, format: template)
        #expect(rules.diagnostics.map(\.code) == codes)
        #expect(try rules.resolve(link).openings.map(\.url) == [expected])
        #expect(rules.naiveOpenings(for: try Link(link)).map(\.url) == [expected])
    }

    @Test func refusesATwoDigitGroupTheRegexLacksInsteadOfReadingOneDigit() throws {
        // Ten groups: Foundation reads two digits, so $11 is group 11, which it would render as "".
        let rules = try RuleFixture.single(regex: "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)", format: "alpha://$11")
        #expect(rules.diagnostics.map(\.code) == ["E_GROUP_REF"])
    }

    @Test(arguments: [#"(a+)+$"#, #"(?:.+\.)+example\.com"#, #"(\w*)*x"#])
    func warnsAboutNestedRepetition(_ regex: String) throws {
        let rules = try RuleFixture.single(regex: regex, format: "alpha://x")
        #expect(rules.diagnostics.map(\.code) == ["W_REDOS_SUSPECT"])
        #expect(rules.diagnostics.first?.pointer == "/actions/0/regex")
        #expect(rules.errors.isEmpty)
    }

    @Test(arguments: [#"https?://(\w+\.)?google\.\w+/url"#, #"(ab)+c"#, #"[(a+)+]x"#, #"\(a+\)+"#])
    func doesNotFlagSingleRepetition(_ regex: String) throws {
        let rules = try RuleFixture.single(regex: regex, format: "alpha://x")
        #expect(rules.diagnostics.isEmpty, "\(rules.diagnostics)")
    }

    @Test func stopsACatastrophicRegexAtTheBudgetInsteadOfHanging() throws {
        let rules = try RuleFixture.single(regex: #"example/(a+)+$"#, format: "alpha://x")
        let input = "https://x.example/" + String(repeating: "a", count: 40) + "!"
        let options = MatchOptions(budget: MatchBudget(perRegex: .milliseconds(20), perResolution: .milliseconds(50)))
        let start = ContinuousClock.now
        let resolution = try rules.resolve(input, options: options)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(resolution.openings.isEmpty)
        #expect(resolution.timedOutRules == ["/actions/0"])
    }

    // MARK: Headers

    static let headerActions = #"""
        [{"regex": "https?://blog\\.example/\\S*\\n.*\"X-Blog\":\"(\\w+)\".*$", "headers": true,
          "formats": [{"appId": "alpha", "format": "alpha://blog/$1"}]},
         {"regex": "^https?://blog\\.example/(\\w+)$", "headers": true,
          "formats": [{"appId": "beta", "format": "beta://post/$1"}]}]
        """#

    @Test func matchesHeadersActionsAgainstTheLinkAndCompactHeadersJSON() throws {
        let rules = try RuleFixture.rules(actions: Self.headerActions)
        #expect(rules.errors.isEmpty, "\(rules.errors)")
        let options = MatchOptions(
            headers: [.contentType: "text/html", HTTPField.Name("X-Blog")!: "someblog"],
            includeBrowsers: false
        )
        let openings = try rules.resolve("https://blog.example/post1", options: options).openings
        #expect(openings.map(\.url) == ["alpha://blog/someblog"])
        #expect(rules.naiveOpenings(for: try Link("https://blog.example/post1"), options: options) == openings)
    }

    @Test func matchesHeadersActionsAgainstTheLinkAloneWithoutHeaders() throws {
        let rules = try RuleFixture.rules(actions: Self.headerActions)
        let openings = try rules.resolve("https://blog.example/post1").openings
        #expect(openings.map(\.url) == ["beta://post/post1"])
    }

    @Test func escapesHeaderValuesInTheJSON() throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "\\n(\\{.*\\})$", "headers": true, "formats": [{"appId": "alpha", "format": "alpha://h?$1"}]}]
                """#
        )
        let options = MatchOptions(headers: [HTTPField.Name("X-Quote")!: #"say "hi"\"#], includeBrowsers: false)
        let openings = try rules.resolve("https://h.example/", options: options).openings
        #expect(openings.map(\.url) == [#"https://h.example/alpha://h?{"X-Quote":"say \"hi\"\\"}"#])
    }

    // MARK: Real data

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func compilesTheRealVersion5ManifestWithoutErrors() throws {
        let rules = try RuleFixture.sharedRules("openerManifest-v5.json")
        #expect(rules.errors.isEmpty, "\(rules.errors.prefix(5))")
        // The Webex rule nests repetition ((?:.+\.)+webex\.com): the heuristic must see it.
        #expect(rules.diagnostics.contains { $0.code == "W_REDOS_SUSPECT" })
    }
}
