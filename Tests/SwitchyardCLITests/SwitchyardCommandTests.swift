import Foundation
import LinkResolver
import LinkRules
import Testing

/// The root command: help goes to standard output with status 0, in process as through `main`.
@Suite struct SwitchyardCommandTests {
    @Test(arguments: [["--help"], [], ["help", "resolve"], ["explain", "--help"]], CommandRunner.allCases)
    func printsHelpOnStandardOutputWithStatusZero(_ arguments: [String], runner: CommandRunner) async throws {
        let output = try await runner.run(arguments)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        #expect(output.stdout.hasPrefix("OVERVIEW: "), "\(output.stdout)")
        #expect(output.stdout.contains("USAGE: switchyard "))
    }

    @Test func helpForACommandListsItsNetworkOptions() async {
        let output = await InProcessCommand.run(["explain", "--help"])
        #expect(output.stdout.contains("--offline"))
        #expect(output.stdout.contains("--replay <dir>"))
    }
}

/// Every JSON document the CLI prints says which Switchyard wrote it, first.
@Suite struct JSONDocumentVersionTests {
    @Test(arguments: [
        ["resolve", "--offline", "--json", "https://twitter.com/jack"],
        ["explain", "--offline", "--json", "https://twitter.com/jack"],
        ["test", "--json"],
        ["lint", "--json"],
        ["choose", "--type", "maps", "--action", "search", "--param", "query=x", "--json", "--choices", "STORE"],
        ["xcallback", "parse", "bear://x-callback-url/create?title=a", "--json"],
        ["bench", "--json", "--generated", "20", "--naive-repetitions", "1", "--compiled-repetitions", "1"],
    ])
    func documentsStartWithTheVersion(_ arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("choices.sqlite").path
        let output = await InProcessCommand.run(arguments.map { $0 == "STORE" ? store : $0 })
        let compact = output.stdout.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
        #expect(
            compact.hasPrefix(#"{"version":"\#(SwitchyardVersion.current)""#),
            "\(output.stdout.prefix(200))\(output.stderr)"
        )
    }

    @Test func everyBatchLineStartsWithTheVersion() async throws {
        let directory = try TemporaryDirectory()
        let batch = try directory.write("https://twitter.com/jack\nftp://a.example/", named: "links.txt")
        let output = await InProcessCommand.run(["resolve", "--offline", "--batch", batch])
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"version":"\#(SwitchyardVersion.current)""#) })
    }
}
