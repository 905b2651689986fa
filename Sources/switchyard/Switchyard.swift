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

/// Output files written whole or not at all: the text goes to a temporary file beside the target, then is renamed
/// over it, so a failure never leaves half a manifest behind.
enum OutputFile {
    static func write(_ text: String, to path: String) throws {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
        )
        do {
            try Data(text.utf8).write(to: temporary)
            // rename(2) replaces the target atomically (same directory, so same file system).
            guard rename(temporary.path, target.path) == 0 else {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))]
                )
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure(message: "\(path): error: cannot write the file: \(error.localizedDescription)")
        }
    }
}
