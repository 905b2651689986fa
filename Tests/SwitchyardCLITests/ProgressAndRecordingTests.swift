import Foundation
import SwitchyardTestSupport
import Testing

/// `test --record` shows the live progress line on a terminal and ends with what it recorded; the recording replays;
/// `bench` draws the same progress line on a terminal.
@Suite struct ProgressAndRecordingTests {
    /// A manifest whose two script cases fetch their answer from `server`.
    static func manifest(server: LoopbackHTTPServer) -> String {
        #"""
        {"apps": [{"identifier": "alpha", "name": "Alpha", "scheme": "alpha"}],
         "actions": [{"regex": "https?://s\\.example/(\\w+)$",
           "testInputs": ["https://s.example/one", "https://s.example/two"],
           "formats": [{"appId": "alpha",
             "script2": "function process(url, done) { done(httpRequest('\#(server.baseURL)/' + url.split('/').pop())); }",
             "testResults": ["alpha://one", "alpha://two"]}]}]}
        """#
    }

    @Test func recordingShowsProgressAndASummaryAndReplays() async throws {
        let server = try await LoopbackHTTPServer.start { request in .text("alpha:/" + request.path) }
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.manifest(server: server), named: "scripted.json")
        let fixtures = directory.url.appendingPathComponent("fixtures").path
        let recorded = await InProcessCommand.run(
            ["test", path, "--record", fixtures, "--allow-private-addresses"],
            errorIsTerminal: true
        )
        await server.stop()
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        #expect(server.requestCount == 2)
        #expect(recorded.stderr.hasPrefix("\r["), "\(recorded.stderr)")
        #expect(recorded.stderr.contains("2/2  2 passed  0 failed  0 skipped"))
        #expect(recorded.stderrLines.last == "\(fixtures): 2 new fixtures recorded, 2 in the folder")
        #expect(recorded.stdout.contains("2 passed, 0 failed, 0 skipped"))
        // The server is gone: the fixtures answer.
        let replayed = await InProcessCommand.run(["test", path, "--replay", fixtures])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("2 passed, 0 failed, 0 skipped"))
    }

    /// A recording that records nothing (rules without scripts; the same offline) still leaves its folder, so the
    /// documented `--replay DIR` works after it: the folder was made only with the first fixture, and the replay
    /// failed with "does not exist".
    @Test func aRecordingOfNothingLeavesItsFolderForTheReplay() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            #"""
            {"apps": [{"identifier": "alpha", "name": "Alpha", "scheme": "alpha"}],
             "actions": [{"regex": "https?://s\\.example/(\\w+)$", "testInputs": ["https://s.example/one"],
               "formats": [{"appId": "alpha", "format": "alpha://$1", "testResults": ["alpha://one"]}]}]}
            """#,
            named: "plain.json"
        )
        let fixtures = directory.url.appendingPathComponent("new/fixtures").path
        let recorded = await InProcessCommand.run(["test", path, "--record", fixtures])
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        #expect(recorded.stderrLines.last == "\(fixtures): 0 new fixtures recorded, 0 in the folder")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: fixtures, isDirectory: &isDirectory) && isDirectory.boolValue)
        let replayed = await InProcessCommand.run(["test", path, "--replay", fixtures])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("1 passed, 0 failed, 0 skipped"))
    }

    /// A `--record` path that is a file: one line, status 2, before any case runs.
    @Test func aRecordingFolderThatIsAFileIsOneError() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("x", named: "fixtures")
        let output = await InProcessCommand.run(["test", "--record", file])
        #expect(output.status == 2)
        #expect(output.stderrLines == ["\(file): error: the recording folder is a file, not a directory"])
    }

    static let quickBench = ["bench", "--generated", "20", "--naive-repetitions", "1", "--compiled-repetitions", "2"]

    /// On a terminal, one live line: 21 loads, the test suite, the mismatch pass and three timed passes.
    @Test func benchDrawsTheProgressLineOnATerminal() async throws {
        let output = await InProcessCommand.run(Self.quickBench, errorIsTerminal: true)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("\r["), "\(output.stderr)")
        #expect(output.stderr.contains("26/26  compiled resolver"), "\(output.stderr)")
        #expect(!output.stderr.contains("load+compile:"))
        #expect(output.stdout.contains("urls:"))
    }

    /// Elsewhere (a log), each phase's result on a line of its own, and no carriage returns.
    @Test func benchPrintsPhaseLinesElsewhere() async throws {
        let output = await InProcessCommand.run(Self.quickBench)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("\r"))
        #expect(output.stderrLines.contains { $0.hasPrefix("load+compile: ") })
    }
}
