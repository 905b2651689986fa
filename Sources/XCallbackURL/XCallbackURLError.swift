/// Why an x-callback-url could not be built, parsed or answered; the message names the part and quotes the value.
public struct XCallbackURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem; the raw values are the stable codes the CLI and the HTTP API print.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// Not of the form `scheme://x-callback-url/action`.
        case notXCallbackURL = "E_NOT_XCALLBACK_URL"
        /// The scheme is not a URL scheme, or not the one a dispatcher serves.
        case badScheme = "E_BAD_SCHEME"
        /// The action is empty or has an empty, `.` or `..` path segment.
        case badAction = "E_BAD_ACTION"
        /// An action parameter uses the `x-` prefix the spec reserves.
        case reservedParameter = "E_RESERVED_PARAM"
        /// An action parameter has an empty name.
        case badParameter = "E_BAD_PARAM"
        /// `x-source`, `x-success`, `x-error` or `x-cancel` appears twice.
        case duplicateParameter = "E_DUPLICATE_PARAM"
        /// An invalid percent escape, bytes that are not UTF-8, or a raw control character.
        case badEncoding = "E_BAD_ENCODING"
        /// A callback that is not an absolute URL.
        case malformedCallback = "E_MALFORMED_CALLBACK"
        /// A callback whose scheme could run code or read local data (`javascript:`, `data:`, `file:`, …).
        case forbiddenCallbackScheme = "E_FORBIDDEN_CALLBACK_SCHEME"
        /// A callback outside the policy's allowed schemes or web hosts.
        case callbackNotAllowed = "E_CALLBACK_NOT_ALLOWED"
        /// A callback longer than the policy allows.
        case tooLong = "E_TOO_LONG"
        /// Callbacks nested (callback of a callback of …) deeper than the policy allows.
        case tooDeep = "E_TOO_DEEP"
    }

    /// The kind of problem.
    public var code: Code
    /// The part of the URL at fault (`scheme`, `host`, `action`, `x-success`, a parameter name).
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
