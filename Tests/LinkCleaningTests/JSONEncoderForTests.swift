import Foundation

/// Sorted keys and explicit nulls, so a test can compare a document's text.
enum JSONEncoderForTests {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}
