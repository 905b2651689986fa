/// Why a URL did not match a template, or why a template cannot work; the message says which part and where.
public struct DeeplinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Equatable {
        /// A literal part of the template is not in the URL there.
        case literalMismatch = "E_LITERAL_MISMATCH"
        /// The URL has more after the template's end.
        case trailingText = "E_TRAILING_TEXT"
        /// A named query parameter the template needs is absent.
        case missingParameter = "E_PARAM_MISSING"
        /// An argument's text cannot be read as its type (`Int`, `UUID`, an enum, `Bool`).
        case invalidArgument = "E_INVALID_ARGUMENT"
        /// The URL's scheme or host is not the one the template is scoped to.
        case wrongScope = "E_WRONG_SCOPE"
        /// Two arguments with no literal between them: the split between them would be a guess.
        case adjacentArguments = "E_ADJACENT_ARGUMENTS"
        /// The template binds one property in two places (also as lists, or as a catch-all): the message names it.
        case repeatedArgument = "E_REPEATED_ARGUMENT"
        /// The template is malformed in another way.
        case invalidTemplate = "E_INVALID_TEMPLATE"
        /// No registered template matched.
        case noMatch = "E_NO_MATCH"
    }

    /// The kind of failure.
    public var code: Code
    /// One sentence naming the part and where.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `message [CODE]`.
    public var description: String { "\(message) [\(code.rawValue)]" }
}
