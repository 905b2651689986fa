import LinkMatching
import LinkResolution
import LinkRules
import LinkScripts
import WebLinks

/// Runs a manifest's own embedded tests (action formats' `testInputs` × `testResults`, browsers, redirect `tests`)
/// through the resolver's own path: each input is normalised as a link, redirect cases run the redirect-rule stage,
/// and format and browser cases take the opening the compiled matcher gives for that rule, its script run by the
/// resolver's engine until the case's deadline, with the same output checks as any resolution.
public struct RuleTestRunner: Sendable {
    /// The reason of a case whose input the action's regex does not match while a URL is expected: the test is stale
    /// (the site's links changed, or the regex was narrowed), which `lint` reports as `E_STALE_TEST`.
    public static let staleTest =
        "the regex does not match the input: a stale test (the site's links changed, or the regex was narrowed), which lint reports as E_STALE_TEST"

    /// The resolver whose rules are under test (its engine runs script cases; none: they are skipped).
    public let resolver: Resolver
    /// The manifest whose embedded cases run (the rules' own manifest unless another is given).
    public let caseSource: Manifest
    /// Each case's time, as one resolution's (scripts included).
    public var timeLimit: Duration

    /// The compiled rules under test: the manifest's as loaded, without a user layer over them (the layer's own
    /// tests run on `AppliedUserLayer.rules`; see ``RuleTestRunner/runWithUserLayer(progress:)``).
    public var rules: RuleSet { resolver.rules.withoutUserLayer }

    /// Creates a runner for `resolver`'s rules with the cases embedded in `cases` (default: the rules' own).
    ///
    /// Running another manifest's cases is how a minified or migrated manifest (whose tests were stripped or
    /// moved) is checked against the original's tests. Rules are paired by content, in order: an action with the
    /// same regex (the next one in file order), its format with the same app; a browser with the same identifier;
    /// redirect cases run the whole rule list. Cases whose rule has no counterpart fail with that reason.
    /// Locations stay those of `cases`.
    public init(resolver: Resolver, cases: Manifest? = nil, timeLimit: Duration = .seconds(15)) {
        self.resolver = resolver
        self.caseSource = cases ?? resolver.rules.manifest
        self.timeLimit = timeLimit
    }

    /// Creates a runner over `rules` (no network: no unwrapping or header lookups); `engine` runs script cases
    /// (nil: they are skipped with reason "script").
    public init(rules: RuleSet, cases: Manifest? = nil, engine: ScriptEngine? = nil, timeLimit: Duration = .seconds(15))
    {
        self.init(resolver: Resolver(rules: rules, engine: engine, fetcher: nil), cases: cases, timeLimit: timeLimit)
    }

    /// Runs the manifest's cases and then, when the resolver's rules have a user layer, the layer's own cases
    /// (``RuleTestReport/userLayer``), with the resolver's engine.
    public func runWithUserLayer(progress: ((RuleTestResult, Int, Int) -> Void)? = nil) async -> RuleTestReport {
        var report = await run(progress: progress)
        if let layer = resolver.rules.userLayer {
            let layerRunner = RuleTestRunner(rules: layer.rules, engine: resolver.engine, timeLimit: timeLimit)
            report.userLayer = UserLayerTestReport(file: layer.file, await layerRunner.run())
        }
        return report
    }

    /// Runs every case, in manifest order: actions, then browsers, then redirects; `progress` hears each result
    /// with the number of cases done and the total.
    public func run(progress: ((RuleTestResult, Int, Int) -> Void)? = nil) async -> RuleTestReport {
        let cases = collectCases()
        var results: [RuleTestResult] = []
        results.reserveCapacity(cases.count)
        // Many cases share an input (one per format of an action): match each input once.
        var matches: [String: Result<(Link, RuleSet.Match), LinkError>] = [:]
        for (index, testCase) in cases.enumerated() {
            let result = await run(testCase, matches: &matches)
            results.append(result)
            progress?(result, index + 1, cases.count)
        }
        return RuleTestReport(results: results)
    }

    /// One case to run: an input, the expected value, and how to produce the actual one.
    struct TestCase: Sendable {
        enum Producer: Sendable {
            /// The opening of this rule (the paired format or browser), and the action whose regex must match.
            case opening(JSONPointer, action: JSONPointer?)
            case redirects
            case broken(String)
        }
        let kind: RuleTestResult.Kind
        let location: String
        let input: String
        let expected: String?
        let producer: Producer
    }

    func collectCases() -> [TestCase] {
        var cases: [TestCase] = []
        let pairing = RulePairing(cases: caseSource, rules: rules)
        for action in caseSource.actions {
            let target = pairing.action(for: action)
            for format in action.formats {
                guard let expectedResults = format.testResults else { continue }
                let output = format.fields.output
                let kind: RuleTestResult.Kind = output?.needsScript == true ? .script : .format
                let producer: TestCase.Producer =
                    switch target {
                    case .missing(let reason):
                        .broken(reason)
                    case .found(let compiled):
                        if let compiledFormat = pairing.format(for: format, of: action, in: compiled) {
                            .opening(compiledFormat.rule, action: compiled.action.pointer)
                        } else {
                            .broken(
                                pairing.isSelf
                                    ? "the format was rejected at load (see diagnostics)"
                                    : "no format for \"\(format.appId)\" in the paired action"
                            )
                        }
                    }
                cases += pairCases(
                    kind: kind,
                    inputs: action.testInputs,
                    expected: expectedResults,
                    pointer: format.pointer,
                    producer: producer
                )
            }
        }
        for browser in caseSource.browsers {
            guard let expectedResults = browser.testResults else { continue }
            let kind: RuleTestResult.Kind = browser.fields.output?.needsScript == true ? .script : .browser
            let producer: TestCase.Producer =
                if let compiled = pairing.browser(for: browser) {
                    .opening(compiled.rule, action: nil)
                } else {
                    .broken(
                        pairing.isSelf
                            ? "the browser was rejected at load (see diagnostics)"
                            : "no browser \"\(browser.app.identifier)\" in the rules under test"
                    )
                }
            cases += pairCases(
                kind: kind,
                inputs: browser.testInputs,
                expected: expectedResults,
                pointer: browser.pointer,
                producer: producer
            )
        }
        for rule in caseSource.redirects {
            for test in rule.tests {
                let producer: TestCase.Producer =
                    pairing.hasRedirect(rule)
                    ? .redirects : .broken("the redirect rule was rejected at load (see diagnostics)")
                cases.append(
                    TestCase(
                        kind: .redirect,
                        location: rule.pointer.appending("tests").appending(test.input).description,
                        input: test.input,
                        expected: test.expected,
                        producer: producer
                    )
                )
            }
        }
        return cases
    }

    /// Pairs inputs with expected results; a length mismatch makes the unpaired cases fail.
    func pairCases(
        kind: RuleTestResult.Kind,
        inputs: [String],
        expected: [String?],
        pointer: JSONPointer,
        producer: TestCase.Producer
    ) -> [TestCase] {
        (0..<max(inputs.count, expected.count)).map { index in
            let location = pointer.appending("testResults").appending(index).description
            guard index < inputs.count, index < expected.count else {
                return TestCase(
                    kind: kind,
                    location: location,
                    input: index < inputs.count ? inputs[index] : "",
                    expected: index < expected.count ? expected[index] : nil,
                    producer: .broken(
                        "testResults has \(expected.count, "entry", plural: "entries") but there are \(inputs.count, "test input")"
                    )
                )
            }
            return TestCase(
                kind: kind,
                location: location,
                input: inputs[index],
                expected: expected[index],
                producer: producer
            )
        }
    }

    func run(
        _ testCase: TestCase,
        matches: inout [String: Result<(Link, RuleSet.Match), LinkError>]
    ) async -> RuleTestResult {
        func result(_ actual: String?, reason: String? = nil) -> RuleTestResult {
            let passed = actual == testCase.expected
            return RuleTestResult(
                kind: testCase.kind,
                status: passed ? .passed : .failed,
                location: testCase.location,
                input: testCase.input,
                expected: testCase.expected,
                actual: actual,
                reason: passed ? nil : (reason ?? "expected \(describe(testCase.expected)), got \(describe(actual))")
            )
        }
        func skipped(_ reason: String) -> RuleTestResult {
            RuleTestResult(
                kind: testCase.kind,
                status: .skipped,
                location: testCase.location,
                input: testCase.input,
                expected: testCase.expected,
                actual: nil,
                reason: reason
            )
        }
        if case .broken(let reason) = testCase.producer {
            return RuleTestResult(
                kind: testCase.kind,
                status: .failed,
                location: testCase.location,
                input: testCase.input,
                expected: testCase.expected,
                actual: nil,
                reason: reason
            )
        }
        // Without an engine a script case cannot be decided, whatever its input.
        if testCase.kind == .script, resolver.engine == nil { return skipped("script") }
        let link: Link
        do {
            link = try Link(testCase.input)
        } catch {
            return result(nil, reason: "the test input is not a link: \(error.message)")
        }
        switch testCase.producer {
        case .broken:
            preconditionFailure("answered above")
        case .redirects:
            return result(rules.unwrap(link).link.text)
        case .opening(let rule, let action):
            let match: RuleSet.Match
            if case .success(let cached)? = matches[testCase.input] {
                match = cached.1
            } else {
                var budget = ResolutionBudget(timeLimit: timeLimit)
                var trace: ResolutionTrace?
                match = rules.match(link, options: MatchOptions(), budget: &budget, trace: &trace)
                matches[testCase.input] = .success((link, match))
            }
            guard let opening = match.openings.first(where: { $0.rule == rule }) else {
                if let action, match.timedOut.contains(action) {
                    return result(nil, reason: "the action's regex ran out of time")
                }
                return result(nil, reason: Self.staleTest)
            }
            guard opening.needsScript else { return result(opening.url, reason: opening.error?.message) }
            let rendered = await resolver.render(opening, link: link, deadline: .now + timeLimit)
            if rendered.error?.code == ScriptError.Code.needsNetwork.rawValue { return skipped("needs network") }
            if rendered.error?.code == "E_NO_RESULT" { return result(nil) }
            return result(rendered.url, reason: rendered.error.map { "\($0.message) [\($0.code)]" })
        }
    }

    func describe(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "null"
    }
}

/// Pairs the rules a case manifest describes with the compiled rules under test (see
/// ``RuleTestRunner/init(rules:cases:scripts:)``).
struct RulePairing {
    enum ActionTarget {
        case found(CompiledAction)
        case missing(String)
    }

    /// Whether the cases come from the rules' own manifest (pairing by pointer).
    let isSelf: Bool
    private var actionTargets: [JSONPointer: ActionTarget] = [:]
    private var browsersByIdentifier: [String: CompiledBrowser] = [:]
    private var browsersByPointer: [JSONPointer: CompiledBrowser] = [:]
    private let redirectPatterns: Set<String>

    init(cases: Manifest, rules: RuleSet) {
        isSelf = cases == rules.manifest
        let compiledByPointer = Dictionary(
            rules.actions.map { ($0.action.pointer, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        if isSelf {
            for action in cases.actions {
                actionTargets[action.pointer] =
                    compiledByPointer[action.pointer].map { .found($0) }
                    ?? .missing("the action's regex did not compile")
            }
            browsersByPointer = Dictionary(
                rules.browsers.map { ($0.browser.pointer, $0) },
                uniquingKeysWith: { first, _ in first }
            )
        } else {
            // Walk both action lists in order: each case action takes the next target action with the same regex.
            let targets = rules.manifest.actions
            var next = 0
            for action in cases.actions {
                guard let found = targets[next...].firstIndex(where: { $0.regex == action.regex }) else {
                    actionTargets[action.pointer] = .missing("no action with this regex in the rules under test")
                    continue
                }
                next = found + 1
                actionTargets[action.pointer] =
                    compiledByPointer[targets[found].pointer].map { .found($0) }
                    ?? .missing("the paired action's regex did not compile")
            }
            for browser in rules.browsers where browsersByIdentifier[browser.browser.app.identifier] == nil {
                browsersByIdentifier[browser.browser.app.identifier] = browser
            }
        }
        redirectPatterns = Set(rules.redirects.map(\.rule.pattern))
    }

    func action(for action: Action) -> ActionTarget {
        actionTargets[action.pointer] ?? .missing("the action was not loaded")
    }

    /// The compiled format of the paired action; across manifests, the n-th format for the same app.
    func format(for format: Format, of action: Action, in compiled: CompiledAction) -> CompiledFormat? {
        if isSelf { return compiled.formats.first { $0.format.pointer == format.pointer } }
        let sameApp = action.formats.filter { $0.appId == format.appId }
        guard let occurrence = sameApp.firstIndex(where: { $0.pointer == format.pointer }) else { return nil }
        let candidates = compiled.formats.filter { $0.format.appId == format.appId }
        return candidates.indices.contains(occurrence) ? candidates[occurrence] : nil
    }

    func browser(for browser: Browser) -> CompiledBrowser? {
        isSelf ? browsersByPointer[browser.pointer] : browsersByIdentifier[browser.app.identifier]
    }

    func hasRedirect(_ rule: RedirectRule) -> Bool {
        redirectPatterns.contains(rule.pattern)
    }
}
