import ArgumentParser
import ClaimsBenchmarks
import Foundation
import LinkRules
import SwitchyardBenchmarks

extension BenchCommand {
    /// `bench --claims`: AASA decisions timed on the realistic and the hostile file; exits 1 over budget.
    func runClaims() throws {
        guard let report = ClaimsBenchmark().run() else {
            throw CommandFailure(message: "error: the benchmark's own AASA files do not read", exitCode: 1)
        }
        let output = CommandOutput.current
        if json {
            try output.printJSON(report, pretty: false)
        } else {
            let outcomes = report.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            output.print(
                """
                realistic AASA:    \(report.realisticLinks, "link") (\(outcomes.joined(separator: ", "))), compiled in \(String(format: "%.2f", report.realisticCompileMillis)) ms
                  per decision:    mean \(figure(report.realistic.meanMicros)) µs, median \(figure(report.realistic.medianMicros)), p99 \(figure(report.realistic.p99Micros)) (budget \(figure(ClaimsBenchmark.realisticBudgetMicros)) µs)
                hostile AASA:      \(report.hostileComponents) components, \(report.hostileLinks) long links, compiled in \(String(format: "%.1f", report.hostileCompileMillis)) ms
                  per decision:    mean \(figure(report.hostile.meanMicros)) µs, median \(figure(report.hostile.medianMicros)), p99 \(figure(report.hostile.p99Micros)) (budget \(figure(ClaimsBenchmark.hostileBudgetMicros)) µs)
                adversarial AASA:  \(report.hostileComponents) components that all pass the cheap checks: mean \(figure(report.adversarial.meanMicros)) µs (no budget)
                within budget:     \(report.withinBudget ? "yes" : "no")
                """
            )
        }
        if !report.withinBudget { throw ExitCode(1) }
    }

    private func figure(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
}
