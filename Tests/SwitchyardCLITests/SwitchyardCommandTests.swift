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
