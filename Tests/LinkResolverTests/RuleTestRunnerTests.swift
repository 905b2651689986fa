import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// `RuleTestRunner`: a manifest's own test cases, passed, failed and skipped, and conformance on the real data.
@Suite struct RuleTestRunnerTests {
    static let actions = #"""
        [{"title": "Open", "regex": "https?://r\\.example/(\\w+)$",
          "testInputs": ["https://r.example/one", "https://r.example/two", "https://other.example/"],
          "formats": [
            {"appId": "alpha", "format": "alpha://$1", "testResults": ["alpha://one", "alpha://two", null]},
            {"appId": "beta", "format": "beta://$1", "testResults": ["beta://one", "beta://WRONG", "beta://none"]},
            {"appId": "phoneonly", "script2": "function process(url, done) { done('phoneonly://x'); }",
             "testResults": ["phoneonly://x", "phoneonly://y", null]}
          ]}]
        """#

    static func rules() throws -> RuleSet {
        try RuleFixture.rules(actions: actions)
    }

    @Test func passesMatchingTemplateCases() async throws {
        let report = await RuleTestRunner(rules: try Self.rules()).run()
        let alpha = report.results.filter { $0.location.hasPrefix("/actions/0/formats/0/") }
        #expect(alpha.map(\.status) == [.passed, .passed, .passed])
        #expect(alpha.map(\.kind) == [.format, .format, .format])
        #expect(alpha.map(\.actual) == ["alpha://one", "alpha://two", nil])
        #expect(alpha.map(\.location) == (0..<3).map { "/actions/0/formats/0/testResults/\($0)" })
        #expect(alpha.allSatisfy { $0.reason == nil })
    }

    @Test func failsWithTheExpectedAndActualURLs() async throws {
        let report = await RuleTestRunner(rules: try Self.rules()).run()
        let beta = report.results.filter { $0.location.hasPrefix("/actions/0/formats/1/") }
        #expect(beta.map(\.status) == [.passed, .failed, .failed])
        #expect(beta[1].expected == "beta://WRONG")
        #expect(beta[1].actual == "beta://two")
        #expect(beta[1].reason == #"expected "beta://WRONG", got "beta://two""#)
        #expect(beta[2].actual == nil)
        #expect(beta[2].reason == RuleTestRunner.staleTest)
    }

    @Test func skipsScriptCasesWithoutAnEvaluator() async throws {
        let report = await RuleTestRunner(rules: try Self.rules()).run()
        let scripted = report.results.filter { $0.kind == .script }
        #expect(scripted.count == 3)
        #expect(scripted.allSatisfy { $0.status == .skipped && $0.reason == "script" })
        #expect(report.passed == 4)
        #expect(report.failed == 2)
        #expect(report.skipped == 3)
        #expect(report.count(.format, .failed) == 2)
    }

    @Test func failsEveryUnpairedCaseWhenLengthsDiffer() async throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "https?://l\\.example/(\\w+)$", "testInputs": ["https://l.example/a", "https://l.example/b"],
                  "formats": [{"appId": "alpha", "format": "alpha://$1", "testResults": ["alpha://a"]},
                              {"appId": "beta", "format": "beta://$1", "testResults": ["beta://a", "beta://b", "beta://c"]}]}]
                """#
        )
        #expect(rules.errors.map(\.code) == ["E_TEST_LENGTH", "E_TEST_LENGTH"])
        let report = await RuleTestRunner(rules: rules).run()
        #expect(report.results.map(\.status) == [.passed, .failed, .passed, .passed, .failed])
        let unpaired = report.results.filter { $0.status == .failed }
        #expect(
            unpaired.map(\.location) == ["/actions/0/formats/0/testResults/1", "/actions/0/formats/1/testResults/2"]
        )
        #expect(unpaired.allSatisfy { $0.reason?.contains("test inputs") == true })
    }

    @Test func reportsCasesOfARejectedRegexAsFailed() async throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "(", "testInputs": ["x"], "formats": [{"appId": "alpha", "format": "alpha://", "testResults": ["alpha://"]}]}]
                """#
        )
        let report = await RuleTestRunner(rules: rules).run()
        #expect(report.results.map(\.status) == [.failed])
        #expect(report.results.first?.reason == "the action's regex did not compile")
    }

    @Test func runsBrowserAndRedirectCases() async throws {
        let rules = try RuleFixture.rules(
            browsers: #"""
                [{"identifier": "zb", "name": "ZB", "scheme": "zb", "regex": "http(s?.*)$", "format": "zb$1",
                  "testInputs": ["https://a.example/", "http://b.example/"], "testResults": ["zbs://a.example/", "zb://b.example/"]}]
                """#,
            redirects: #"""
                {"https?://go\\.example/.*$": {"param": "to", "tests": {
                  "https://go.example/?to=https%3A%2F%2Fa.example%2F": "https://a.example/",
                  "https://go.example/?to=x": "https://wrong.example/"}}}
                """#
        )
        let report = await RuleTestRunner(rules: rules).run()
        #expect(report.results.map(\.kind) == [.browser, .browser, .redirect, .redirect])
        #expect(report.results.map(\.status) == [.passed, .passed, .passed, .failed])
        // "x" is not a link, so the rule does not apply and the link stays as it was.
        #expect(report.results.last?.actual == "https://go.example/?to=x")
        #expect(
            report.results[2].location
                == "/redirects/https?:~1~1go\\.example~1.*$/tests/https:~1~1go.example~1?to=https%3A%2F%2Fa.example%2F"
        )
    }

    // MARK: Scripts, through the resolver's engine

    /// One action whose script answers by input: a URL for `/one`, the network for `/net` (offline: needs it), an
    /// exception for `/throw`.
    static let scripted = #"""
        [{"title": "Scripted", "regex": "https?://s\\.example/(\\w+)$",
          "testInputs": ["https://s.example/one", "https://s.example/net", "https://s.example/throw", "https://other.example/"],
          "formats": [
            {"appId": "alpha", "script2": "function process(url, done) { if (/one$/.test(url)) done('alpha://one'); else if (/net$/.test(url)) done(httpRequest(url)); else throw new Error('nope'); }",
             "testResults": ["alpha://one", "alpha://net", "alpha://throw", null]}
          ]}]
        """#

    @Test func runsScriptCasesThroughTheResolversEngine() async throws {
        let rules = try RuleFixture.rules(actions: Self.scripted)
        let report = await RuleTestRunner(rules: rules, engine: ScriptEngine(fetcher: nil)).run()
        let scripted = report.results.filter { $0.kind == .script }
        #expect(scripted.map(\.status) == [.passed, .skipped, .failed, .passed])
        #expect(scripted[0].actual == "alpha://one")
        #expect(scripted[1].reason == "needs network")
        #expect(scripted[2].actual == nil)
        #expect(scripted[2].reason?.contains("nope") == true, "\(scripted[2].reason ?? "")")
        #expect(scripted[2].reason?.contains("E_SCRIPT_EXCEPTION") == true)
        // The last input does not match the regex: the script is not run, and no URL was expected.
        #expect(scripted[3].actual == nil)
    }

    @Test func aScriptCaseStopsAtTheCasesTimeLimit() async throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "https?://spin\\.example/", "testInputs": ["https://spin.example/"],
                  "formats": [{"appId": "alpha", "script2": "function process(u, c) { while (true) {} }", "testResults": [null]}]}]
                """#
        )
        let clock = ContinuousClock()
        let start = clock.now
        let report = await RuleTestRunner(
            rules: rules,
            engine: ScriptEngine(fetcher: nil),
            timeLimit: .milliseconds(300)
        ).run()
        #expect(clock.now - start < .seconds(2))
        let result = try #require(report.results.first)
        #expect(result.status == .passed, "a script that gives no URL passes a null expectation")
        let failing = try RuleFixture.rules(
            actions: #"""
                [{"regex": "https?://spin\\.example/", "testInputs": ["https://spin.example/"],
                  "formats": [{"appId": "alpha", "script2": "function process(u, c) { while (true) {} }", "testResults": ["alpha://x"]}]}]
                """#
        )
        let timedOut = await RuleTestRunner(
            rules: failing,
            engine: ScriptEngine(fetcher: nil),
            timeLimit: .milliseconds(300)
        ).run()
        #expect(timedOut.results.first?.reason?.contains("E_SCRIPT_TIMEOUT") == true)
    }

    @Test func aTemplateWhoseOutputIsUnsafeFailsWithTheOutputCheck() async throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "https?://u\\.example/(.*)$", "testInputs": ["https://u.example/javascript:alert(1)"],
                  "formats": [{"appId": "alpha", "format": "alpha://open", "testResults": ["alpha://open"]},
                              {"appId": "beta", "format": "$1", "testResults": ["javascript:alert(1)"]}]}]
                """#
        )
        let report = await RuleTestRunner(rules: rules).run()
        #expect(report.results.map(\.status) == [.passed, .failed])
        #expect(report.results[1].actual == nil)
        #expect(report.results[1].reason?.contains("javascript") == true, "\(report.results[1].reason ?? "")")
    }
}

/// A user layer that disables a manifest script rule still lets the manifest's own tests run that script: they run
/// without the layer (Docs/UserLayer.md), through the same resolver.
@Suite struct RuleTestRunnerUserLayerTests {
    @Test func aScriptRuleTheLayerDisablesStillRunsForTheManifestsTests() async throws {
        let layered = try RuleTestRunnerTests.rules().applying(
            layer: #"{"switchyardUserLayer": 1, "disable": [{"pointer": "/actions/0/formats/2"}]}"#
        )
        #expect(layered.userLayer?.diagnostics.isEmpty == true)
        let resolver = Resolver(rules: layered, engine: ScriptEngine(fetcher: nil), fetcher: nil)
        let report = await RuleTestRunner(resolver: resolver).run()
        let scripted = report.results.filter { $0.kind == .script }
        #expect(scripted.count == 3)
        #expect(scripted.map(\.status) == [.passed, .failed, .passed], "\(scripted.map(\.reason))")
        #expect(!scripted.contains { $0.reason?.contains("E_SCRIPT_UNKNOWN") == true })
    }
}
