import Foundation
import SwitchyardTestSupport
import Testing

/// The README's commands and examples work as written: each line of its `sh` blocks runs in the package root as a
/// shell would run it (`bash scripts/switchyard` against the binary these tests built), the output it promises
/// ("The first prints:" and an untagged block) is what the command prints, and its Swift example is the text of a
/// snippet that the documentation tests build and run.
@Suite struct ReadmeTests {
    static let readme = SharedData.packageRoot.appendingPathComponent("README.md")

    /// The README's fenced blocks, in order.
    static var blocks: [ReadmeBlock] {
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        return ReadmeBlock.parse(text)
    }

    /// Every command of the `sh` blocks, with the output block promised for it, if any.
    static var commands: [ReadmeCommand] {
        ReadmeCommand.commands(in: blocks)
    }

    /// The commands this suite runs: all but the test command, which is what runs this suite.
    static var runnableCommands: [ReadmeCommand] {
        commands.filter { $0.line != testCommand }
    }

    static let testCommand = "bash scripts/test"

    @Test func theReadmeHasItsTwoSetUpCommands() {
        let lines = Self.commands.map(\.line)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("bash scripts/switchyard resolve ") == true, "\(lines)")
        #expect(lines.contains(Self.testCommand), "\(lines)")
    }

    /// The test command cannot run inside the tests it runs; CI runs it, as written, through `.ci/run`.
    @Test func theTestCommandIsTheOneCIRuns() throws {
        let ci = try String(
            contentsOf: SharedData.packageRoot.appendingPathComponent(".ci/run"),
            encoding: .utf8
        )
        let lines = ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains(Self.testCommand))
    }

    @Test(arguments: runnableCommands)
    func runsAsWritten(_ command: ReadmeCommand) async throws {
        let outcome = try await SwitchyardProcess.run(
            executable: URL(fileURLWithPath: "/bin/bash"),
            arguments: ["-c", command.line],
            environment: ["SWITCHYARD_BIN": SwitchyardProcess.binaryURL.path],
            workingDirectory: SharedData.packageRoot
        )
        #expect(outcome.status == 0, "\(command.line): \(outcome.stderr)")
        if let promised = command.promisedOutput {
            let printed = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0).replacing(/\s+$/, with: "")
            }
            #expect(
                ReadmeCommand.output(printed, matches: promised),
                "\(command.line) printed:\n\(outcome.stdout)\nthe README promises:\n\(promised.joined(separator: "\n"))"
            )
        }
    }

    @Test func theSwiftExampleIsTheSnippetTheTestsRun() throws {
        let examples = Self.blocks.filter { $0.language == "swift" }
        #expect(examples.count == 1)
        let snippet = try String(
            contentsOf: DocumentationSnippetTests.directory.appendingPathComponent("ReadmeQuickStart.swift"),
            encoding: .utf8
        )
        let start = try #require(snippet.range(of: "// snippet.readme\n"))
        let end = try #require(snippet.range(of: "// snippet.end", range: start.upperBound..<snippet.endIndex))
        #expect(examples.first?.text == String(snippet[start.upperBound..<end.lowerBound]))
    }
}

/// A fenced block of the README, with the paragraph line just before it.
struct ReadmeBlock: Sendable {
    var language: String
    var text: String
    var introduction: String

    static func parse(_ markdown: String) -> [ReadmeBlock] {
        var blocks: [ReadmeBlock] = []
        var current: ReadmeBlock?
        var previous = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var block = current {
                if line == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    block.text += line + "\n"
                    current = block
                }
            } else if line.hasPrefix("```") {
                current = ReadmeBlock(language: String(line.dropFirst(3)), text: "", introduction: previous)
            } else if !line.isEmpty {
                previous = line
            }
        }
        return blocks
    }
}

/// One command of a README `sh` block and the output the README promises for it.
struct ReadmeCommand: Sendable, CustomTestStringConvertible {
    var line: String
    /// The promised output's lines; a line `…` stands for any number of lines.
    var promisedOutput: [String]?

    var testDescription: String { line }

    static let ordinals = ["first", "second", "third", "fourth"]

    /// The commands of each `sh` block (comments and blank lines aside). An untagged block introduced by "The first
    /// prints:" (second, third…) is the output of that command of the `sh` block before it.
    static func commands(in blocks: [ReadmeBlock]) -> [ReadmeCommand] {
        var commands: [ReadmeCommand] = []
        var shellBlockStart = 0
        for block in blocks {
            if block.language == "sh" {
                shellBlockStart = commands.count
                for line in block.text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
                where !line.isEmpty && !line.hasPrefix("#") {
                    commands.append(ReadmeCommand(line: line))
                }
            } else if block.language.isEmpty,
                let ordinal = ordinals.firstIndex(where: {
                    block.introduction.lowercased().hasPrefix("the \($0) prints")
                }),
                shellBlockStart + ordinal < commands.count
            {
                commands[shellBlockStart + ordinal].promisedOutput =
                    block.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            }
        }
        return commands
    }

    /// Whether `printed` is `promised`, where a promised `…` line matches any run of printed lines.
    static func output(_ printed: [String], matches promised: [String]) -> Bool {
        guard let first = promised.first else { return printed.allSatisfy(\.isEmpty) }
        if first == "…" {
            let rest = Array(promised.dropFirst())
            return (0...printed.count).contains { output(Array(printed.dropFirst($0)), matches: rest) }
        }
        guard let line = printed.first, line == first else { return false }
        return output(Array(printed.dropFirst()), matches: Array(promised.dropFirst()))
    }
}

@Suite struct ReadmeOutputMatchingTests {
    @Test func anEllipsisStandsForAnyLinesAndNothingElseIsLoose() {
        #expect(ReadmeCommand.output(["a", "b", "c", ""], matches: ["a", "…"]))
        #expect(ReadmeCommand.output(["a", "b", "c"], matches: ["a", "…", "c"]))
        #expect(!ReadmeCommand.output(["a", "b"], matches: ["a"]))
        #expect(!ReadmeCommand.output(["x", "b"], matches: ["a", "…"]))
        #expect(!ReadmeCommand.output(["a", "b"], matches: ["a", "…", "c"]))
    }
}

/// The README's user layer (its one `json` block) does what the paragraph before it says, over the bundled rules.
@Suite struct ReadmeUserLayerTests {
    @Test func theReadmesUserLayerDoesWhatItSays() async throws {
        let block = try #require(ReadmeTests.blocks.first { $0.language == "json" })
        #expect(block.introduction.contains("the ones to use first"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let layer = directory.appendingPathComponent("user-layer.json").path
        try Data(block.text.utf8).write(to: URL(fileURLWithPath: layer))

        // Over the bundled rules it has nothing to warn about.
        let lint = await InProcessCommand.run(["lint", "--user-layer", layer])
        #expect(lint.status == 0 && lint.stdout.contains(": 0 errors, 0 warnings"), "\(lint)")

        func openings(_ arguments: [String]) async throws -> [[String: Any]] {
            let outcome = await InProcessCommand.run(
                ["resolve", "--json", "--offline", "--user-layer", layer] + arguments
            )
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            return try #require(document?["openings"] as? [[String: Any]])
        }
        let tweet = "https://x.com/jack/status/20"
        let plain = try await openings([tweet])
        #expect(plain.contains { $0["kind"] as? String == "action" && $0["app"] as? String == "x" })
        #expect(plain.filter { $0["preferred"] != nil }.allSatisfy { $0["app"] as? String == "x" })
        #expect(plain.contains { $0["preferred"] != nil })
        #expect(!plain.contains { $0["app"] as? String == "firefox" })
        let fromSlack = try await openings(["--source-app", "com.tinyspeck.chatlyio", tweet])
        #expect(!fromSlack.isEmpty && fromSlack.allSatisfy { $0["kind"] as? String == "browser" })
        let bank = try await openings(["https://www.bank.example/x.com/jack/status/20"])
        #expect(bank.allSatisfy { $0["kind"] as? String == "browser" })
    }
}
