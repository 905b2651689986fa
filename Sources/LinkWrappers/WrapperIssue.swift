import WebLinks

/// One thing wrong with a wrapper entry, located: a user layer's loader reports it as its diagnostic.
package struct WrapperIssue: Sendable, Equatable, CustomStringConvertible {
    /// How bad it is: an error leaves the entry out.
    package enum Severity: String, Sendable {
        case error
        case warning
    }

    package var severity: Severity
    /// A stable code (`E_WRAPPER_DECODE`, `W_UNKNOWN_KEY`).
    package var code: String
    /// One sentence.
    package var message: String
    package var pointer: JSONPointer
    package var position: SourcePosition?
    package var file: String?

    /// `file:line:column: severity: message [code at pointer]`.
    package var description: String {
        var place = file ?? "<link wrappers>"
        if let position { place += ":\(position)" }
        return "\(place): \(severity.rawValue): \(message) [\(code) at \(pointer)]"
    }
}
