import LinkFetching
import LinkMatching
import LinkResolver
import LinkScripts
import SwitchyardTestSupport
import Testing

/// A script stopped at its time limit too often is set aside for a while, so hostile links cannot keep the
/// JavaScriptCore workers busy with it; other scripts are not affected, and it runs again after the cooldown. The
/// policy's windows and cooldowns run on an injected clock the tests move; each run's own limit is real time.
struct RunawayPolicyTests {
    static let loop = "function process(url, completionHandler) { while (true) {} }"
    static let fine = "function process(url, completionHandler) { completionHandler('app://' + url.length) }"

    @Test func aScriptStoppedTooOftenIsSetAsideThenRunsAgain() async throws {
        let clock = ManualClock()
        let engine = ScriptEngine(
            fetcher: nil,
            runaways: RunawayPolicy(stops: 2, window: .seconds(60), cooldown: .seconds(30)),
            clock: FetchClock(clock)
        )
        for _ in 0..<2 {
            #expect(try await engine.run(source: Self.loop, limit: .milliseconds(100)).failure?.code == .timeout)
        }
        // The third run is refused at once instead of holding a worker for another 100 ms.
        let wall = ContinuousClock()
        let start = wall.now
        let refused = try await engine.run(source: Self.loop, limit: .milliseconds(100))
        #expect(wall.now - start < .milliseconds(50))
        #expect(refused.failure?.code == .quarantined)
        #expect(refused.failure?.description.contains("/actions/0/formats/0") == true)
        #expect(refused.failure?.description.contains("set aside for 30 s more") == true)
        // Another script runs as usual meanwhile.
        let other = try await engine.run(source: Self.fine, limit: .seconds(5), rule: "/actions/1/formats/0")
        #expect(other.success == "app://18")
        // Just before the cooldown ends it is still refused; after it, the script is given its time limit again.
        clock.advance(by: .seconds(29))
        #expect(try await engine.run(source: Self.loop, limit: .milliseconds(100)).failure?.code == .quarantined)
        clock.advance(by: .seconds(2))
        #expect(try await engine.run(source: Self.loop, limit: .milliseconds(100)).failure?.code == .timeout)
    }

    /// Runs `count` runs of `source` on `input` at once.
    static func concurrentRuns(
        _ engine: ScriptEngine,
        _ source: String,
        input: String,
        count: Int,
        limit: Duration
    ) async throws -> [Result<String?, ScriptError>] {
        let script = try engine.runner.compile(source, kind: .script2, name: "/actions/0/formats/0")
        return await withTaskGroup(of: Result<String?, ScriptError>.self) { group in
            for _ in 0..<count {
                group.addTask { await engine.run(script, input: input, deadline: .now + limit) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func afterTheCooldownOneTrialRunsAtATimeUntilOneEndsInTime() async throws {
        let clock = ManualClock()
        let engine = ScriptEngine(
            fetcher: nil,
            runaways: RunawayPolicy(stops: 1, window: .seconds(60), cooldown: .seconds(30)),
            clock: FetchClock(clock)
        )
        let sometimes = """
            function process(url, completionHandler) {
              if (url.indexOf('loop') >= 0) { while (true) {} }
              completionHandler('app://ok')
            }
            """
        let loop = "https://a.example/loop"
        let limit = Duration.milliseconds(500)
        #expect(
            try await Self.concurrentRuns(engine, sometimes, input: loop, count: 1, limit: limit).first?.failure?.code
                == .timeout
        )
        clock.advance(by: .seconds(31))
        // The cooldown is over and four requests come at once: one trial runs, the others are refused at once
        // instead of each holding a worker for the whole time limit.
        let burst = try await Self.concurrentRuns(engine, sometimes, input: loop, count: 4, limit: limit)
        #expect(burst.filter { $0.failure?.code == .timeout }.count == 1)
        #expect(burst.filter { $0.failure?.code == .quarantined }.count == 3)
        #expect(burst.contains { $0.failure?.description.contains("trial run is under way") == true })
        // The trial was stopped: set aside again at once.
        let refused = try await Self.concurrentRuns(engine, sometimes, input: loop, count: 1, limit: limit)
        #expect(refused.first?.failure?.description.contains("set aside for") == true)
        // After the next cooldown a trial that ends in time clears the script: runs are no longer limited to one.
        clock.advance(by: .seconds(31))
        #expect(
            try await Self.concurrentRuns(engine, sometimes, input: "https://a.example/", count: 1, limit: limit).first?
                .success == "app://ok"
        )
        let free = try await Self.concurrentRuns(engine, sometimes, input: loop, count: 2, limit: limit)
        #expect(free.map { $0.failure?.code } == [.timeout, .timeout])
    }

    @Test func withoutAPolicyEveryRunGetsItsTimeLimit() async throws {
        let engine = ScriptEngine(fetcher: nil)
        for _ in 0..<4 {
            #expect(try await engine.run(source: Self.loop, limit: .milliseconds(50)).failure?.code == .timeout)
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
