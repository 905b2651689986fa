/// Why the chooser could not answer; the message names the type, action, app or file.
public struct ChooserError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        case invalidCatalog = "E_CATALOG"
        case unknownType = "E_UNKNOWN_TYPE"
        case unknownAction = "E_UNKNOWN_ACTION"
        case unknownApp = "E_UNKNOWN_APP"
        case store = "E_STORE"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) [\(code.rawValue)]" }
}
