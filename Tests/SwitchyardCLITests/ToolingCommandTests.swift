import Foundation
import SwitchyardTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `lint`, `minify`, `migrate` and `test --junit` in process, as a maintainer runs them; the progress line also on a
/// real terminal.
@Suite struct ToolingCommandTests {
    static let broken = """
        {
            "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
            "actions": [
                {
                    "regex": "https://a\\\\.example/(\\\\d+)",
                    "testInputs": ["https://a.example/1", "https://b.example/2"],
                    "formats": [{"appId": "a", "format": "a://$2", "testResults": ["a://1", "a://2"]}]
                }
            ]
        }
        """

    @Test func lintReportsEveryProblemWithItsPlaceAndExitsOne() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.broken, named: "rules.json")
        let output = await InProcessCommand.run(["lint", path])
        #expect(output.status == 1)
        // File order: the stale test input (line 6) before the template (line 7).
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("\(path):6:51: error: test input 1 \"https://b.example/2\"") == true)
        #expect(lines.first?.hasSuffix("[E_STALE_TEST at /actions/0/testInputs/1]") == true)
        #expect(
            output.stdout.contains(
                "\(path):7:50: error: the template \"a://$2\" uses $2 but the regex has only 1 capture group;"
            )
        )
        #expect(output.stdout.contains("[E_GROUP_REF at /actions/0/formats/0/format]"))
        #expect(output.stdout.contains("\(path): 2 errors, 0 warnings"))
        let json = await InProcessCommand.run(["lint", "--json", path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["errorCount"] as? Int == 2)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(
            diagnostics.map { $0["pointer"] as? String } == ["/actions/0/testInputs/1", "/actions/0/formats/0/format"]
        )
    }

    @Test func lintOfTheBundledRulesIsClean() async throws {
        let output = await InProcessCommand.run(["lint"])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("bundled:default-rules.json: 0 errors"))
    }

    @Test func lintOfATruncatedFileNamesLineAndColumn() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("{\n  \"apps\": [\n", named: "cut.json")
        let output = await InProcessCommand.run(["lint", path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("\(path):3:1: error: invalid JSON"))
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func minifyThenTestWithTheOriginalsCasesGivesTheSameCounts() async throws {
        let original = try #require(SharedData.url("openerManifest-v5.json")).path
        let directory = try TemporaryDirectory()
        let minified = directory.url.appendingPathComponent("min.json").path
        let run = await InProcessCommand.run(["minify", original, "-o", minified])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("identical outcomes"))
        let originalSize = try #require(try FileManager.default.attributesOfItem(atPath: original)[.size] as? Int)
        let minifiedSize = try #require(try FileManager.default.attributesOfItem(atPath: minified)[.size] as? Int)
        #expect(minifiedSize * 3 < originalSize)
        let before = await InProcessCommand.run(["test", original])
        let after = await InProcessCommand.run(["test", minified, "--cases", original])
        #expect(before.stdout.split(separator: "\n").last == after.stdout.split(separator: "\n").last)
        #expect(after.stdout.hasSuffix("1785 passed, 12 failed, 323 skipped\n"))
    }

    @Test func minifyWritesNothingWhenTheInputIsBroken() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("{\"apps\": [", named: "cut.json")
        let target = directory.url.appendingPathComponent("out.json").path
        let output = await InProcessCommand.run(["minify", path, "-o", target])
        #expect(output.status == 2)
        #expect(output.stderr.contains("\(path):1:11: error: invalid JSON"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func migrateVersion2ToVersion5KeepsTheTestCountsAndRoundTrips() async throws {
        let v2 = try #require(SharedData.url("openerManifest-v2.json")).path
        let directory = try TemporaryDirectory()
        let v5 = directory.url.appendingPathComponent("v5.json").path
        let up = await InProcessCommand.run(["migrate", v2, "--to", "v5", "-o", v5])
        #expect(up.status == 0, "\(up.stderr)")
        let before = await InProcessCommand.run(["test", v2])
        let after = await InProcessCommand.run(["test", v5])
        #expect(before.stdout.split(separator: "\n").last == after.stdout.split(separator: "\n").last)
        #expect(after.stdout.contains("(v5)"))
        let down = await InProcessCommand.run(["migrate", v5, "--to", "v2"])
        #expect(down.status == 0)
        let back = try directory.write(down.stdout, named: "back.json")
        let again = await InProcessCommand.run(["migrate", back, "--to", "5"])
        #expect(again.stdout == (try String(contentsOfFile: v5, encoding: .utf8)))
    }

    /// Counts a person reads are singular for 1 (`1 capture group`, `1 error`), through the one helper: they said
    /// `1 capture groups` and `1 errors, 0 warnings`.
    @Test func countsOfOneAreSingular() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            #"""
            {"apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
             "actions": [{"regex": "https://a\\.example/(\\d+)", "testInputs": ["https://a.example/1"],
               "formats": [{"appId": "a", "format": "a://$2", "testResults": ["a://1"]}]}]}
            """#,
            named: "one.json"
        )
        let output = await InProcessCommand.run(["lint", path])
        #expect(output.status == 1)
        #expect(
            output.stdout.contains("but the regex has only 1 capture group; this entry is ignored"),
            "\(output.stdout)"
        )
        #expect(output.stdout.hasSuffix("\(path): 1 error, 0 warnings\n"), "\(output.stdout)")
    }

    /// `migrate --to v2` says the scripts a v2 client cannot run in one warning with their count, not one per script
    /// (199 lines for the v5 manifest).
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func migrateSaysTheScriptsItCannotCarryOnce() async throws {
        let v5 = try #require(SharedData.url("openerManifest-v5.json")).path
        let output = await InProcessCommand.run(["migrate", v5, "--to", "v2", "--no-verify"])
        #expect(output.status == 0, "\(output.stderr)")
        let scripts = output.stderrLines.filter { $0.contains(#""script2" needs Opener 1.1.8"#) }
        #expect(scripts.count == 1, "\(output.stderr)")
        #expect(scripts.first?.contains(" formats use it, this one first") == true, "\(output.stderr)")
        #expect(output.stderrLines.last == "\(v5): v5 → v2; 2 warnings")
    }

    @Test func outputReplacesAnExistingFileWhole() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            Self.broken.replacingOccurrences(of: "a://$2", with: "a://$1"),
            named: "rules.json"
        )
        let target = try directory.write("old contents", named: "out.json")
        let output = await InProcessCommand.run(["migrate", path, "--to", "v3", "-o", target])
        #expect(output.status == 0, "\(output.stderr)")
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.contains(#""appIdentifier": "a""#))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "out.json", "rules.json",
            ]
        )
    }

    /// `-o` goes through the one writer (UserFile.write): a failure names the path and says why in the tool's words,
    /// and leaves nothing behind.
    @Test func outputThatCannotBeWrittenIsNamedWithTheReason() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            Self.broken.replacingOccurrences(of: "a://$2", with: "a://$1"),
            named: "rules.json"
        )
        let missing = directory.url.appendingPathComponent("no-such-folder/out.json").path
        let intoMissing = await InProcessCommand.run(["migrate", path, "--to", "v3", "--no-verify", "-o", missing])
        #expect(intoMissing.status == 2)
        #expect(intoMissing.stdout.isEmpty)
        #expect(
            intoMissing.stderrLines.last
                == "\(missing): error: the output file cannot be written: its folder does not exist"
        )
        let folder = directory.url.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let ontoFolder = await InProcessCommand.run(["migrate", path, "--to", "v3", "--no-verify", "-o", folder.path])
        #expect(ontoFolder.status == 2)
        #expect(ontoFolder.stderrLines.last == "\(folder.path): error: the output file is a directory, not a file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "folder", "rules.json",
            ]
        )
    }

    /// `bench` on a tiny corpus: the compiled matcher and the naive loop agree on every link.
    @Test func benchFindsNoMismatchOnASmallCorpus() async throws {
        let directory = try TemporaryDirectory()
        let corpus = try directory.write(
            "https://twitter.com/jack/status/20\n\nhttps://example.org/\nhttps://www.youtube.com/watch?v=x\n",
            named: "corpus.txt"
        )
        let output = await InProcessCommand.run([
            "bench", "--corpus", corpus, "--naive-repetitions", "1", "--compiled-repetitions", "1", "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(report["urls"] as? Int == 3)
        #expect(report["mismatches"] as? Int == 0)
        #expect((report["ratio"] as? Double ?? 0) > 0)
        // The hostile guard's line: JavaScriptCore's answer with the shortcuts on, its cost and the guard's budget.
        let hostileGuard = try #require(report["hostileGuard"] as? [String: Any])
        #expect(hostileGuard["sameAnswer"] as? Bool == true)
        #expect(hostileGuard["budgetMillis"] as? Double == 50)
        #expect((hostileGuard["withShortcutsMillis"] as? Double ?? 0) > 0)
    }

    @Test func migrateRejectsAnUnknownVersion() async throws {
        let output = await InProcessCommand.run(["migrate", "x.json", "--to", "v9"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("Please provide one of 'v1', 'v2', 'v3', 'v4' or 'v5'"))
    }

    @Test func junitOutputIsXMLWithEveryCase() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            Self.broken.replacingOccurrences(of: "a://$2", with: "a://$1"),
            named: "rules.json"
        )
        let junit = directory.url.appendingPathComponent("report.xml")
        let output = await InProcessCommand.run(["test", path, "--junit", junit.path])
        #expect(output.status == 1)
        let parser = XMLParser(data: try Data(contentsOf: junit))
        #expect(parser.parse())
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 2)
        #expect(xml.contains(#"<failure message="the regex does not match the input: a stale test"#))
        // Not a terminal: no progress line.
        #expect(!output.stderr.contains("["))
    }

    @Test func progressLineAppearsOnATerminal() async throws {
        // `script` runs the command on a pseudo-terminal, as a maintainer's shell would.
        let binary = SwitchyardProcess.binaryURL.path
        let outcome = try await SwitchyardProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"),
            arguments: ["-qec", "\(binary) test", "/dev/null"]
        )
        let text = outcome.stdout
        #expect(outcome.status == 0, "\(text)")
        #expect(text.contains("\r["))
        #expect(text.contains("passed  0 failed  0 skipped"))
    }

    /// The same progress line in process, where the captured standard error passes for a terminal.
    @Test func progressLineIsDrawnWhenStandardErrorIsATerminal() async throws {
        let output = await InProcessCommand.run(["test"], errorIsTerminal: true)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("\r["))
        #expect(output.stderr.contains("passed  0 failed  0 skipped"))
        #expect(output.stderr.hasSuffix("\n"))
        let quiet = await InProcessCommand.run(["test", "--no-progress"], errorIsTerminal: true)
        #expect(quiet.stderr.isEmpty)
    }
}
