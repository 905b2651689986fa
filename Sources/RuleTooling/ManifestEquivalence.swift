import LinkMatching
import LinkResolver
import LinkRules

/// Proof that a rewritten manifest (minified, migrated) behaves like the original: every embedded test case of the
/// original is run on both, and each must end the same way (status and produced URL).
public struct EquivalenceReport: Sendable, Equatable {
    /// The original's own run.
    public var original: RuleTestReport
    /// The same cases run on the rewritten rules.
    public var rewritten: RuleTestReport
    /// Cases whose outcome differs: location, then the two outcomes.
    public var differences: [String]

    /// Whether every case ended the same way.
    public var isEquivalent: Bool { differences.isEmpty && original.results.count == rewritten.results.count }

    /// `N format, N script, N browser, N redirect cases; P passed, F failed, S skipped on both`.
    public var summary: String {
        let kinds = RuleTestResult.Kind.allCases.compactMap { kind -> String? in
            let count = original.results.count { $0.kind == kind }
            return count > 0 ? "\(count) \(kind.rawValue)" : nil
        }
        let totals = "\(original.passed) passed, \(original.failed) failed, \(original.skipped) skipped"
        return isEquivalent
            ? "\(original.results.count, "case") (\(kinds.joined(separator: ", "))): identical outcomes, \(totals) on both"
            : "\(differences.count) of \(original.results.count, "case") differ (original: \(totals); rewritten: \(rewritten.passed) passed, \(rewritten.failed) failed, \(rewritten.skipped) skipped)"
    }
}

/// Runs the equivalence check.
public enum ManifestEquivalence {
    /// Runs the original's cases on both rule sets; `engine` runs script cases (nil skips them on both).
    public static func check(original: RuleSet, rewritten: RuleSet, engine: ScriptEngine?) async -> EquivalenceReport {
        let before = await RuleTestRunner(rules: original, engine: engine).run()
        let after = await RuleTestRunner(rules: rewritten, cases: original.manifest, engine: engine).run()
        var differences: [String] = []
        for (lhs, rhs) in zip(before.results, after.results) where lhs.status != rhs.status || lhs.actual != rhs.actual
        {
            differences.append("\(lhs.location): \(describe(lhs)) before, \(describe(rhs)) after")
        }
        return EquivalenceReport(original: before, rewritten: after, differences: differences)
    }

    static func describe(_ result: RuleTestResult) -> String {
        "\(result.status.rawValue) (\(result.actual.map { "\"\($0)\"" } ?? result.reason ?? "null"))"
    }
}
