import ArgumentParser
import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import RuleTooling

/// `switchyard test [PATH]`: runs a manifest's own embedded tests (the bundled rules when no path is given).
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run a manifest's embedded tests: formats, scripts, browsers and redirects."
    )

    @Argument(help: "The manifest to test (default: the bundled rules).", completion: .file(extensions: ["json"]))
    var path: String?

    @Flag(help: "Print one JSON object with totals and every result.")
    var json = false

    @Flag(help: "Run the tests even when some entries have errors (their cases are reported as failed).")
    var lenient = false

    @Option(
        name: .customLong("cases"),
        help: ArgumentHelp(
            "Run the test cases embedded in this manifest against PATH's rules (e.g. the original of a minified file).",
            valueName: "MANIFEST"
        ),
        completion: .file(extensions: ["json"])
    )
    var casesPath: String?

    @Option(
        name: .customLong("user-layer"),
        help: ArgumentHelp(
            "Also run this user layer's own tests (its actions' and redirect rules' cases), reported under the layer.",
            valueName: "path"
        ),
        completion: .file(extensions: ["json"])
    )
    var userLayer: String?

    @Option(
        help: ArgumentHelp("Also write the results as JUnit XML to this file.", valueName: "FILE"),
        completion: .file(extensions: ["xml"])
    )
    var junit: String?

    @Flag(inversion: .prefixedNo, help: "Show a live progress line on standard error when it is a terminal.")
    var progress = true

    @OptionGroup(
        title: "Network (offline by default: script cases that need it are skipped with reason \"needs network\")"
    )
    var network: NetworkOptions

    func run() async throws {
        var rules = try await ManifestOptions.load(ManifestSource(argument: path), lenient: lenient, network: network)
        if let userLayer { rules = try UserLayerOptions.apply(userLayer, over: rules) }
        var cases: RuleSet?
        if let casesPath { cases = try await ManifestOptions.load(.file(casesPath), lenient: true, network: nil) }
        let engine = try network.scriptEngine()
        let runner = RuleTestRunner(rules: rules, cases: cases?.manifest, engine: engine, timeLimit: network.timeLimit)
        let output = CommandOutput.current
        let started = ContinuousClock.now
        let live = progress && output.errorIsTerminal ? LiveProgress(output: output) : nil
        let recordedBefore = network.recordedFixtures()
        let report = await runner.runWithUserLayer(
            progress: live.map { live in { live.update($0, done: $1, total: $2) } }
        )
        live?.finish()
        if let summary = network.recordingSummary(before: recordedBefore) { output.printError(summary) }
        if let junit {
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            try OutputFile.write(
                JUnitReport.xml(for: report, name: casesPath ?? rules.file ?? "manifest", durationSeconds: seconds),
                to: junit,
                what: "JUnit report"
            )
        }
        if json {
            try output.printJSON(report)
        } else {
            output.print(TestSummary.render(report, rules: rules))
        }
        if report.hasFailures { throw ExitCode(1) }
    }
}

/// The human-readable summary of a test run.
enum TestSummary {
    static func render(_ report: RuleTestReport, rules: RuleSet) -> String {
        var lines: [String] = []
        let source = rules.file ?? "manifest"
        lines.append(
            "\(source) (\(rules.manifest.version)): \(rules.manifest.apps.count, "app"), \(rules.manifest.actions.count, "action"), \(rules.manifest.browsers.count, "browser"), \(rules.manifest.redirects.count, "redirect rule")"
        )
        for kind in RuleTestResult.Kind.allCases {
            let passed = report.count(kind, .passed)
            let failed = report.count(kind, .failed)
            let skipped = report.count(kind, .skipped)
            guard passed + failed + skipped > 0 else { continue }
            lines.append(
                "  \(kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(passed) passed, \(failed) failed, \(skipped) skipped"
            )
        }
        let failures = report.results.filter { $0.status == .failed }
        for failure in failures.prefix(50) {
            lines.append("FAIL \(failure.location): \(failure.input)\n     \(failure.reason ?? "")")
        }
        if failures.count > 50 { lines.append("… and \(failures.count - 50) more failures (use --json for all)") }
        var skippedReasons: [String: Int] = [:]
        for result in report.results where result.status == .skipped {
            skippedReasons[result.reason ?? "", default: 0] += 1
        }
        for (reason, count) in skippedReasons.sorted(by: { $0.key < $1.key }) {
            lines.append("skipped \(count): \(reason)")
        }
        lines.append("\(report.passed) passed, \(report.failed) failed, \(report.skipped) skipped")
        if let layer = report.userLayer {
            lines.append(
                "user layer \(layer.file ?? ""): \(layer.passed) passed, \(layer.failed) failed, \(layer.skipped) skipped"
            )
            for failure in layer.results where failure.status == .failed {
                lines.append("FAIL \(failure.location): \(failure.input)\n     \(failure.reason ?? "")")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The progress line of a test run: the cases done and their outcomes, on a ``LiveLine``.
final class LiveProgress {
    private var passed = 0, failed = 0, skipped = 0
    private let line = ProgressLine()
    private let live: LiveLine

    /// Creates a progress line drawn on `output`'s standard error.
    init(output: CommandOutput) {
        live = LiveLine(output: output)
    }

    func update(_ result: RuleTestResult, done: Int, total: Int) {
        switch result.status {
        case .passed: passed += 1
        case .failed: failed += 1
        case .skipped: skipped += 1
        }
        live.draw(
            line.render(done: done, total: total, passed: passed, failed: failed, skipped: skipped),
            final: done == total
        )
    }

    /// Ends the line.
    func finish() {
        live.finish()
    }
}
