import Foundation

/// The version of Switchyard: `switchyard --version` prints it, every JSON document carries it as `"version"`, and
/// the HTTP API's OpenAPI description gives it. It changes with every release (see CHANGELOG.md).
public enum SwitchyardVersion {
    /// The released version this code is, as `major.minor.patch`.
    public static let current = "0.1.0"
}

/// How every Switchyard document is written as JSON, by the CLI (`--json`, batch lines) and the HTTP API alike:
/// keys sorted, slashes unescaped (links stay readable), compact unless `pretty`.
public enum DocumentEncoder {
    /// A JSON encoder with the documents' settings (for parts of documents; whole documents go through
    /// ``document(_:pretty:)``, which adds the version).
    public static func json(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value`, a JSON object, as one whole document: its keys sorted as ``json(pretty:)`` writes them, after a
    /// first `"version"` key with ``SwitchyardVersion/current``, so that a reader knows which Switchyard wrote it.
    ///
    /// Throws when `value` cannot be written as JSON (a NaN) or is not an object.
    public static func document(_ value: some Encodable, pretty: Bool = false) throws(EncodingError) -> Data {
        if !pretty, let bytes = written(value) { return Data(bytes) }
        return try encoded(value, pretty: pretty)
    }

    /// ``document(_:pretty:)``, compact, as bytes: what the server sends (one copy of the text fewer than through
    /// `Data`).
    public static func documentBytes(_ value: some Encodable) throws(EncodingError) -> [UInt8] {
        if let bytes = written(value) { return bytes }
        return Array(try encoded(value, pretty: false))
    }

    /// The document a ``DocumentWritable`` value writes itself (nil: it is not one, or a member could not be written).
    private static func written(_ value: some Encodable) -> [UInt8]? {
        // The documents a server writes most write themselves, to the same bytes (see DocumentJSON). Room for a
        // resolution of sixty openings from the start: growing the text from 1 KiB copied it four times.
        guard let writable = value as? any DocumentWritable else { return nil }
        var writer = DocumentMemberWriter(json: DocumentJSON(capacity: 16 << 10))
        writer.json.openObject()
        writer.write("version", SwitchyardVersion.current)
        writable.writeDocumentMembers(to: &writer)
        writer.json.closeObject()
        return writer.json.failed ? nil : writer.json.bytes
    }

    /// The document through `JSONEncoder`, the version put in front of its first key.
    private static func encoded(_ value: some Encodable, pretty: Bool) throws(EncodingError) -> Data {
        let body: Data
        do {
            body = try json(pretty: pretty).encode(value)
        } catch let error as EncodingError {
            throw error
        } catch {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(error)"))
        }
        guard body.first == UInt8(ascii: "{") else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "a document is a JSON object, not \(type(of: value))")
            )
        }
        // JSONEncoder writes `{}` or `{"key":…` compact, and `{\n\n}` or `{\n  "key" : …` pretty: the version goes
        // in front of the first key, in the same layout.
        let rest = body.dropFirst()
        let isEmpty = rest.first { $0 != UInt8(ascii: "\n") } == UInt8(ascii: "}")
        let version =
            pretty
            ? "\n  \"version\" : \"\(SwitchyardVersion.current)\"" : "\"version\":\"\(SwitchyardVersion.current)\""
        var document = Data("{".utf8)
        document.append(Data(version.utf8))
        if isEmpty {
            document.append(Data((pretty ? "\n}" : "}").utf8))
        } else {
            document.append(UInt8(ascii: ","))
            document.append(rest)
        }
        return document
    }
}
