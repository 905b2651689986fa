import Foundation
import LinkScripts
import Testing

/// How many JavaScriptCore workers the runner keeps: as many as make progress, more only while runs are held.
@Suite struct WorkerPoolTests {
    func runner(workers: Int) -> ScriptRunner {
        ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(2), workerCount: workers))
    }

    /// Quick, and not a template (a statement before the call), so that it runs on a worker.
    static let quickSource = "function process(u, c) { var answer = 'app://quick'; c(answer); }"

    /// A script that never ends and one that answers at once.
    func runawayAndQuick(on runner: ScriptRunner) throws -> (runaway: CompiledScript, quick: CompiledScript) {
        (
            try runner.compile("function process(u, c) { for (;;) {} }", kind: .script2, name: "runaway"),
            try runner.compile(Self.quickSource, kind: .script2, name: "quick")
        )
    }

    @Test func quickRunsNeverStartMoreWorkersThanTheWorkerCount() async throws {
        let runner = runner(workers: 2)
        let script = try runner.compile(
            "function process(u, c) { c('app://' + u.length); }",
            kind: .script2,
            name: "quick"
        )
        let results = await withTaskGroup(of: String?.self) { group in
            for index in 0..<300 {
                group.addTask {
                    try? await runner.run(script, input: String(repeating: "a", count: index), network: nil).output
                        .get()
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.compactMap { $0 }) == Set((0..<300).map { "app://\($0)" }))
        #expect(runner.workerCount <= 2)
    }

    @Test func aRunawayScriptMakesRoomForAnotherWorkerWithinAWatchdogPeriod() async throws {
        let runner = runner(workers: 1)
        let (runaway, quick) = try runawayAndQuick(on: runner)
        async let stopped = runner.run(runaway, input: "x", network: nil, timeLimit: .seconds(1))
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        let result = await runner.run(quick, input: "x", network: nil)
        let waited = clock.now - start
        #expect(try result.output.get() == "app://quick")
        // One 20 ms watchdog period (CPU time, so allow for a loaded machine) plus starting a thread and a context.
        #expect(waited < .milliseconds(400), "the quick run waited \(waited)")
        #expect(runner.workerCount == 2)
        #expect(await stopped.output.failureCode == .timeout)
    }

    @Test func aRunWaitingOnTheNetworkMakesRoomForAnotherWorker() async throws {
        let runner = runner(workers: 1)
        let waiting = try runner.compile(
            "function process(u, c) { c(httpRequest(u)); }",
            kind: .script2,
            name: "waiting"
        )
        let quick = try runner.compile(Self.quickSource, kind: .script2, name: "quick")
        let slow = TableNetwork(pages: ["https://slow.test/": "app://late"], delay: .seconds(1))
        async let late = runner.run(waiting, input: "https://slow.test/", network: slow)
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await runner.run(quick, input: "x", network: nil).output.get() == "app://quick")
        #expect(clock.now - start < .milliseconds(400))
        #expect(try await late.output.get() == "app://late")
    }

    /// Under steady traffic every worker keeps getting jobs, so the extra one must end when the held run is over,
    /// not after some idle time that never comes.
    @Test func theExtraWorkerEndsOnceTheHeldRunIsOverEvenUnderSteadyTraffic() async throws {
        let runner = runner(workers: 1)
        let (runaway, quick) = try runawayAndQuick(on: runner)
        async let stopped = runner.run(runaway, input: "x", network: nil, timeLimit: .milliseconds(300))
        try await Task.sleep(for: .milliseconds(50))
        _ = await runner.run(quick, input: "x", network: nil)
        #expect(runner.workerCount == 2)
        _ = await stopped
        var count = runner.workerCount
        for _ in 0..<50 where count > 1 {
            _ = await runner.run(quick, input: "x", network: nil)
            try await Task.sleep(for: .milliseconds(10))
            count = runner.workerCount
        }
        #expect(count == 1)
        #expect(try await runner.run(quick, input: "x", network: nil).output.get() == "app://quick")
    }

    /// A run that throws keeps its warm context (a script failing on every link must not rebuild one per run), but
    /// the globals it created are gone before the next run.
    @Test func aRunThatThrowsLeavesNoGlobalsBehind() async throws {
        let runner = ScriptRunner(
            configuration: ScriptConfiguration(timeLimit: .seconds(2), workerCount: 1, maximumWorkers: 1)
        )
        let script = try runner.compile(
            """
            var runs = 0;
            function process(u, c) {
                runs += 1;
                if (u === "dirty") { leaked = 1; throw new Error("failed on purpose"); }
                c("app://" + (typeof leaked === "undefined" ? "clean" : "dirty") + "/" + runs);
            }
            """,
            kind: .script2,
            name: "throws"
        )
        #expect(await runner.run(script, input: "dirty", network: nil).output.failureCode == .exception)
        // Same context (runs went on counting), no leaked global.
        #expect(try await runner.run(script, input: "check", network: nil).output.get() == "app://clean/2")
    }

    @Test func aStoppedRunStartsTheNextOneInAFreshContext() async throws {
        let runner = ScriptRunner(
            configuration: ScriptConfiguration(timeLimit: .seconds(2), workerCount: 1, maximumWorkers: 1)
        )
        let script = try runner.compile(
            """
            var runs = 0;
            function process(u, c) { runs += 1; if (u === "loop") { for (;;) {} } c("app://" + runs); }
            """,
            kind: .script2,
            name: "loops"
        )
        #expect(try await runner.run(script, input: "a", network: nil).output.get() == "app://1")
        #expect(
            await runner.run(script, input: "loop", network: nil, timeLimit: .milliseconds(100)).output.failureCode
                == .timeout
        )
        #expect(try await runner.run(script, input: "b", network: nil).output.get() == "app://1")
    }
}
