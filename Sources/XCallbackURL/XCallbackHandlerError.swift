/// A handler's failure, passed back to the caller as `errorCode` and `errorMessage` on `x-error`.
public struct XCallbackHandlerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `errorCode`: a short machine-readable code.
    public var code: String
    /// `errorMessage`: one sentence for the user (truncated to ``XCallbackRequest/maximumErrorMessageLength``).
    public var message: String

    /// Creates a failure.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The action has no handler.
    static func unknownAction(_ action: String) -> Self {
        Self(code: "unknownAction", message: "the action \"\(action)\" is not supported")
    }

    /// A typed parameter is missing or does not convert.
    static func invalidParameter(_ name: String, _ message: String) -> Self {
        Self(code: "invalidParameter", message: "the parameter \"\(name)\" \(message)")
    }
}
