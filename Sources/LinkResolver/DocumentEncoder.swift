import Foundation

/// How every Switchyard document is written as JSON, by the CLI (`--json`, batch lines) and the HTTP API alike:
/// keys sorted, slashes unescaped (links stay readable), compact unless `pretty`.
public enum DocumentEncoder {
    /// A JSON encoder with the documents' settings.
    public static func json(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
