import Foundation

/// An RFC 6901 JSON pointer, built one token at a time.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    /// The unescaped reference tokens.
    public private(set) var tokens: [String]

    /// The pointer to the whole document.
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses `/a/b~1c` style text.
    public init(stringLiteral value: String) {
        tokens = value.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// Decodes the escaped pointer text.
    public init(from decoder: any Decoder) throws {
        self.init(stringLiteral: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the escaped pointer text (`/actions/3/formats/1`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// This pointer extended by a member name.
    public func appending(_ key: String) -> JSONPointer { JSONPointer(tokens: tokens + [key]) }

    /// This pointer extended by an array index.
    public func appending(_ index: Int) -> JSONPointer { JSONPointer(tokens: tokens + [String(index)]) }

    /// The escaped pointer text (`""` for the root).
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                for character in token {
                    switch character {
                    case "~": text.append("~0")
                    case "/": text.append("~1")
                    default: text.append(character)
                    }
                }
            } else {
                text.append(token)
            }
        }
        return text
    }
}
