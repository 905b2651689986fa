import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// Conformance: the real manifests' own test cases all pass (script cases are skipped without an evaluator).
extension RuleTestRunnerTests {
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func passesEveryTemplateBrowserAndRedirectCaseOfTheRealVersion5Manifest() async throws {
        let report = await RuleTestRunner(rules: try RuleFixture.sharedRules("openerManifest-v5.json")).run()
        #expect(report.count(.format, .passed) == 1374)
        #expect(report.count(.browser, .passed) == 67)
        #expect(report.count(.redirect, .passed) == 65)
        #expect(report.failed == 0, "\(report.results.filter { $0.status == .failed }.prefix(5))")
        let scripted = report.results.filter { $0.kind == .script }
        #expect(!scripted.isEmpty)
        #expect(scripted.allSatisfy { $0.status == .skipped && $0.reason == "script" })
        #expect(report.skipped == scripted.count)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func passesEveryTemplateAndBrowserCaseOfTheRealVersion2Manifest() async throws {
        let report = await RuleTestRunner(rules: try RuleFixture.sharedRules("openerManifest-v2.json")).run()
        #expect(report.count(.format, .passed) == 677)
        #expect(report.count(.browser, .passed) == 29)
        #expect(report.count(.redirect, .passed) == 0)
        #expect(report.failed == 0, "\(report.results.filter { $0.status == .failed }.prefix(5))")
        #expect(report.results.filter { $0.kind == .script }.allSatisfy { $0.status == .skipped })
    }
}
