/// Something a front end should tell the user about a resolution that is not an error of any one opening: a choice
/// remembered for the site that could not be applied, for example. `{"code", "message"}`.
public struct ResolutionNotice: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A stable code (`E_REMEMBERED_APP_UNAVAILABLE`, …).
    public var code: String
    /// One sentence for a person, naming the site, app or file concerned.
    public var message: String

    /// Creates a notice.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `message [code]`.
    public var description: String { "\(message) [\(code)]" }
}
