import HTTPTypes
import LinkRules

/// The keys a JSON request body may have: one that is none of them is `400 E_UNKNOWN_FIELD` with its path and the
/// closest key (`"platfrom"` → `"platform"`), never silently ignored. Each body type checks its keys first in its
/// `init(from:)`.
enum BodyFields {
    /// Throws unless every key of the object `decoder` reads is one of `keys`.
    static func requireKnown(_ keys: Set<String>, in decoder: any Decoder) throws {
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where !keys.contains(key.stringValue) {
            let hint =
                KeySuggestion.closest(to: key.stringValue, among: keys).map { "; did you mean \"\($0)\"?" }
                ?? " (the keys: \(keys.sorted().joined(separator: ", ")))"
            throw APIError(
                .badRequest,
                "E_UNKNOWN_FIELD",
                "the body has no field \"\(key.stringValue.prefix(100))\"\(hint)",
                path: JSONBodyDecoder.jsonPath(decoder.codingPath + [key])
            )
        }
    }

    /// Any key of an object, to list them all.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
