import Foundation

/// What every fuzz target shares: turning libFuzzer's bytes into fields and stopping loudly on a broken invariant.
///
/// Each target is built as its own executable from this file plus its `*Fuzzer.swift` (see `scripts/fuzz`), so
/// nothing here may refer to one target's module.
enum FuzzInput {
    /// The byte that separates the fields of multi-field inputs (regex, template, link, …). NUL never needs to be
    /// part of a regex, template or link under test, and it keeps reproducer files readable with `cat -v`.
    static let separator: UInt8 = 0

    /// The input as a byte array (libFuzzer's buffer is only valid during the call).
    static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The input as text; invalid UTF-8 becomes U+FFFD, as it would when a caller decodes bytes it received.
    static func text(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Splits the input into exactly `count` fields on ``separator``; missing fields are empty and the last field
    /// keeps any further separators, so every input maps to some fields.
    static func fields(_ bytes: [UInt8], count: Int) -> [String] {
        var fields = bytes.split(separator: separator, maxSplits: count - 1, omittingEmptySubsequences: false)
            .map { text($0) }
        while fields.count < count { fields.append("") }
        return fields
    }

    /// A JSON string literal for `text` (quotes, backslashes and control characters escaped).
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A short, printable preview of `text` for failure messages.
    static func preview(_ text: String, limit: Int = 300) -> String {
        let escaped = text.unicodeScalars.map {
            $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? String($0) : $0.escaped(asASCII: true)
        }
        .joined()
        return escaped.count > limit ? String(escaped.prefix(limit)) + "…" : escaped
    }
}

/// A broken invariant: the message goes to stderr and the process traps, which libFuzzer reports as a crash and
/// saves the input as a reproducer.
func fuzzExpect(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("\n*** fuzz invariant broken (\(file):\(line)): \(message())\n".utf8))
    fatalError("fuzz invariant broken: \(message())", file: file, line: line)
}

/// Wall-clock time of `body`, with its result.
func fuzzTimed<T>(_ body: () throws -> T) rethrows -> (result: T, elapsed: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = try body()
    return (result, clock.now - start)
}
