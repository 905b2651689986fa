/// A catalog that cannot be read at all: one sentence, with the file and line:column when known.
public struct LinkWrapperError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, and where.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
