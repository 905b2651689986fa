import ArgumentParser
import Foundation

/// The `switchyard` command: every subcommand is thin over a library target.
@main
struct Switchyard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard",
        abstract: "Send every link to the app that should open it.",
        discussion: "Rule sets use the Opener manifest format (v1–v5). With no --manifest, the bundled rules are used.",
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
        ]
    )

    /// Runs the command line and exits with the status ``execute(_:)`` gives.
    static func main() async {
        Foundation.exit(await execute(Array(CommandLine.arguments.dropFirst())))
    }

    /// Parses and runs one command line, printing through ``CommandOutput/current``, and returns the exit status:
    /// 0 on success; 2 with one line on standard error for bad arguments and unusable input (argument-parser's usage
    /// errors included); 1 when checks fail; argument-parser's own status and text for help and other errors.
    ///
    /// `main` and the in-process tests both come through here, so a test sees exactly what a shell would.
    static func execute(_ arguments: [String]) async -> Int32 {
        let output = CommandOutput.current
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
            if code == .validationFailure {
                output.printError("error: \(message(for: error)) (see 'switchyard help')")
                return 2
            }
            // As argument-parser's `exit(withError:)`: help on standard output, anything else on standard error.
            let text = fullMessage(for: error)
            if !text.isEmpty {
                if code.isSuccess { output.print(text) } else { output.printError(text) }
            }
            return code.rawValue
        }
    }
}

/// A failure a command reports as one line on stderr with an exit status (2: bad input, 1: checks failed).
struct CommandFailure: Error {
    /// The line printed on standard error (`place: error: what failed`).
    var message: String
    /// The exit status.
    var exitCode: Int32 = 2
}
