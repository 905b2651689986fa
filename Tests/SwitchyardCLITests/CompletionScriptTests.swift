import Foundation
import Testing

/// The shell completion scripts complete paths wherever a command takes a file or a folder.
@Suite struct CompletionScriptTests {
    /// What bash offers for a manifest, any file, or a folder.
    static let manifestFiles = "__switchyard_add_completions -o plusdirs -fX '!*.@(json)'"
    static let anyFile = "__switchyard_add_completions -f"
    static let folders = "__switchyard_add_completions -d"

    /// A command's option (or positional `1)`), and the line bash runs to complete its value.
    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        var argument: String
        var completion: String
        var testDescription: String { "\(command) \(argument)" }
    }

    static let cases: [Case] = [
        Case(command: "resolve", argument: "--manifest", completion: manifestFiles),
        Case(command: "resolve", argument: "--batch", completion: anyFile),
        Case(command: "resolve", argument: "--record", completion: folders),
        Case(command: "resolve", argument: "--replay", completion: folders),
        Case(command: "explain", argument: "--manifest", completion: manifestFiles),
        Case(command: "test", argument: "1", completion: manifestFiles),
        Case(command: "test", argument: "--cases", completion: manifestFiles),
        Case(
            command: "test",
            argument: "--junit",
            completion: "__switchyard_add_completions -o plusdirs -fX '!*.@(xml)'"
        ),
        Case(command: "test", argument: "--record", completion: folders),
        Case(command: "lint", argument: "1", completion: manifestFiles),
        Case(command: "minify", argument: "1", completion: manifestFiles),
        Case(command: "minify", argument: "--output", completion: manifestFiles),
        Case(command: "migrate", argument: "1", completion: manifestFiles),
        Case(command: "migrate", argument: "--output", completion: manifestFiles),
        Case(command: "bench", argument: "--manifest", completion: manifestFiles),
        Case(command: "bench", argument: "--corpus", completion: anyFile),
        Case(command: "serve", argument: "--manifest", completion: manifestFiles),
        Case(command: "choose", argument: "--catalog", completion: folders),
        Case(
            command: "choose",
            argument: "--choices",
            completion: "__switchyard_add_completions -o plusdirs -fX '!*.@(sqlite)'"
        ),
    ]

    @Test(arguments: cases)
    func bashCompletesPaths(_ expected: Case) async throws {
        let output = await InProcessCommand.run(["--generate-completion-script", "bash"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            Self.completion(in: output.stdout, command: expected.command, argument: expected.argument)
                == expected.completion
        )
    }

    /// `resolve --manifest` and `--record` in zsh and fish too: the line declaring the option completes paths.
    @Test(arguments: [
        ("zsh", "'--manifest[", #":path|url:_files -g '\''*.json'\'''"#),
        ("zsh", "'--record[", ":dir:_files -/'"),
        ("fish", "-l 'manifest'", #"*.\'json\'"#),
        ("fish", "-l 'record'", "(__switchyard_complete_directories)"),
    ])
    func otherShellsCompletePaths(_ shell: String, option: String, completion: String) async throws {
        let output = await InProcessCommand.run(["--generate-completion-script", shell])
        #expect(output.status == 0, "\(output.stderr)")
        let line = output.stdout.split(separator: "\n").first { $0.contains(option) }
        #expect(line?.contains(completion) == true, "\(line ?? "no line for \(option)")")
    }

    /// The first line after `'ARGUMENT')` (or `ARGUMENT)` for a positional) in `_switchyard_COMMAND()`.
    static func completion(in script: String, command: String, argument: String) -> String? {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "_switchyard_\(command)() {") else { return nil }
        let body = lines[start...].prefix { $0 != "}" }
        // An option with a short name too is `'--output'|'-o')`.
        let label = argument.hasPrefix("-") ? "'\(argument)'" : "\(argument))"
        guard
            let labelLine = body.firstIndex(where: {
                let line = $0.trimmingCharacters(in: .whitespaces)
                return line == label + ")" || line == label || line.hasPrefix(label + "|")
            }),
            labelLine + 1 < body.endIndex
        else { return nil }
        return body[labelLine + 1].trimmingCharacters(in: .whitespaces)
    }
}
