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
