import LinkMatching
import LinkResolver
import LinkScripts
import Testing

/// A script stopped at its time limit too often is set aside for a while, so hostile links cannot keep the
/// JavaScriptCore workers busy with it; other scripts are not affected, and it runs again after the cooldown.
struct RunawayPolicyTests {
    static let loop = "function process(url, completionHandler) { while (true) {} }"
    static let fine = "function process(url, completionHandler) { completionHandler('app://' + url.length) }"

    @Test func aScriptStoppedTooOftenIsSetAsideThenRunsAgain() async throws {
        let engine = ScriptEngine(
            fetcher: nil, timeLimit: .milliseconds(100),
            runaways: RunawayPolicy(stops: 2, window: .seconds(60), cooldown: .milliseconds(600)))
        let clock = ContinuousClock()
        for _ in 0..<2 {
            let result = await engine.run(Self.loop, legacy: false, input: "https://a.example/", rule: "/actions/0/formats/0")
            #expect(result.failure?.code == .timeout)
        }
        // The third run is refused at once instead of holding a worker for another 100 ms.
        let start = clock.now
        let refused = await engine.run(Self.loop, legacy: false, input: "https://a.example/", rule: "/actions/0/formats/0")
        #expect(clock.now - start < .milliseconds(50))
        #expect(refused.failure?.code == .quarantined)
        #expect(refused.failure?.description.contains("/actions/0/formats/0") == true)
        // Another script runs as usual meanwhile.
        let other = await engine.run(Self.fine, legacy: false, input: "https://a.example/", rule: "/actions/1/formats/0")
        #expect(other.success == "app://18")
        // After the cooldown the script is given its time limit again.
        try await Task.sleep(for: .milliseconds(700))
        let again = await engine.run(Self.loop, legacy: false, input: "https://a.example/", rule: "/actions/0/formats/0")
        #expect(again.failure?.code == .timeout)
    }

    /// Runs `count` runs of `source` on `input` at once.
    static func concurrentRuns(
        _ engine: ScriptEngine, _ source: String, input: String, count: Int
    ) async -> [Result<String?, ScriptError>] {
        await withTaskGroup(of: Result<String?, ScriptError>.self) { group in
            for _ in 0..<count {
                group.addTask { await engine.run(source, legacy: false, input: input, rule: "/actions/0/formats/0") }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func afterTheCooldownOneTrialRunsAtATimeUntilOneEndsInTime() async throws {
        let engine = ScriptEngine(
            fetcher: nil, timeLimit: .milliseconds(500),
            runaways: RunawayPolicy(stops: 1, window: .seconds(60), cooldown: .milliseconds(300)))
        let sometimes = """
            function process(url, completionHandler) {
              if (url.indexOf('loop') >= 0) { while (true) {} }
              completionHandler('app://ok')
            }
            """
        let loop = "https://a.example/loop"
        #expect(await Self.concurrentRuns(engine, sometimes, input: loop, count: 1).first?.failure?.code == .timeout)
        try await Task.sleep(for: .milliseconds(400))
        // The cooldown is over and four requests come at once: one trial runs, the others are refused at once
        // instead of each holding a worker for the whole time limit.
        let burst = await Self.concurrentRuns(engine, sometimes, input: loop, count: 4)
        #expect(burst.filter { $0.failure?.code == .timeout }.count == 1)
        #expect(burst.filter { $0.failure?.code == .quarantined }.count == 3)
        #expect(burst.contains { $0.failure?.description.contains("trial run is under way") == true })
        // The trial was stopped: set aside again at once.
        let refused = await Self.concurrentRuns(engine, sometimes, input: loop, count: 1)
        #expect(refused.first?.failure?.description.contains("set aside for") == true)
        // After the next cooldown a trial that ends in time clears the script: runs are no longer limited to one.
        try await Task.sleep(for: .milliseconds(400))
        #expect(await Self.concurrentRuns(engine, sometimes, input: "https://a.example/", count: 1).first?.success == "app://ok")
        let free = await Self.concurrentRuns(engine, sometimes, input: loop, count: 2)
        #expect(free.map { $0.failure?.code } == [.timeout, .timeout])
    }

    @Test func withoutAPolicyEveryRunGetsItsTimeLimit() async {
        let engine = ScriptEngine(fetcher: nil, timeLimit: .milliseconds(50))
        for _ in 0..<4 {
            let result = await engine.run(Self.loop, legacy: false, input: "https://a.example/", rule: "/actions/0/formats/0")
            #expect(result.failure?.code == .timeout)
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
