import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard test` in process: the embedded tests of the bundled rules and of the real manifests; a failing case
/// also through the built binary.
@Suite struct TestCommandTests {
    @Test func bundledRulesPassTheirOwnTests() async throws {
        let output = await InProcessCommand.run(["test"])
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stdout.contains("bundled:default-rules.json (v5)"))
        #expect(output.stdout.contains(" 0 failed, "))
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func printsJSONTotalsForTheRealVersion5Manifest() async throws {
        let path = try #require(SharedData.url("openerManifest-v5.json")).path
        let output = await InProcessCommand.run(["test", "--json", path])
        // The manifest's stale Tidal tests (inputs its regex cannot match) fail, so the exit status is 1.
        #expect(output.status == 1, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        func count(_ kind: String, _ status: String) -> Int {
            results.count { $0["kind"] as? String == kind && $0["status"] as? String == status }
        }
        #expect(count("format", "passed") == 1374)
        #expect(count("browser", "passed") == 67)
        #expect(count("redirect", "passed") == 65)
        #expect(count("script", "passed") == 279)
        #expect(report["failed"] as? Int == 12)
        let failures = results.filter { $0["status"] as? String == "failed" }
        #expect(
            failures.allSatisfy {
                ($0["location"] as? String)?.hasPrefix("/actions/218/") == true
                    && ($0["reason"] as? String)?.hasPrefix("the regex does not match the input: a stale test") == true
            }
        )
        // Offline by default: scripts that call the network are skipped, each with its reason.
        let skipped = results.filter { $0["status"] as? String == "skipped" }
        #expect(skipped.count == report["skipped"] as? Int)
        #expect(skipped.allSatisfy { $0["kind"] as? String == "script" && $0["reason"] as? String == "needs network" })
        // Every result has the same keys, with explicit nulls.
        let keys: Set<String> = ["kind", "status", "location", "input", "expected", "actual", "reason"]
        #expect(results.allSatisfy { Set($0.keys) == keys })
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func summarisesTheRealVersion2Manifest() async throws {
        let path = try #require(SharedData.url("openerManifest-v2.json")).path
        let output = await InProcessCommand.run(["test", path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("(v2): 170 apps, 240 actions, 20 browsers"))
        let lines = output.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("format 677 passed, 0 failed, 0 skipped"))
        #expect(lines.contains("browser 29 passed, 0 failed, 0 skipped"))
    }

    /// The smoke test of the built binary: a failed check exits 1 through `main`, as in process.
    @Test(arguments: CommandRunner.allCases)
    func exitsOneWhenACaseFails(_ runner: CommandRunner) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            #"""
            {"apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
             "actions": [{"regex": "https?://x\\.example/(\\w+)$", "testInputs": ["https://x.example/q"],
                          "formats": [{"appId": "a", "format": "a://$1", "testResults": ["a://WRONG"]}]}]}
            """#,
            named: "failing.json"
        )
        let output = try await runner.run(["test", path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("FAIL /actions/0/formats/0/testResults/0: https://x.example/q"))
        #expect(output.stdout.contains(#"expected "a://WRONG", got "a://q""#))
    }
}
