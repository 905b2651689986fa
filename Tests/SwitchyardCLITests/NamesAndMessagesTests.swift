import Foundation
import SwitchyardTestSupport
import Testing

/// One name and one form for each thing the command line says (issue 35, section 3).
@Suite struct NamesAndMessagesTests {
    @Test(arguments: [
        (["help", "nope"], "error: unknown command 'nope' (the commands: "),
        (["help", "reslove"], "error: unknown command 'reslove'; did you mean 'resolve'?"),
        (["help", "claims", "dif"], "error: unknown command 'dif' of claims; did you mean 'diff'?"),
        (["help", "resolve", "nope"], "error: unknown command 'nope': resolve has none"),
    ])
    func helpOnAnUnknownCommandIsAnError(arguments: [String], first: String) async {
        let output = await InProcessCommand.run(arguments)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.first?.hasPrefix(first) == true, "\(output.stderr)")
        #expect(output.stderrLines.last == "  See 'switchyard help' for the commands.")
    }

    @Test func helpOnACommandStillPrintsItsHelp() async {
        let output = await InProcessCommand.run(["help", "claims", "diff"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("OVERVIEW: List the links whose decision changes"))
    }

    /// The stated bounds are the bounds: 0.0005 is not "at least 0.001", though it rounds to it.
    @Test(arguments: ["0.0005", "600.0001", "0.0009999"])
    func aTimeoutJustOutsideItsBoundsIsRefused(_ value: String) async {
        let output = await InProcessCommand.run([
            "resolve", "--offline", "--timeout", value, "https://twitter.com/jack",
        ])
        #expect(output.status == 2)
        #expect(
            output.stderrLines.first
                == "error: --timeout takes seconds, at least 0.001 and at most 600, not \"\(Double(value).map { $0 == 600.0001 ? "600.0001" : String($0) } ?? value)\""
        )
    }

    @Test(arguments: ["0.001", "600"])
    func aTimeoutOnItsBoundsIsTaken(_ value: String) async {
        let output = await InProcessCommand.run([
            "resolve", "--offline", "--timeout", value, "https://twitter.com/jack",
        ])
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// A JSON syntax error is `FILE:LINE:COLUMN: error: message [CODE…]` from every command that reads the file.
    @Test func jsonSyntaxErrorsHaveOneForm() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(#"{"apps": [1,}"#, named: "bad.json")
        let runs = [
            ["lint", file], ["resolve", "--offline", "--manifest", file, "https://x.example/"],
            ["minify", file], ["lint", "--aasa", file], ["claims", "https://x.example/", "--aasa", file],
        ]
        for arguments in runs {
            let output = await InProcessCommand.run(arguments)
            let line = try #require(
                (output.stdout + output.stderr).split(separator: "\n").first {
                    $0.contains("invalid JSON") || $0.contains("JSON")
                }
            )
            #expect(line.hasPrefix("\(file):1:13: error: "), "\(arguments): \(line)")
            #expect(!line.contains("line 1, column"), "\(arguments): \(line)")
            #expect(line.hasSuffix("]"), "\(arguments): \(line)")
        }
    }

    @Test(arguments: [
        (
            ["--type", "map", "--action", "search"],
            #"error: no app type "map"; did you mean "maps"? (known: browser, email, maps, twitter)"#
        ),
        (
            ["--type", "maps", "--action", "serch"],
            #"error: app type "maps" has no action "serch"; did you mean "search"? (it has search, directions)"#
        ),
        (
            ["--type", "maps", "--set-default", "wazee"],
            #"error: app type "maps" has no app "wazee"; did you mean "waze"?"#
        ),
    ])
    func chooseSuggestsTheClosestTypeActionAndApp(arguments: [String], start: String) async throws {
        let folder = try TemporaryFolder()
        let output = await InProcessCommand.run(["choose", "--choices", folder.path("c.sqlite")] + arguments)
        #expect(output.status == 2)
        #expect(output.stderrLines.first?.hasPrefix(start) == true, "\(output.stderr)")
    }

    @Test func resolveHelpSaysInstalledFiltersBrowsersToo() async {
        let help = await InProcessCommand.run(["resolve", "--help"])
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("browsers are filtered too (Safari's scheme is https)"), "\(help.stdout)")
    }

    /// The v5 manifest's Tidal cases fail because their inputs are stale: `test` says so, as `lint` does.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func staleTestsAreNamedByTest() async throws {
        let v5 = try #require(SharedData.url("openerManifest-v5.json")).path
        let output = await InProcessCommand.run(["test", v5])
        #expect(output.status == 1)
        let reasons = output.stdout.split(separator: "\n").filter { $0.hasPrefix("     ") }
        #expect(reasons.count == 12)
        #expect(reasons.allSatisfy { $0.contains("a stale test") && $0.contains("E_STALE_TEST") })
    }
}
