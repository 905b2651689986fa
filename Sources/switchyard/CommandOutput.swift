import Foundation
import LinkResolver
import LinkRules

/// Where a command's output goes: the process's standard output and standard error, or buffers when a test runs a
/// command in process.
///
/// Commands print only through ``current``, a task-local value: `main` leaves it at ``standard``, and a test binds
/// its own for one run (`CommandOutput.$current.withValue(capture) { … }`), so parallel runs never share a stream.
struct CommandOutput: Sendable {
    /// Writes bytes to standard output.
    var writeOutput: @Sendable (Data) -> Void
    /// Writes bytes to standard error.
    var writeError: @Sendable (Data) -> Void
    /// Whether standard error is a terminal (live progress lines are drawn only then).
    var errorIsTerminal: Bool

    /// The process's own streams. A failed write (a closed pipe) is dropped rather than trapping.
    static let standard = CommandOutput(
        writeOutput: { try? FileHandle.standardOutput.write(contentsOf: $0) },
        writeError: { try? FileHandle.standardError.write(contentsOf: $0) },
        errorIsTerminal: isatty(FileHandle.standardError.fileDescriptor) == 1
    )

    /// The output of the command running in this task.
    @TaskLocal static var current = CommandOutput.standard

    /// Writes `text` and `terminator` to standard output.
    func print(_ text: String, terminator: String = "\n") {
        writeOutput(Data((text + terminator).utf8))
    }

    /// Writes one line to standard error.
    func printError(_ line: String) {
        writeError(Data((line + "\n").utf8))
    }

    /// Writes `value` as one JSON document and a newline to standard output.
    func printJSON(_ value: some Encodable, pretty: Bool = true) throws(CommandFailure) {
        writeOutput(try Self.json(value, pretty: pretty) + Data("\n".utf8))
    }

    /// `value` as one JSON document, with its version (``DocumentEncoder/document(_:pretty:)``).
    static func json(_ value: some Encodable, pretty: Bool = false) throws(CommandFailure) -> Data {
        do {
            return try DocumentEncoder.document(value, pretty: pretty)
        } catch {
            // Only a number JSON cannot write (NaN, infinity) gets here: a bug, reported without Foundation's text.
            throw CommandFailure(message: "error: the result cannot be written as JSON", exitCode: 1)
        }
    }
}
