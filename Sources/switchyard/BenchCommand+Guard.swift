import Foundation
import LinkScripts
import SwitchyardBenchmarks

/// What a script's guard costs on a hostile link: a manifest whose guard is `RegExp('x/(a+)+b')` (nested repetition,
/// which backtracks exponentially in ICU and in JavaScriptCore alike) on `x/` followed by 20 `a` and a `c`. The guard
/// is no shortcut there (LinkScripts' `ScriptGuard`), so the link costs what JavaScriptCore alone costs, never an ICU
/// run on the caller's task on top; a guard expression that is a shortcut runs under the matcher's per-regex budget.
struct GuardBenchmark: Encodable {
    /// Mean milliseconds a hostile link takes with the shortcuts on (the runner's default).
    var withShortcutsMillis: Double
    /// Mean milliseconds it takes in JavaScriptCore alone.
    var javaScriptCoreMillis: Double
    /// The guard's budget, in milliseconds (`ScriptConfiguration.guardTimeLimit`).
    var budgetMillis: Double
    /// Whether both gave the same answer.
    var sameAnswer: Bool

    static let source =
        #"function process(url, done) { var m = RegExp('x/(a+)+b').exec(url); if (m != null) { done('app://' + m[0]); } else { done(url); } }"#
    static let hostile = "https://example.com/x/" + String(repeating: "a", count: 20) + "c"

    /// Runs the hostile link `repetitions` times in each configuration, after one warm-up run each.
    static func measure(repetitions: Int = 3) async throws -> GuardBenchmark {
        func timed(templates: Bool) async throws -> (millis: Double, output: Result<String?, ScriptError>) {
            let runner = ScriptRunner(configuration: ScriptConfiguration(evaluatesTemplates: templates))
            let script = try runner.compile(source, kind: .script2, name: "/bench/guard")
            var output = await runner.run(script, input: hostile, network: nil).output
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<repetitions {
                output = await runner.run(script, input: hostile, network: nil).output
            }
            let elapsed = clock.now - start
            return (ResolverBenchmark.millis(elapsed) / Double(repetitions), output)
        }
        let shortcut = try await timed(templates: true)
        let javaScriptCore = try await timed(templates: false)
        return GuardBenchmark(
            withShortcutsMillis: shortcut.millis,
            javaScriptCoreMillis: javaScriptCore.millis,
            budgetMillis: ResolverBenchmark.millis(ScriptConfiguration().guardTimeLimit),
            sameAnswer: shortcut.output == javaScriptCore.output
        )
    }
}
