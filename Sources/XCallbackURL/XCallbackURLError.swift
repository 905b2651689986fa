/// Why an x-callback-url could not be built, parsed or answered; the message names the part.
public struct XCallbackURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Equatable {
        case notXCallbackURL = "E_NOT_XCALLBACK_URL"
        case badScheme = "E_BAD_SCHEME"
        case badAction = "E_BAD_ACTION"
        case reservedParameter = "E_RESERVED_PARAM"
        case duplicateParameter = "E_DUPLICATE_PARAM"
        case badEncoding = "E_BAD_ENCODING"
        case malformedCallback = "E_MALFORMED_CALLBACK"
        case forbiddenCallbackScheme = "E_FORBIDDEN_CALLBACK_SCHEME"
        case callbackNotAllowed = "E_CALLBACK_NOT_ALLOWED"
        case tooLong = "E_TOO_LONG"
    }

    /// The kind of problem.
    public var code: Code
    /// The part of the URL at fault (`host`, `action`, `x-success`, a parameter name).
    public var part: String
    /// One sentence quoting the value.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, part: String, _ message: String) {
        self.code = code
        self.part = part
        self.message = message
    }

    /// `part: message [CODE]`.
    public var description: String { "\(part): \(message) [\(code.rawValue)]" }
}
