import AppChooser
import ArgumentParser
import Foundation
import LinkResolver
import LinkRules

/// The `switchyard` command: every subcommand is thin over a library target.
@main
struct Switchyard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard",
        abstract: "Send every link to the app that should open it.",
        discussion: "Rule sets use the Opener manifest format (v1–v5). With no --manifest, the bundled rules are used.",
        version: SwitchyardVersion.current,
        subcommands: [
            ResolveCommand.self,
            TestCommand.self,
            LintCommand.self,
            MinifyCommand.self,
            MigrateCommand.self,
            BenchCommand.self,
            ExplainCommand.self,
            ServeCommand.self,
            XCallbackCommand.self,
            ChooseCommand.self,
            CleanCommand.self,
            ClaimsCommand.self,
            PredictCommand.self,
        ]
    )

    /// Runs the command line and exits with the status ``execute(_:)`` gives.
    static func main() async {
        Foundation.exit(await execute(Array(CommandLine.arguments.dropFirst())))
    }

    /// Parses and runs one command line, printing through ``CommandOutput/current``, and returns the exit status:
    /// 0 on success; 2 for bad arguments and unusable input; 1 when checks fail; argument-parser's own status and text
    /// for help, `--version` and other errors.
    ///
    /// A usage error prints what argument-parser prints (the error, the usage line of the command at fault and the
    /// hint to its help), with the tool's `error: ` style. `environment` gives the user's directories (the choices
    /// store, the download cache), so a test can set them for one run. `main` and the in-process tests both come
    /// through here, so a test sees exactly what a shell would.
    static func execute(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        await UserDirectories.$current.withValue(UserDirectories(environment: environment)) {
            await run(arguments)
        }
    }

    private static func run(_ arguments: [String]) async -> Int32 {
        let output = CommandOutput.current
        if arguments.first == "help", let unknown = unknownHelpTopic(Array(arguments.dropFirst())) {
            // argument-parser prints the general help with status 0 for a topic it does not know.
            output.printError("error: \(unknown)\n  See 'switchyard help' for the commands.")
            return CommandFailure.badInput
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitCode.success.rawValue
        } catch let failure as CommandFailure {
            output.printError(failure.message)
            return failure.exitCode
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .validationFailure {
                var lines = usageError(text, message: message(for: error)).split(
                    separator: "\n",
                    omittingEmptySubsequences: false
                )
                if let unknown = unknownCommand(arguments) { lines[0] = "error: \(unknown)" }
                output.printError(lines.joined(separator: "\n"))
                return CommandFailure.badInput
            }
            // As argument-parser's `exit(withError:)`: help on standard output, anything else on standard error.
            if !text.isEmpty {
                if code.isSuccess { output.print(text) } else { output.printError(text) }
            }
            return code.rawValue
        }
    }

    /// A first argument that names no command (`reslove`), said as such with the closest command, as a misspelt
    /// option is (`unknown command 'reslove'; did you mean 'resolve'?`): argument-parser only says "Unexpected
    /// argument". Nil when the first argument is an option or a command.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        return unknownSubcommand(first, of: Switchyard.self, also: ["help"])
    }

    /// `help TOPIC…` naming a command that does not exist, at any level (`help nope`, `help claims nope`), said as a
    /// misspelt command is; nil when every name is a command.
    static func unknownHelpTopic(_ names: [String]) -> String? {
        var command: any ParsableCommand.Type = Switchyard.self
        for name in names where !name.hasPrefix("-") {
            if let unknown = unknownSubcommand(name, of: command) { return unknown }
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == name }) else {
                return nil
            }
            command = next
        }
        return nil
    }

    /// `unknown command 'NAME'` with the closest of `command`'s subcommands (or all of them), or nil when it is one.
    static func unknownSubcommand(
        _ name: String,
        of command: any ParsableCommand.Type,
        also extra: [String] = []
    ) -> String? {
        let names = Set(command.configuration.subcommands.map { $0._commandName } + extra)
        guard !names.contains(name) else { return nil }
        guard !names.isEmpty else { return "unknown command '\(name.prefix(100))': \(command._commandName) has none" }
        let scope = ObjectIdentifier(command) == ObjectIdentifier(Switchyard.self) ? "" : " of \(command._commandName)"
        let suggestion = KeySuggestion.closest(to: name, among: names).map { "; did you mean '\($0)'?" }
        return "unknown command '\(name.prefix(100))'\(scope)"
            + (suggestion ?? " (the commands: \(names.sorted().joined(separator: ", ")))")
    }

    /// argument-parser's text for a usage error (`Error: message`, then the usage and help lines of the command at
    /// fault) with the tool's `error: message` first line.
    static func usageError(_ fullMessage: String, message: String) -> String {
        let first = "Error: \(message)"
        let rest = fullMessage.hasPrefix(first) ? String(fullMessage.dropFirst(first.count)) : ""
        let usage = rest.trimmingCharacters(in: .newlines)
        return "error: \(message)" + (usage.isEmpty ? "" : "\n" + usage)
    }
}

/// A failure a command reports as one line on stderr with an exit status (2: bad input, 1: checks failed).
struct CommandFailure: Error {
    /// The line printed on standard error (`place: error: what failed`).
    var message: String
    /// The exit status.
    var exitCode: Int32 = CommandFailure.badInput

    /// The status for bad arguments and unusable input.
    static let badInput: Int32 = 2
}

extension CommandFailure {
    /// A file or folder the user named that cannot be used: `PATH: error: the WHAT REASON`, status 2.
    init(_ error: UserFileError, what: String) {
        self.init(message: error.message(for: what))
    }

    /// The chooser's error: `FILE: error: message [CODE]` when a file is at fault (a store, a catalog file), else
    /// `error: message [CODE]`; `hint` ends the sentence. Status 2.
    init(_ error: ChooserError, hint: String = "") {
        self.init(
            message: "\(error.file.map { "\($0): " } ?? "")error: \(error.message)\(hint) [\(error.code.rawValue)]"
        )
    }
}
