/// A request field that does not hold a value a resolution can take: the field, the value as given and what the
/// field takes. Each front end names the field its own way (`--timeout`, `timeout=`, `"timeout"`).
public struct ResolveRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field.
    public var field: ResolveRequest.Field
    /// The value as given (empty when it was not text, such as a JSON object where a list belongs).
    public var value: String
    /// What the field takes, as the end of a sentence that starts with its name: `takes true or false`.
    public var requirement: String

    /// Creates an error.
    public init(_ field: ResolveRequest.Field, value: String, requirement: String) {
        self.field = field
        self.value = value
        self.requirement = requirement
    }

    /// The error code the HTTP API answers with (`E_PLATFORM`, `E_SOURCE_APP`, `E_TIMEOUT`, …).
    public var code: String {
        switch field {
        case .source: "E_SOURCE_APP"
        default:
            "E_"
                + field.stringValue.reduce(into: "") { code, character in
                    if character.isUppercase { code += "_" }
                    code += character.uppercased()
                }
        }
    }

    /// The sentence with the field named as `name`: `clean= takes true or false, not "yes"`.
    public func message(naming name: String) -> String {
        value.isEmpty ? "\(name) \(requirement)" : "\(name) \(requirement), not \"\(value)\""
    }

    /// The sentence with the field's own name.
    public var description: String { message(naming: field.stringValue) }
}
