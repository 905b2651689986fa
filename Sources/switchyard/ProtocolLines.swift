import ArgumentParser
import LinkRules

/// `--protocol [--input FILE]`, the options of a command that also answers a line protocol.
struct ProtocolOptions: ParsableArguments {
    @Flag(name: .customLong("protocol"), help: "Answer conformance-protocol requests, one JSON object per line.")
    var conformanceProtocol = false

    @Option(
        help: ArgumentHelp(
            "With --protocol: read the requests from this file ('-': standard input).",
            valueName: "file"
        )
    )
    var input = "-"

    /// Answers each line of the input with `answer` (``ProtocolLines/answer(input:with:)``).
    func answer(with answer: (String) async -> String) async throws(CommandFailure) {
        try await ProtocolLines.answer(input: input, with: answer)
    }
}

/// The loop of a line protocol (`claims --protocol`, `predict --protocol`): each line of the input (a file, or `-`
/// for standard input) answered as soon as it is read, blank lines skipped, a line over 16 MiB answered with an error
/// and never kept whole; no line stops the loop.
enum ProtocolLines {
    /// The most bytes of one request line.
    static let maximumLineBytes = 16 << 20

    /// Answers each line of `input` with `answer`, printing each answer on its own line.
    static func answer(input: String, with answer: (String) async -> String) async throws(CommandFailure) {
        let reader: UserFile.Reader
        do {
            reader = input == "-" ? UserFile.standardInput() : try UserFile.open(input)
        } catch {
            throw CommandFailure(error, what: "request input")
        }
        defer { reader.close() }
        var lines = BatchLines(reader, keptBytes: maximumLineBytes)
        let output = CommandOutput.current
        while let line = try lines.next() {
            switch line {
            case .text(let text):
                if line.isBlank { continue }
                output.print(await answer(text))
            case .overlong(_, let byteCount):
                output.print(
                    #"{"id":null,"error":"the line has \#(byteCount) bytes, more than the 16 MiB a request may have"}"#
                )
            }
        }
    }
}
