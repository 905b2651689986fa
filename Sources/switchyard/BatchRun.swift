import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

/// `resolve --batch`: a stream of links in, a stream of JSON lines out.
///
/// Output line N is the result of input line N (a blank line too: it is refused as empty), carries `"line": N`, and
/// is written as soon as it is resolved, so a pipe sees each result while later lines are still being read. A line
/// longer than a link may be is not kept whole: its refusal echoes a prefix and its length. A refused line never
/// stops the run.
enum BatchRun {
    /// How a run ended.
    struct Outcome: Equatable {
        /// The non-blank lines.
        var links = 0
        /// The non-blank lines refused.
        var refused = 0

        /// Whether there were links and every one was refused (the run's status is then 1).
        var everyLineFailed: Bool { links > 0 && refused == links }
    }

    /// Resolves every line of `lines` and writes its result.
    static func resolve(
        _ lines: BatchLines,
        resolver: Resolver,
        request: ResolveRequest
    ) async throws(CommandFailure) -> Outcome {
        var lines = lines
        let output = CommandOutput.current
        var outcome = Outcome()
        var number = 0
        while let line = try lines.next() {
            number += 1
            let result: BatchResult
            switch line {
            case .text(let text):
                result = echoed(await resolver.batchResult(for: text, request))
            case .overlong(let prefix, let byteCount):
                result = .refused(
                    input: echo(prefix, byteCount: byteCount),
                    error: .tooLong(byteCount: byteCount, limit: Link.maximumLength)
                )
            }
            let blank = line.isBlank
            if !blank { outcome.links += 1 }
            if !blank, case .refused = result { outcome.refused += 1 }
            var document = try CommandOutput.json(NumberedResult(line: number, result: result))
            document.append(0x0A)
            output.writeOutput(document)
        }
        return outcome
    }

    /// The longest part of an overlong line echoed back, in bytes.
    static let echoedPrefix = 100

    /// A refusal for length echoes a prefix of its input, never the whole of it.
    private static func echoed(_ result: BatchResult) -> BatchResult {
        guard case .refused(let input, let error) = result, error.code == .tooLong else { return result }
        return .refused(input: echo(input, byteCount: input.utf8.count), error: error)
    }

    /// `prefix… (truncated: N bytes)`: at most ``echoedPrefix`` bytes of `text`, cut between characters.
    static func echo(_ text: String, byteCount: Int) -> String {
        var prefix = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            guard bytes <= echoedPrefix else { break }
            prefix.append(character)
        }
        return "\(prefix)… (truncated: \(byteCount) bytes)"
    }
}

/// A batch result with its input line number: the result's own document plus `"line"`.
struct NumberedResult: Encodable {
    var line: Int
    var result: BatchResult

    private enum CodingKeys: String, CodingKey { case line }

    func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line, forKey: .line)
    }
}

/// The lines of a batch input, each returned as soon as its newline arrives (or the input ends). A line is kept
/// whole up to twice the link length limit (the parser trims whitespace, then applies the limit); a longer one keeps
/// only a prefix and its length, so a line of ten megabytes of garbage never sits in memory.
struct BatchLines {
    /// One line.
    enum Line: Equatable {
        /// A line kept whole (without its `\n` or `\r\n`).
        case text(String)
        /// A line too long to keep: its first bytes and its length.
        case overlong(prefix: String, byteCount: Int)

        /// Whether the line is empty or only whitespace.
        var isBlank: Bool {
            guard case .text(let text) = self else { return false }
            return text.allSatisfy(\.isWhitespace)
        }
    }

    private let input: UserFile.Reader
    private let keptBytes: Int
    private var buffer = Data()
    /// The bytes of the current line beyond ``keptBytes`` that were dropped.
    private var droppedBytes = 0
    private var finished = false

    init(_ input: UserFile.Reader, keptBytes: Int = 2 * Link.maximumLength) {
        self.input = input
        self.keptBytes = keptBytes
    }

    /// The next line, or nil at the end of the input; a read error stops the command.
    mutating func next() throws(CommandFailure) -> Line? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                defer { buffer.removeSubrange(buffer.startIndex...newline) }
                return make(line.last == 0x0D ? line.dropLast() : line)
            }
            if finished {
                guard !buffer.isEmpty || droppedBytes > 0 else { return nil }
                defer { buffer.removeAll() }
                return make(buffer[...])
            }
            let chunk: Data?
            do {
                chunk = try input.read(maximumCount: 1 << 16)
            } catch {
                throw CommandFailure(error, what: "batch input")
            }
            guard let chunk else {
                finished = true
                continue
            }
            buffer.append(chunk)
            // A line longer than what is kept: keep its start, count the rest.
            if buffer.count > keptBytes, buffer.firstIndex(of: 0x0A) == nil {
                droppedBytes += buffer.count - keptBytes
                buffer.removeSubrange(buffer.index(buffer.startIndex, offsetBy: keptBytes)...)
            }
        }
    }

    private mutating func make(_ bytes: Data.SubSequence) -> Line {
        defer { droppedBytes = 0 }
        let text = String(decoding: bytes, as: UTF8.self)
        guard droppedBytes == 0 else { return .overlong(prefix: text, byteCount: bytes.count + droppedBytes) }
        return .text(text)
    }
}
