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
            BenchCommand.self,
            ExplainCommand.self,
            ServeCommand.self,
            XCallbackCommand.self,
            ChooseCommand.self,
        ]
    )

    /// Runs the command line; bad arguments and unreadable inputs print one line on stderr and exit with status 2.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            Terminal.printError(failure.message)
            Foundation.exit(failure.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                Terminal.printError("error: \(message(for: error)) (see 'switchyard help')")
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// A failure a command reports as one line on stderr with an exit status (2: bad input, 1: checks failed).
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32 = 2
}

/// Small helpers for writing to the terminal.
enum Terminal {
    /// Writes a line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Whether standard error is a terminal (progress lines only then).
    static var standardErrorIsTerminal: Bool { isatty(2) == 1 }
}
