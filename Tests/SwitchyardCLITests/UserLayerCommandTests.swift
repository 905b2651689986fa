import Foundation
import LinkMatching
import SwitchyardTestSupport
import Testing

@testable import switchyard

/// `--user-layer`, `--source-app` and the layer in `resolve`, `explain`, `test` and `lint`, in process.
@Suite struct UserLayerCommandTests {
    static let manifest = RuleFixture.text(
        actions: #"""
            [{"title": "Open Item", "regex": "^https://shop\\.example/item/(\\d+)$",
              "formats": [{"appId": "alpha", "format": "alpha://item/$1"}, {"appId": "beta", "format": "beta://item/$1"}]}]
            """#,
        browsers:
            #"[{"identifier": "web", "name": "Web", "scheme": "web", "regex": "^(https?://.*)$", "format": "web:$1"}]"#
    )
    static let layer = #"""
        {
          "switchyardUserLayer": 1,
          "disable": [{"app": "beta"}, {"app": "vanished"}],
          "when": [{"sourceApps": ["com.tinyspeck.*"], "browserOnly": true}],
          "actions": [{"title": "Mine", "regex": "^https://shop\\.example/item/(\\d+)$", "testInputs": ["https://shop.example/item/1"],
                       "formats": [{"appId": "alpha", "format": "alpha://mine/$1", "testResults": ["alpha://mine/1"]}]}],
          "redirects": {"^https://go\\.example/(\\d+)$": {"format": "https://shop.example/item/$1",
                        "tests": {"https://go.example/3": "https://shop.example/item/3"}}}
        }
        """#

    /// A folder with `rules.json`, `layer.json` and `config/switchyard/user-layer.json` (the same layer), and an
    /// environment whose configuration folder is `config`.
    struct Files {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-layer-\(UUID().uuidString)")
        var manifest: String { directory.appendingPathComponent("rules.json").path }
        var layer: String { directory.appendingPathComponent("layer.json").path }
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
            return environment
        }

        init(layer: String = UserLayerCommandTests.layer) throws {
            let config = directory.appendingPathComponent("config/switchyard")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try Data(UserLayerCommandTests.manifest.utf8).write(to: URL(fileURLWithPath: manifest))
            try Data(layer.utf8).write(to: URL(fileURLWithPath: self.layer))
            try Data(layer.utf8).write(to: config.appendingPathComponent("user-layer.json"))
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    static func urls(_ outcome: CommandOutcome) throws -> [String] {
        try JSONDecoder().decode(Resolution.self, from: Data(outcome.stdout.utf8)).openings.compactMap(\.url)
    }

    @Test func theSourceAppDecidesBetweenAppsAndBrowsers() async throws {
        let files = try Files()
        defer { files.remove() }
        let base = ["resolve", "--offline", "--json", "--manifest", files.manifest, "--user-layer", files.layer]
        let plain = await InProcessCommand.run(base + ["https://shop.example/item/7"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Self.urls(plain) == ["alpha://mine/7", "alpha://item/7", "web:https://shop.example/item/7"])
        let slack = await InProcessCommand.run(
            base + ["--source-app", "com.tinyspeck.chatlyio", "https://shop.example/item/7"]
        )
        #expect(try Self.urls(slack) == ["web:https://shop.example/item/7"])
        // The vanished reference is a warning on stderr, located in the layer.
        #expect(
            slack.stderrLines == [
                #"\#(files.layer):3:32: warning: \#(files.manifest) has no app "vanished"; this entry does nothing (was it removed or renamed by an update?) [W_VANISHED_REFERENCE at /disable/1]"#
            ]
        )
    }

    @Test func theDefaultLayerFileAppliesUnlessTurnedOff() async throws {
        let files = try Files()
        defer { files.remove() }
        let base = ["resolve", "--offline", "--json", "--manifest", files.manifest]
        let layered = await InProcessCommand.run(base + ["https://go.example/7"], environment: files.environment)
        #expect(try Self.urls(layered) == ["alpha://mine/7", "alpha://item/7", "web:https://shop.example/item/7"])
        let off = await InProcessCommand.run(
            base + ["--no-user-layer", "https://go.example/7"],
            environment: files.environment
        )
        #expect(try Self.urls(off) == ["web:https://go.example/7"])
    }

    @Test func explainSaysWhichLayerDecided() async throws {
        let files = try Files()
        defer { files.remove() }
        let outcome = await InProcessCommand.run(
            [
                "explain", "--offline", "--manifest", files.manifest, "--user-layer", files.layer,
                "--source-app", "com.tinyspeck.chatlyio", "https://go.example/7",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("User redirect rule /redirects/^https?:~1~1go") == false)
        #expect(outcome.stdout.contains(#"User redirect rule /redirects/^https:~1~1go\.example~1(\d+)$: applied"#))
        #expect(outcome.stdout.contains("/actions/0 Mine (user layer): matched"))
        #expect(outcome.stdout.contains("  → /actions/0/formats/0: removed by the user layer's /when/0/browserOnly"))
        #expect(outcome.stdout.contains(#"  /disable/0 disabled app "beta": /actions/0/formats/1"#))
    }

    @Test func aBadLayerIsRefusedWithLocatedErrorsAndStatusTwo() async throws {
        let files = try Files(layer: "{\"switchyardUserLayer\": 1,\n \"hide\": \"beta\",\n \"when\": [{}]}")
        defer { files.remove() }
        let outcome = await InProcessCommand.run(
            ["resolve", "--offline", "--manifest", files.manifest, "--user-layer", files.layer, "https://a.example"]
        )
        #expect(outcome.status == 2)
        #expect(
            outcome.stderrLines == [
                #"\#(files.layer):2:10: error: "hide" must be an array of app identifiers, not a string [E_TYPE at /hide]"#,
                #"\#(files.layer):3:11: error: a "when" entry needs "sourceApps" or "hosts"; for every link, use the top-level keys [E_MISSING at /when/0]"#,
                "\(files.layer): error: the user layer is refused, so none of it is used: 2 entries have errors",
            ]
        )
    }

    @Test func testRunsTheLayersOwnCasesUnderTheLayer() async throws {
        let files = try Files()
        defer { files.remove() }
        let outcome = await InProcessCommand.run(
            ["test", files.manifest, "--user-layer", files.layer, "--no-progress", "--json"]
        )
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let layer = try #require(report?["userLayer"] as? [String: Any])
        #expect(layer["passed"] as? Int == 2 && layer["failed"] as? Int == 0)
        // A failing case of the layer fails the command.
        try Data(Self.layer.replacingOccurrences(of: #"["alpha://mine/1"]"#, with: #"["alpha://mine/9"]"#).utf8)
            .write(to: URL(fileURLWithPath: files.layer))
        let failing = await InProcessCommand.run(["test", files.manifest, "--user-layer", files.layer, "--no-progress"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("user layer \(files.layer): 1 passed, 1 failed, 0 skipped"))
        #expect(failing.stdout.contains("FAIL /actions/0/formats/0/testResults/0: https://shop.example/item/1"))
    }

    @Test func lintReportsWhatTheManifestNoLongerHas() async throws {
        let files = try Files()
        defer { files.remove() }
        let outcome = await InProcessCommand.run(["lint", "--user-layer", files.layer, files.manifest])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("[W_VANISHED_REFERENCE at /disable/1]"))
        #expect(outcome.stdout.hasSuffix("\(files.layer): 0 errors, 1 warning\n"))
    }
}
