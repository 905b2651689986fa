import LinkRules

/// Runs a manifest's own embedded tests: action formats (`testInputs` × `testResults`), browsers and redirect
/// `tests` — the same pipeline the resolver uses, driven by the manifest's cases.
public struct RuleTestRunner: Sendable {
    /// The compiled rules under test.
    public let rules: RuleSet
    /// Renders script cases; nil reports them as skipped with reason "script".
    public let scripts: (any ScriptEvaluating)?

    /// Creates a runner.
    public init(rules: RuleSet, scripts: (any ScriptEvaluating)? = nil) {
        self.rules = rules
        self.scripts = scripts
    }

    /// Runs every case, in manifest order: actions, then browsers, then redirects.
    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) async -> RuleTestReport {
        let cases = collectCases()
        var results: [RuleTestResult] = []
        results.reserveCapacity(cases.count)
        for (index, testCase) in cases.enumerated() {
            results.append(await run(testCase))
            progress?(index + 1, cases.count)
        }
        return RuleTestReport(results: results)
    }

    /// One case to run: an input, the expected value, and how to produce the actual one.
    struct TestCase: Sendable {
        enum Producer: Sendable {
            case output(Output, CompiledRegex, rule: String)
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
        let compiledActions = Dictionary(rules.actions.map { ($0.action.pointer, $0) }, uniquingKeysWith: { a, _ in a })
        for action in rules.manifest.actions {
            let compiled = compiledActions[action.pointer]
            for format in action.formats {
                guard let expectedResults = format.testResults else { continue }
                let output = format.fields.output
                let kind: RuleTestResult.Kind = output?.needsScript == true ? .script : .format
                let compiledFormat = compiled?.formats.first { $0.format.pointer == format.pointer }
                let producer: TestCase.Producer =
                    if let compiled, let compiledFormat {
                        .output(compiledFormat.output, compiled.regex, rule: format.pointer.description)
                    } else {
                        .broken(compiled == nil ? "the action's regex did not compile" : "the format was rejected at load (see diagnostics)")
                    }
                cases += pairCases(kind: kind, inputs: action.testInputs, expected: expectedResults, pointer: format.pointer, producer: producer)
            }
        }
        let compiledBrowsers = Dictionary(rules.browsers.map { ($0.browser.pointer, $0) }, uniquingKeysWith: { a, _ in a })
        for browser in rules.manifest.browsers {
            guard let expectedResults = browser.testResults else { continue }
            let kind: RuleTestResult.Kind = browser.fields.output?.needsScript == true ? .script : .browser
            let producer: TestCase.Producer =
                if let compiled = compiledBrowsers[browser.pointer] {
                    .output(compiled.output, compiled.regex, rule: browser.pointer.description)
                } else {
                    .broken("the browser was rejected at load (see diagnostics)")
                }
            cases += pairCases(kind: kind, inputs: browser.testInputs, expected: expectedResults, pointer: browser.pointer, producer: producer)
        }
        let compiledRedirects = Set(rules.redirects.map(\.rule.pointer))
        for rule in rules.manifest.redirects {
            let testsKey = "tests"
            for test in rule.tests {
                let producer: TestCase.Producer = compiledRedirects.contains(rule.pointer) ? .redirects : .broken("the redirect rule was rejected at load (see diagnostics)")
                cases.append(TestCase(kind: .redirect, location: rule.pointer.appending(testsKey).appending(test.input).description, input: test.input, expected: test.expected, producer: producer))
            }
        }
        return cases
    }

    /// Pairs inputs with expected results; a length mismatch makes the unpaired cases fail.
    func pairCases(kind: RuleTestResult.Kind, inputs: [String], expected: [String?], pointer: JSONPointer, producer: TestCase.Producer) -> [TestCase] {
        (0..<max(inputs.count, expected.count)).map { index in
            let location = pointer.appending("testResults").appending(index).description
            guard index < inputs.count, index < expected.count else {
                return TestCase(kind: kind, location: location, input: index < inputs.count ? inputs[index] : "", expected: index < expected.count ? expected[index] : nil, producer: .broken("testResults has \(expected.count) entries but there are \(inputs.count) test inputs"))
            }
            return TestCase(kind: kind, location: location, input: inputs[index], expected: expected[index], producer: producer)
        }
    }

    func run(_ testCase: TestCase) async -> RuleTestResult {
        func result(_ actual: String?, reason: String? = nil) -> RuleTestResult {
            let passed = actual == testCase.expected
            return RuleTestResult(kind: testCase.kind, status: passed ? .passed : .failed, location: testCase.location, input: testCase.input, expected: testCase.expected, actual: actual, reason: passed ? nil : (reason ?? "expected \(describe(testCase.expected)), got \(describe(actual))"))
        }
        switch testCase.producer {
        case .broken(let reason):
            return RuleTestResult(kind: testCase.kind, status: .failed, location: testCase.location, input: testCase.input, expected: testCase.expected, actual: nil, reason: reason)
        case .redirects:
            return result(rules.applyRedirects(to: testCase.input).url)
        case .output(.template(let template), let regex, _):
            guard regex.matches(testCase.input) else { return result(nil, reason: "the regex does not match the input") }
            return result(regex.replacingMatches(in: testCase.input, with: template))
        case .output(.script(let source, let legacy), let regex, let rule):
            guard let scripts else {
                return RuleTestResult(kind: testCase.kind, status: .skipped, location: testCase.location, input: testCase.input, expected: testCase.expected, actual: nil, reason: "script")
            }
            guard regex.matches(testCase.input) else { return result(nil, reason: "the regex does not match the input") }
            switch await scripts.evaluate(source, legacy: legacy, input: testCase.input, rule: rule) {
            case .completed(let url):
                return result(url)
            case .unavailable(let reason):
                return RuleTestResult(kind: testCase.kind, status: .skipped, location: testCase.location, input: testCase.input, expected: testCase.expected, actual: nil, reason: reason)
            case .failed(let reason):
                return result(nil, reason: reason)
            }
        }
    }

    func describe(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "null"
    }
}
