import Foundation
import Testing

/// Loading `--manifest` files, in process: a broken manifest is an error at `file:line:column` with status 2;
/// argument-parser's usage errors also through the built binary.
@Suite struct ManifestOptionsTests {
    /// A malformed manifest and the `line:column` its first error must name.
    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var place: String
        var code: String
        var testDescription: String { name }
    }

    static let broken: [Broken] = [
        Broken(
            name: "truncated JSON",
            text: "{\n  \"apps\": [\n    {\"identifier\": \"a\",",
            place: "3:24",
            code: "E_JSON_SYNTAX"
        ),
        Broken(
            name: "unknown appId",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"regex": "x", "formats": [
                    {"appId": "nope", "format": "a://"}]}]
                }
                """,
            place: "4:15",
            code: "E_UNKNOWN_APP"
        ),
        Broken(
            name: "invalid regex",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"formats": [{"appId": "a", "format": "a://"}],
                    "regex": "(unclosed"}]
                }
                """,
            place: "4:14",
            code: "E_REGEX"
        ),
    ]

    @Test(arguments: broken, [["resolve", "https://x.example/"], ["test"]])
    func rejectsAMalformedManifestAtItsPlace(_ broken: Broken, command: [String]) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(broken.text, named: "broken.json")
        let arguments = command == ["test"] ? ["test", path] : command + ["--manifest", path]
        let output = await InProcessCommand.run(arguments)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        let first = try #require(output.stderrLines.first)
        #expect(first.hasPrefix("\(path):\(broken.place): error: "), "\(output.stderr)")
        #expect(first.contains(broken.code))
    }

    @Test func usesTheRestOfABrokenManifestWhenLenient() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.broken[1].text, named: "broken.json")
        let output = await InProcessCommand.run(["resolve", "--lenient", "--manifest", path, "https://x.example/"])
        #expect(output.status == 0)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderr.contains("E_UNKNOWN_APP"))
    }

    @Test func reportsAMissingFileInOneLine() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("absent.json").path
        for arguments in [["resolve", "--manifest", path, "https://x.example/"], ["test", path]] {
            let output = await InProcessCommand.run(arguments)
            #expect(output.status == 2)
            #expect(output.stderrLines == ["\(path): error: the manifest does not exist"])
        }
    }

    /// File errors have one style, `PATH: error: …` with the path as the user gave it: `resolve --manifest` wrote
    /// the absolute path and a code `lint` did not, and `choose --catalog` wrote `error: PATH: …`.
    @Test func fileErrorsHaveOneStyleWithThePathAsGiven() async throws {
        let relative = "no-such-folder-\(UUID().uuidString)/absent.json"
        for arguments in [
            ["resolve", "--offline", "--manifest", relative, "https://x.example/"], ["test", relative],
            ["lint", relative],
        ] {
            let output = await InProcessCommand.run(arguments)
            #expect(output.status == 2)
            #expect(output.stderrLines == ["\(relative): error: the manifest does not exist"], "\(arguments)")
        }
        let layer = await InProcessCommand.run(["resolve", "--offline", "--user-layer", relative, "https://x.example/"])
        #expect(layer.stderrLines == ["\(relative): error: the user layer does not exist"])
        let directory = try TemporaryDirectory()
        let empty = directory.url.appendingPathComponent("choosy")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let catalog = await InProcessCommand.run([
            "choose", "--catalog", empty.path, "--type", "maps", "--list-actions",
        ])
        #expect(catalog.status == 2)
        #expect(
            catalog.stderrLines == [
                "\(empty.path): error: the catalog folder has no systemAppTypes.json and no app-data/*.json [E_CATALOG]"
            ]
        )
        try Data("{".utf8).write(to: empty.appendingPathComponent("systemAppTypes.json"))
        let broken = await InProcessCommand.run(["choose", "--catalog", empty.path, "--type", "maps", "--list-actions"])
        #expect(
            broken.stderrLines == [
                "\(empty.path)/systemAppTypes.json: error: not Choosy app-type data (invalid JSON) [E_CATALOG]"
            ]
        )
    }

    /// A manifest URL on another port than 80 or 443 is refused before anything is asked, naming the rule and the
    /// option that lifts it.
    @Test func aManifestURLOnAnotherPortNamesTheOptionThatAllowsIt() async throws {
        let url = "http://127.0.0.1:18440/rules.json"
        let output = await InProcessCommand.run(["resolve", "https://x.example/", "--manifest", url])
        #expect(output.status == 2)
        #expect(
            output.stderrLines == [
                "\(url): error: The port 18440 of '\(url)' is refused: only ports 80 and 443 are fetched unless private addresses are allowed (--allow-private-addresses)."
            ]
        )
    }

    /// The smoke test of the built binary: `main` maps argument-parser's usage errors to status 2, an `error: ` line
    /// and the usage line of the command at fault.
    @Test(
        arguments: [
            (["resolve", "--bogus", "https://x.example/"], "Usage: switchyard resolve "),
            (["test", "--no-such-flag"], "Usage: switchyard test "),
            (["frobnicate"], "Usage: switchyard <subcommand>"),
        ],
        CommandRunner.allCases
    )
    func rejectsUnknownOptionsWithStatusTwo(_ usage: ([String], String), runner: CommandRunner) async throws {
        let output = try await runner.run(usage.0)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("error: "), "\(output.stderr)")
        #expect(output.stderrLines.count == 3, "\(output.stderr)")
        #expect(output.stderrLines.dropFirst().first?.hasPrefix(usage.1) == true, "\(output.stderr)")
    }
}
