import Foundation
import Synchronization
import Testing

@testable import switchyard

/// What one run of `switchyard` printed and how it ended, in process or as the built binary.
struct CommandOutcome: Sendable {
    /// The exit status (the one `main` would exit with, for an in-process run).
    var status: Int32
    /// Everything written to standard output.
    var stdout: String
    /// Everything written to standard error.
    var stderr: String

    /// The non-empty lines of standard error.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs `switchyard` command lines in this process, as argument-parser's `AssertExecuteCommand` runs the built
/// binary: the arguments go through `Switchyard.parseAsRoot` and the command runs, both inside
/// `Switchyard.execute`, the function `main` calls, so the exit status and the text on each stream are the ones a
/// shell would see. Output is captured through `CommandOutput.current`, bound for this run only, so tests run in
/// parallel.
enum InProcessCommand {
    /// Runs `switchyard arguments…`; `errorIsTerminal` makes the captured standard error pass for a terminal, and
    /// `environment` (default: this process's) is the one the run reads the user's directories from.
    static func run(
        _ arguments: [String],
        errorIsTerminal: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> CommandOutcome {
        let capture = CapturedStreams()
        let output = CommandOutput(
            writeOutput: { data in capture.output.withLock { $0.append(data) } },
            writeError: { data in capture.error.withLock { $0.append(data) } },
            errorIsTerminal: errorIsTerminal
        )
        let status = await CommandOutput.$current.withValue(output) {
            await Switchyard.execute(arguments, environment: environment)
        }
        return CommandOutcome(
            status: status,
            stdout: capture.output.withLock { String(decoding: $0, as: UTF8.self) },
            stderr: capture.error.withLock { String(decoding: $0, as: UTF8.self) }
        )
    }

    /// The two streams of one run.
    private final class CapturedStreams: Sendable {
        let output = Mutex(Data())
        let error = Mutex(Data())
    }
}

/// How a test runs a command line: the end-to-end smoke tests run each case both ways and expect the same.
enum CommandRunner: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// In this process, through ``InProcessCommand``.
    case inProcess = "in process"
    /// The built binary, through ``SwitchyardProcess``: `main`, the real streams and `exit`.
    case binary

    var testDescription: String { rawValue }

    /// Runs `switchyard arguments…` this way.
    func run(_ arguments: [String]) async throws -> CommandOutcome {
        switch self {
        case .inProcess: await InProcessCommand.run(arguments)
        case .binary: try await SwitchyardProcess.run(arguments)
        }
    }
}
