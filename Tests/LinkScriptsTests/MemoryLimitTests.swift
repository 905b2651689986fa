import LinkScripts
import Testing

/// A script that makes the process grow past ``ScriptConfiguration/maximumMemoryGrowth`` is stopped with
/// `E_SCRIPT_MEMORY` (Linux only: the growth is read from `/proc/self/statm` by the time-limit callback), and the
/// worker runs the next script as usual.
@Suite(.serialized) struct MemoryLimitTests {
    #if os(Linux)
    @Test func aScriptThatKeepsAllocatingIsStoppedAndTheNextRuns() async throws {
        let runner = ScriptRunner(
            configuration: ScriptConfiguration(timeLimit: .seconds(20), workerCount: 1, maximumMemoryGrowth: 64 << 20)
        )
        let hog = try runner.compile(
            "function process(url, done) { var kept = []; while (true) { kept.push(new Array(1000000).fill(7)) } }",
            kind: .script2,
            name: "/actions/0/formats/0"
        )
        let stopped = await runner.run(hog, input: "https://a.example/", network: nil)
        #expect(stopped.output.failureCode == .memory, "\(stopped.output)")
        let fine = try runner.compile(
            "function process(url, done) { done('app://' + url.length) }",
            kind: .script2,
            name: "/actions/1/formats/0"
        )
        #expect(try await runner.run(fine, input: "https://a.example/", network: nil).output.get() == "app://18")
    }
    #endif
}
