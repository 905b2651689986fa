/// Why a text is not a link Switchyard resolves: one sentence naming the part at fault, and a stable code.
public struct LinkError: Error, Sendable, Equatable, CustomStringConvertible, Codable {
    /// The kind of problem (codes as in the hostile-input catalogue).
    public enum Code: String, Sendable, Codable {
        /// Nothing but whitespace.
        case empty = "E_EMPTY_INPUT"
        /// Longer than the limit.
        case tooLong = "E_TOO_LONG"
        /// A control character (a newline would forge the headers input of `headers` rules), or an invisible
        /// format character in the host.
        case controlCharacter = "E_CONTROL_CHAR"
        /// No scheme, or not `scheme://host`. Text without a scheme that reads as a host and a path has a
        /// ``LinkError/suggestion``.
        case notAbsolute = "E_NOT_ABSOLUTE"
        /// A scheme other than `http` and `https`: only web links are resolved.
        case notWebLink = "E_NOT_WEB_LINK"
        /// A user name or password before the host (`user@host`).
        case userinfo = "E_USERINFO"
        /// A port that is not a number from 0 to 65535.
        case badPort = "E_BAD_PORT"
        /// A host that is empty, malformed, percent-encoded or not a valid international name (a label that begins
        /// `xn--` and is not valid punycode included).
        case badHost = "E_BAD_HOST"
        /// A backslash before the query: browsers read it as `/`, HTTP clients do not, so the host can differ.
        case backslash = "E_BACKSLASH"
        /// Foundation's `URL` (the HTTP client's parser) reads a different host or port than the link names.
        case ambiguousHost = "E_AMBIGUOUS_HOST"
    }

    /// The kind of problem.
    public var code: Code
    /// One sentence naming the problem.
    public var message: String
    /// The link the text probably stands for, which a front end may offer: for text without a scheme that reads as a
    /// host and an optional path, query or fragment (`twitter.com/jack`), the `https://` link
    /// (`https://twitter.com/jack`), which the message quotes too. Nil otherwise. Not encoded: documents carry the
    /// code and the message.
    public var suggestion: String?

    /// Creates an error.
    public init(code: Code, message: String, suggestion: String? = nil) {
        self.code = code
        self.message = message
        self.suggestion = suggestion
    }

    /// A text of `byteCount` bytes, more than `limit`: the parser's refusal, and a batch's for a line too long to keep.
    /// `byteCount` is the link's length in UTF-8 bytes; `asWritten`, when given, the length of the text it came from
    /// (the canonical form is longer once non-ASCII characters are percent-encoded).
    public static func tooLong(byteCount: Int, limit: Int, asWritten: Int? = nil) -> LinkError {
        let encoded =
            asWritten.map { " once its non-ASCII characters are percent-encoded (\($0) as written)" } ?? ""
        return LinkError(
            code: .tooLong,
            message: "the link has \(byteCount) bytes\(encoded), more than the limit of \(limit)"
        )
    }

    /// `message [code]`.
    public var description: String { "\(message) [\(code.rawValue)]" }

    private enum CodingKeys: String, CodingKey { case code, message }
}
