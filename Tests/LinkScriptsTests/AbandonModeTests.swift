import Foundation
import LinkScripts
import Testing

/// ``ScriptStopping/abandon(maximumAbandoned:)``, the mode of Apple platforms (public API only), run here on Linux:
/// the caller gets its timeout at the deadline, the run's thread goes on until the script ends, a new worker takes
/// the queue, and at most `maximumAbandoned` such threads exist at once. Scripts here end on their own after a while
/// (an endless one would spin for the rest of the test process).
@Suite struct AbandonModeTests {
    static func runner(maximumAbandoned: Int = 8, workers: Int = 1) -> ScriptRunner {
        ScriptRunner(
            configuration: ScriptConfiguration(
                timeLimit: .seconds(2),
                workerCount: workers,
                stopping: .abandon(maximumAbandoned: maximumAbandoned)
            )
        )
    }

    /// Busy for `milliseconds`, then answers.
    static func busy(_ milliseconds: Int) -> String {
        "function process(u, c) { var end = Date.now() + \(milliseconds); while (Date.now() < end) {} c('app://late'); }"
    }

    /// Quick, and not a template (a statement before the call), so that it runs on a worker.
    static let quick = "function process(u, c) { var answer = 'app://quick/' + u; c(answer); }"

    /// Waits (up to two seconds) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func theCallerGetsItsTimeoutAtTheDeadlineAndTheNextRunWorks() async throws {
        let runner = Self.runner()
        let slow = try runner.compile(Self.busy(600), kind: .script2, name: "slow")
        let quick = try runner.compile(Self.quick, kind: .script2, name: "quick")
        let clock = ContinuousClock()
        let start = clock.now
        let result = await runner.run(slow, input: "x", network: nil, timeLimit: .milliseconds(100))
        let elapsed = clock.now - start
        #expect(result.output.failureCode == .timeout)
        #expect(elapsed < .milliseconds(400), "answered after \(elapsed)")
        #expect(runner.abandonedCount == 1)
        // The abandoned worker is not the pool's any more: another one answers at once.
        #expect(try await runner.run(quick, input: "a", network: nil).output.get() == "app://quick/a")
        // The abandoned thread ends with its script, and lets its VM go.
        #expect(try await Self.eventually { runner.abandonedCount == 0 })
    }

    @Test func atMostTheAllowedNumberOfRunsAreAbandonedAtOnce() async throws {
        let runner = Self.runner(maximumAbandoned: 1)
        let slow = try runner.compile(Self.busy(500), kind: .script2, name: "slow")
        let quick = try runner.compile(Self.quick, kind: .script2, name: "quick")
        #expect(
            await runner.run(slow, input: "x", network: nil, timeLimit: .milliseconds(50)).output.failureCode
                == .timeout
        )
        let refused = await runner.run(quick, input: "b", network: nil)
        #expect(refused.output.failureCode == .exhausted)
        #expect(try await Self.eventually { runner.abandonedCount == 0 })
        #expect(try await runner.run(quick, input: "c", network: nil).output.get() == "app://quick/c")
    }

    @Test func aLongRunMakesRoomForAnotherWorkerWithinAWatchdogPeriod() async throws {
        let runner = Self.runner()
        let slow = try runner.compile(Self.busy(400), kind: .script2, name: "slow")
        let quick = try runner.compile(Self.quick, kind: .script2, name: "quick")
        async let late = runner.run(slow, input: "x", network: nil)
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await runner.run(quick, input: "d", network: nil).output.get() == "app://quick/d")
        #expect(clock.now - start < .milliseconds(300))
        // Within its limit, the long run is not abandoned: it answers.
        #expect(try await late.output.get() == "app://late")
        #expect(runner.abandonedCount == 0)
    }

    @Test func runsWithinTheirLimitGiveWhatTheOtherModeGives() async throws {
        let sources = [
            Self.quick, "function process(u, c) { c(null); }", "function process(u, c) { throw new Error('no'); }",
            "function process(u, c) { }", "function process(u, c) { c(42); }",
        ]
        let abandoning = Self.runner(workers: 2)
        let standard = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(2)))
        for (index, source) in sources.enumerated() {
            let first = try abandoning.compile(source, kind: .script2, name: "/\(index)")
            let second = try standard.compile(source, kind: .script2, name: "/\(index)")
            let a = await abandoning.run(first, input: "e", network: nil).output
            let b = await standard.run(second, input: "e", network: nil).output
            #expect((try? a.get()) == (try? b.get()) && a.failureCode == b.failureCode, "\(source)")
        }
    }
}
