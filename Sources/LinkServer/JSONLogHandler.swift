import Foundation
import Logging
import Synchronization

/// How the server writes its log: swift-log's text lines, or one JSON object per line (``JSONLogHandler``).
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-01-02T03:04:05+0000 info switchyard.server : key=value message` (swift-log's `StreamLogHandler`).
    case text
    /// `{"timestamp", "level", "label", "message", "metadata"}`, one per line.
    case json

    /// A handler for `label` in this format at `level` and above, writing to `stream` (standard error by default).
    public func handler(
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
public struct JSONLogHandler: LogHandler {
    /// A metadata value in JSON: a string, a list, or an object.
    enum MetadataValue: Encodable {
        case string(String)
        case list([MetadataValue])
        case object([String: MetadataValue])

        init(_ value: Logger.Metadata.Value) {
            switch value {
            case .string(let text): self = .string(text)
            case .stringConvertible(let convertible): self = .string(convertible.description)
            case .array(let values): self = .list(values.map(MetadataValue.init))
            case .dictionary(let values): self = .object(values.mapValues(MetadataValue.init))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .list(let values): try container.encode(values)
            case .object(let values): try container.encode(values)
            }
        }
    }

    /// The logger's label.
    public let label: String
    /// The lowest level written.
    public var logLevel: Logger.Level
    /// The logger's own metadata, written with every event.
    public var metadata: Logger.Metadata = [:]
    /// Metadata added at each event (task-local values, say).
    public var metadataProvider: Logger.MetadataProvider?
    /// Where each line goes (in one `write`, with its newline).
    private let stream: any TextOutputStream & Sendable

    /// A handler for `label` at `level` and above, writing to `stream` (standard error by default).
    public init(
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
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one line.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        // The fields in a fixed order (an encoder's keyed container does not keep one), each value encoded alone.
        let fields: [(String, any Encodable)] =
            [
                ("timestamp", Date().formatted(Self.timestampStyle)), ("level", event.level.rawValue),
                ("label", label), ("message", event.message.description),
            ] + (merged.isEmpty ? [] : [("metadata", merged.mapValues(MetadataValue.init))])
        let encoder = JSONEncoder.logLine
        var line = "{"
        for (index, (key, value)) in fields.enumerated() {
            guard let data = try? encoder.encode(value) else { return }
            line += (index == 0 ? "\"" : ",\"") + key + "\":" + String(decoding: data, as: UTF8.self)
        }
        var stream = stream
        stream.write(line + "}\n")
    }

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

extension JSONEncoder {
    /// The encoder of log values: compact, slashes unescaped, metadata keys sorted.
    fileprivate static var logLine: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }
}

/// Standard error as a log stream: each `write` (one log line) in one system call, under a lock, so lines from
/// concurrent requests do not interleave.
public struct StandardErrorLogStream: TextOutputStream, Sendable {
    private static let lock = Mutex(())

    /// The stream.
    public init() {}

    /// Writes `string` to standard error.
    public mutating func write(_ string: String) {
        Self.lock.withLock { _ in FileHandle.standardError.write(Data(string.utf8)) }
    }
}
