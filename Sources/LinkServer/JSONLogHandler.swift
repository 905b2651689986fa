import Foundation
import LinkRules
import Logging
import Synchronization

/// How the server writes its log: swift-log's text lines, or one JSON object per line (``JSONLogHandler``).
package enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-01-02T03:04:05+0000 info switchyard.server : key=value message` (swift-log's `StreamLogHandler`).
    case text
    /// `{"timestamp", "level", "label", "message", "metadata"}`, one per line.
    case json

    /// A handler for `label` in this format at `level` and above, writing to `stream` (standard error by default).
    package func handler(
        label: String,
        level: Logger.Level = .info,
        stream: any TextOutputStream & Sendable = StandardErrorLogStream()
    ) -> any LogHandler {
        switch self {
        case .text:
            var handler = StreamLogHandler(label: label, stream: stream)
            handler.logLevel = level
            return handler
        case .json:
            return JSONLogHandler(label: label, level: level, stream: stream)
        }
    }
}

/// Writes each log event as one JSON object on one line: `{"timestamp", "level", "label", "message", "metadata"}`,
/// the timestamp in ISO 8601 with milliseconds (UTC), the metadata (the logger's, its provider's and the event's,
/// in that order of precedence, the event's winning) as strings, lists and objects, as swift-log gives them.
package struct JSONLogHandler: LogHandler {
    /// The logger's label.
    package let label: String
    /// The lowest level written.
    package var logLevel: Logger.Level
    /// The logger's own metadata, written with every event.
    package var metadata: Logger.Metadata = [:]
    /// Metadata added at each event (task-local values, say).
    package var metadataProvider: Logger.MetadataProvider?
    /// Where each line goes (in one `write`, with its newline).
    private let stream: any TextOutputStream & Sendable

    /// A handler for `label` at `level` and above, writing to `stream` (standard error by default).
    package init(
        label: String,
        level: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        stream: any TextOutputStream & Sendable = StandardErrorLogStream()
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.stream = stream
    }

    /// One entry of the logger's own metadata.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one line, with LinkRules' JSON string escaper (``JSONWriter/appendQuoted(_:to:)``): no
    /// encoder is made or run per event, as this runs once per request.
    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        // The fields in a fixed order.
        var line = #"{"timestamp":"#
        JSONWriter.appendQuoted(Date().formatted(Self.timestampStyle), to: &line)
        line += #","level":"#
        JSONWriter.appendQuoted(event.level.rawValue, to: &line)
        line += #","label":"#
        JSONWriter.appendQuoted(label, to: &line)
        line += #","message":"#
        JSONWriter.appendQuoted(event.message.description, to: &line)
        if !merged.isEmpty {
            line += #","metadata":"#
            Self.append(.dictionary(merged), to: &line)
        }
        line += "}\n"
        var stream = stream
        stream.write(line)
    }

    /// A metadata value as JSON: a string (a convertible's description), a list, or an object with its keys sorted.
    static func append(_ value: Logger.Metadata.Value, to line: inout String) {
        switch value {
        case .string(let text): JSONWriter.appendQuoted(text, to: &line)
        case .stringConvertible(let convertible): JSONWriter.appendQuoted(convertible.description, to: &line)
        case .array(let values):
            line += "["
            for (index, element) in values.enumerated() {
                if index > 0 { line += "," }
                append(element, to: &line)
            }
            line += "]"
        case .dictionary(let members):
            line += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { line += "," }
                JSONWriter.appendQuoted(member.key, to: &line)
                line += ":"
                append(member.value, to: &line)
            }
            line += "}"
        }
    }

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

/// Standard error as a log stream: each `write` (one log line) in one system call, under a lock, so lines from
/// concurrent requests do not interleave.
package struct StandardErrorLogStream: TextOutputStream, Sendable {
    private static let lock = Mutex(())

    /// The stream.
    package init() {}

    /// Writes `string` to standard error.
    package mutating func write(_ string: String) {
        Self.lock.withLock { _ in FileHandle.standardError.write(Data(string.utf8)) }
    }
}
